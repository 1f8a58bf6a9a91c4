import type { Condition, Statement } from '../shared/statement-schema.js';

/**
 * The roles every installation starts with, their read-only system policies, and which policies
 * each role has. Resources are named `<module>:<thing>` (`claims:payment`); a module's visibility
 * is the `ViewModule` action on `ui:<module>`.
 */
export const MODULES = [
  'contacts',
  'lines',
  'policies',
  'claims',
  'reports',
  'documents',
  'rules',
  'access',
  'notes',
  'settings',
  'users',
  'my-account',
  'all-products',
  'integrations',
  'quote',
] as const;

export const DEMO_ROLES = [
  { name: 'Administrator', gen2Role: 'admin' },
  { name: 'Claims Adjuster', gen2Role: 'claims_adjuster' },
  { name: 'Claims Supervisor', gen2Role: 'claims_supervisor' },
  { name: 'Underwriter', gen2Role: 'underwriter' },
  { name: 'Product and Rules Author', gen2Role: 'product_author' },
  { name: 'Agent', gen2Role: 'agent' },
  { name: 'Agency', gen2Role: 'agency' },
] as const;

type DemoRole = (typeof DEMO_ROLES)[number]['name'];

export interface SystemPolicy {
  name: string;
  description: string;
  statements: Statement[];
  roles: DemoRole[];
}

const viewModules = (sid: string, modules: (typeof MODULES)[number][]): Statement => ({
  sid,
  effect: 'allow',
  actions: ['ViewModule'],
  resources: modules.map((module) => `ui:${module}`),
});
const allow = (sid: string, actions: string[], resources: string[]): Statement => ({
  sid,
  effect: 'allow',
  actions,
  resources,
});
const WRITE = ['read', 'create', 'update'];

/**
 * Agents and agencies: the agent area only — and explicitly never the carrier's administration.
 * `ownRecords` is the record condition that keeps them to the business they write: an agent reads
 * the claims of policies whose agent is their contact, an agency those whose agency is theirs
 * (identity's user.contact_id and user.agency_id; docs/security.md, "Who reads which records").
 * Contacts (the contact store) take the same condition: the contacts of their own book
 * (docs/contacts.md). Policies and quotes: a deny outside the book, whatever else grants them.
 */
const agentArea = (ownRecords: Condition, ownQuotes: Condition): Statement[] => [
  viewModules('AgentModules', ['quote', 'policies', 'claims', 'contacts', 'reports']),
  { ...allow('OwnBookContacts', ['read'], ['contacts:contact']), conditions: [ownRecords] },
  allow('Quotes', WRITE, ['quote:*']),
  // Quotes are priced by the lines module's rating service (POST /api/rating/rate-quote/).
  allow('QuoteRating', ['rate'], ['lines:rating']),
  allow('PoliciesAndQuotes', ['read'], ['policies:*']),
  allow('ReportClaims', ['create'], ['claims:claim']),
  // Their own business, and the claims they reported themselves (an FNOL without a policy of theirs).
  {
    ...allow('OwnClaims', ['read'], ['claims:claim']),
    conditions: [
      { any: [ownRecords, { attribute: 'record.created_by', operator: 'eq', value: { ref: 'user.username' } }] },
    ],
  },
  // A claim's screens read the lookups products configure (tags, statuses, products and their risk
  // types): without them an agent opening one of their claims is sent to /forbidden.
  allow('ClaimLookups', ['read'], ['claims:lookup', 'claims:product']),
  allow('Reports', ['read'], ['reports:*']),
  // The book, for every grant the role has: the Policies and Quote modules' own default grants
  // (plugin policies, unconditioned) included, which an allow's condition here could not narrow. A
  // deny with a record applies unless its condition is FALSE, so a policy or quote with no producer
  // (or a producer without a contact) is outside the book; without a record (the route check, the
  // menu) it does not apply, and lists are filtered by its negation (docs/security.md).
  {
    sid: 'PoliciesOutsideOwnBook',
    effect: 'deny',
    actions: ['*'],
    resources: ['policies:policy'],
    conditions: [{ not: ownRecords }],
  },
  {
    sid: 'QuotesOutsideOwnBook',
    effect: 'deny',
    actions: ['*'],
    resources: ['quote:quote'],
    conditions: [{ not: ownQuotes }],
  },
  {
    sid: 'NoAdministration',
    effect: 'deny',
    actions: ['*'],
    resources: [
      'ui:users',
      'ui:access',
      'ui:settings',
      'ui:integrations',
      'ui:rules',
      'ui:lines',
      'access:*',
      'users:*',
      'settings:*',
      'integrations:*',
    ],
  },
];

