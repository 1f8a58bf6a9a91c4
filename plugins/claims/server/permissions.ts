import type { Permission, PermissionDeclaration } from '@atrium/sdk/server';

/**
 * Every permission the claims module checks. Resources are `claims:<thing>`; the access module's
 * system policies grant `claims:*` to Claims Adjuster and Administrator, read to Underwriter and
 * read + create of claims:claim to agents.
 */
const RESOURCES = {
  claim: ['read', 'create', 'update', 'delete', 'assign'],
  exposure: ['read', 'create', 'update', 'delete', 'assign'],
  party: ['read', 'create', 'update', 'delete'],
  reserve: ['read', 'create', 'update', 'delete', 'approve'],
  payment: ['read', 'create', 'update', 'delete', 'approve'],
  recovery: ['read', 'create', 'update', 'delete', 'approve'],
  transaction: ['read', 'create', 'update', 'delete', 'approve'],
  'payment-batch': ['read', 'create', 'update', 'delete', 'approve'],
  'authority-limit': ['read', 'create', 'update', 'delete', 'approve'],
  attachment: ['read', 'create', 'update', 'delete'],
  lookup: ['read', 'create', 'update', 'delete'],
  policy: ['read', 'create', 'update', 'delete'],
  product: ['read', 'create', 'update', 'delete'],
  assignment: ['read', 'create', 'update', 'delete', 'assign'],
  'audit-log': ['read'],
  injury: ['read', 'create', 'update', 'delete'],
  /**
   * `read-ssn`: a contact's SSN in full instead of masked (`***-**-1234`), audited each time
   * (docs/security.md, "SSNs"). Administrators and Claims Supervisors hold it; Claims Adjusters do
   * not (the access module's system policies say why).
   */
  contact: ['read', 'create', 'update', 'delete', 'read-ssn'],
  user: ['read', 'update'],
  /** Historical claims import (docs/claims-import.md): read the runs, create (preview and run) an import. */
  import: ['read', 'create'],
  /** Claim outbound e-mail (docs/mail.md): list a claim's mails, compose and send one. */
  email: ['read', 'create'],
} as const;

type Thing = keyof typeof RESOURCES;
type ActionOf<T extends Thing> = (typeof RESOURCES)[T][number];

/** `claimsPermission('claim', 'read')` → `{ resource: 'claims:claim', action: 'read' }`, typed against the table above. */
export function claimsPermission<T extends Thing>(thing: T, action: ActionOf<T>): Permission {
  return { resource: `claims:${thing}`, action };
}

const WHAT: Record<Thing, string> = {
  claim: 'claims and FNOL drafts',
  exposure: 'exposures',
  party: 'claim parties',
  reserve: 'reserves',
  payment: 'payments',
  recovery: 'recoveries',
  transaction: 'ledger transactions',
  'payment-batch': 'payment batches',
  'authority-limit': 'authority limits and approvals',
  attachment: 'attachments and folders',
  lookup: 'claim lookups (perils, tags, statuses, reasons …)',
  policy: 'mock policies, revisions, policy types and statuses',
  product: 'claims products',
  assignment: 'claim and exposure assignments',
  'audit-log': 'the claims audit log',
  injury: 'injuries',
  contact: 'claim contacts (contacts integration)',
  user: 'claim users and their settings',
  import: 'historical claims imports (upload, preview, run)',
  email: 'claim outbound e-mails',
};

const VERB: Record<string, string> = {
  read: 'List and read',
  create: 'Create',
  update: 'Change',
  delete: 'Delete',
  approve: 'Approve or reject',
  assign: 'Assign',
  'read-ssn': 'See in full (unmasked) the SSNs of',
};

export const CLAIMS_PERMISSION_DECLARATIONS: PermissionDeclaration[] = [
  ...(Object.keys(RESOURCES) as Thing[]).flatMap((thing) =>
    RESOURCES[thing].map((action) => ({
      resource: `claims:${thing}`,
      action,
      description: `${VERB[action]} ${WHAT[thing]}.`,
    })),
  ),
  { resource: 'ui:claims', action: 'ViewModule', description: 'See the Claims module.' },
];