/**
 * What a claims handler does to every claims resource, named one by one so that reading SSNs in
 * full (`read-ssn`) is not among them: an adjuster works a claim with the masked SSN
 * (`***-**-1234`, which is what confirms a caller's identity), while the unmasked number is needed
 * for what supervisors sign off (Medicare and 1099 reporting, fraud referrals). A new claims action
 * must be added here for adjusters to get it.
 */
const CLAIMS_HANDLER_ACTIONS = ['read', 'create', 'update', 'delete', 'assign', 'approve'];

/**
 * Claims handling: the claims module and the lookups it needs; payments above `paymentAuthority`
 * are the policy's to refuse (they wait for someone with more authority to approve them). The
 * per-role limits in claims' own authority table (claims settings) apply on top. Only
 * `readsFullSsns` roles see SSNs unmasked (claims:contact read-ssn, audited; docs/security.md).
 */
const claimsHandling = (paymentAuthority: string, readsFullSsns: boolean): Statement[] => [
  viewModules('ClaimsModules', ['claims', 'contacts', 'policies', 'documents', 'notes', 'reports']),
  allow('Claims', readsFullSsns ? ['*'] : CLAIMS_HANDLER_ACTIONS, ['claims:*']),
  allow('ClaimContacts', WRITE, ['contacts:*', 'notes:*', 'documents:*']),
  allow('PolicyLookups', ['read'], ['policies:*', 'lines:*', 'reports:*']),
  {
    sid: 'PaymentsOverAuthority',
    effect: 'deny',
    actions: ['create', 'update', 'approve'],
    resources: ['claims:payment'],
    conditions: [{ attribute: 'record.amount', operator: 'gt', value: paymentAuthority }],
  },
  // Claims handlers do not set their own authority limits (docs/claims-accounting.md).
  {
    sid: 'AuthorityLimitsAdministered',
    effect: 'deny',
    actions: ['create', 'update', 'delete'],
    resources: ['claims:authority-limit'],
  },
  // Loading history from an old system is an administrator's job (docs/claims-import.md).
  { sid: 'ClaimsImportAdministered', effect: 'deny', actions: ['*'], resources: ['claims:import'] },
  // A claims handler changes their own claim settings only (docs/claims.md, "Claims users").
  {
    sid: 'OwnClaimSettings',
    effect: 'deny',
    actions: ['update'],
    resources: ['claims:user'],
    conditions: [{ attribute: 'record.username', operator: 'ne', value: { ref: 'user.username' } }],
  },
  // Issuing payments (running payment batches) is claims finance's job (docs/claims-accounting.md).
  {
    sid: 'PaymentBatchesAdministered',
    effect: 'deny',
    actions: ['create', 'update', 'delete', 'approve'],
    resources: ['claims:payment-batch'],
  },
];

export const SYSTEM_POLICIES: SystemPolicy[] = [
  {
    name: 'Full access',
    description: 'Administrators may do everything.',
    statements: [allow('Everything', ['*'], ['*'])],
    roles: ['Administrator'],
  },
  {
    name: 'Signed-in basics',
    description: 'Every role sees its own account and the All Products dashboard.',
    statements: [viewModules('CoreModules', ['my-account', 'all-products'])],
    roles: [
      'Administrator',
      'Claims Adjuster',
      'Claims Supervisor',
      'Underwriter',
      'Product and Rules Author',
      'Agent',
      'Agency',
    ],
  },
  {
    name: 'Claims handling',
    description: 'Claims adjusters handle claims and pay up to 5000.00 on their own authority; they see SSNs masked.',
    statements: claimsHandling('5000.00', false),
    roles: ['Claims Adjuster'],
  },
  {
    name: 'Claims supervision',
    description:
      'Claims supervisors handle claims, approve what adjusters may not, see SSNs in full (audited), and pay up to 25000.00 on their own authority.',
    statements: claimsHandling('25000.00', true),
    roles: ['Claims Supervisor'],
  },
  {
    name: 'Underwriting',
    description: 'Underwriters quote and issue policies and read claims.',
    statements: [
      viewModules('UnderwritingModules', ['policies', 'quote', 'contacts', 'lines', 'documents', 'notes', 'reports']),
      allow('PoliciesAndQuotes', ['*'], ['policies:*', 'quote:*']),
      allow('Insureds', WRITE, ['contacts:*', 'notes:*', 'documents:*']),
      allow('Lookups', ['read'], ['lines:*', 'claims:*', 'reports:*']),
      // Quoting prices through the lines module's rating service.
      allow('QuoteRating', ['rate'], ['lines:rating']),
      // 'Lookups' reads claims:*; historical claims imports are for administrators only.
      { sid: 'ClaimsImportAdministered', effect: 'deny', actions: ['*'], resources: ['claims:import'] },
    ],
    roles: ['Underwriter'],
  },
  {
    name: 'Product and rules authoring',
    description: 'Authors configure lines and products, rules and document templates.',
    statements: [
      viewModules('AuthoringModules', ['lines', 'rules', 'documents', 'notes', 'reports']),
      allow('Authoring', ['*'], ['lines:*', 'rules:*', 'documents:*']),
      allow('Notes', WRITE, ['notes:*']),
      allow('Lookups', ['read'], ['policies:*', 'reports:*']),
    ],
    roles: ['Product and Rules Author'],
  },
  {
    name: 'Agent area',
    description: 'Agents quote, look up their policies, report claims and read reports.',
    // An agent quotes for themselves and sees their agency's quotes too (docs/quote.md).
    statements: agentArea(
      { attribute: 'record.agent_contact_id', operator: 'eq', value: { ref: 'user.contact_id' } },
      {
        any: [
          { attribute: 'record.agent_contact_id', operator: 'eq', value: { ref: 'user.contact_id' } },
          { attribute: 'record.agency_contact_id', operator: 'eq', value: { ref: 'user.agency_id' } },
        ],
      },
    ),
    roles: ['Agent'],
  },
  {
    name: 'Agency area',
    description: 'Agencies quote, look up their policies, report claims and read reports.',
    statements: agentArea(
      { attribute: 'record.agency_contact_id', operator: 'eq', value: { ref: 'user.agency_id' } },
      { attribute: 'record.agency_contact_id', operator: 'eq', value: { ref: 'user.agency_id' } },
    ),
    roles: ['Agency'],
  },
];

/** The demo users' roles; the accounts themselves are identity's (plugins/identity/server/demo-accounts.ts). */
export const DEMO_USER_ROLES: { userName: string; roles: DemoRole[] }[] = [
  { userName: 'admin@atrium.test', roles: ['Administrator'] },
  { userName: 'adjuster@atrium.test', roles: ['Claims Adjuster'] },
  { userName: 'supervisor@atrium.test', roles: ['Claims Supervisor'] },
  { userName: 'underwriter@atrium.test', roles: ['Underwriter'] },
  { userName: 'author@atrium.test', roles: ['Product and Rules Author'] },
  { userName: 'multi@atrium.test', roles: ['Claims Adjuster', 'Underwriter'] },
  { userName: 'mfa@atrium.test', roles: ['Underwriter'] },
  { userName: 'sms@atrium.test', roles: ['Claims Adjuster'] },
  { userName: 'agent@agency.test', roles: ['Agent'] },
  { userName: 'agency@agency.test', roles: ['Agency'] },
];

/** "Admin flag: member of Administrators group": the group holds the Administrator role. */
export const DEMO_GROUP_ROLES: { groupName: string; roles: DemoRole[] }[] = [
  { groupName: 'Administrators', roles: ['Administrator'] },
];

/**
 * Raise it with every change to SYSTEM_POLICIES: databases seeded by an older build get the new
 * definitions at their next start (system-policy-upgrade.ts). 1.8.0: policies and quotes outside
 * an agent's or agency's book are denied.
 */
export const SYSTEM_POLICY_VERSION = '1.8.0';
