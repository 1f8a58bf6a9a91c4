import {
  declareResource,
  registerResources,
  z,
  type AtriumRouter,
  type ResourceRow,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { camelCase, defineResourceShape } from '@atrium/sdk/shared';
import { authorityLimit } from '../tables.js';
import { idParams, moneyText } from './schemas.js';

/**
 * authority-limits/ for administrators (claims:authority-limit; the Claims handling system policy
 * denies adjusters the writes), declared once. One row per subject (user name or role) and kind:
 * listed in subject type, subject, kind order; a taken subject and kind is a 409 with code
 * 'duplicate'. Null or absent caps mean no cap.
 */
const cap = (label: string) => moneyText(label, { min: '0.00' }).nullable();
const subjectType = z.enum(['user', 'role'], { error: "Subject type must be 'user' or 'role'." });
const kind = z.enum(['reserve', 'payment'], { error: "Kind must be 'reserve' or 'payment'." });

const authorityLimitShape = defineResourceShape({
  type: 'authority-limits',
  path: '/claims/authority-limits/',
  style: 'jsonapi',
  attributes: {
    subject_type: subjectType,
    subject: z.string().trim().min(1, 'This field may not be blank.').max(200),
    kind,
    per_transaction: cap('Per transaction').optional(),
    per_coverage: cap('Per coverage').optional(),
    per_claim: cap('Per claim').optional(),
  },
  filters: {
    subject_type: { kind: 'text', schema: subjectType.optional() },
    subject: { kind: 'text', blankIsAbsent: true },
    kind: { kind: 'text', schema: kind.optional() },
  },
  orderings: ['subject_type'],
  pageSize: 250,
});

const authorityLimits = declareResource({
  shape: authorityLimitShape,
  table: authorityLimit,
  id: { column: 'id', kind: 'integer', schema: idParams.shape.id },
  permission: { resource: 'claims:authority-limit' },
  orderColumns: { subject_type: ['subjectType', 'subject', 'kind'] },
  omitEmptyRelationships: true,
  present: (r) => ({
    subject_type: r.subjectType,
    subject: r.subject,
    kind: r.kind,
    per_transaction: r.perTransaction,
    per_coverage: r.perCoverage,
    per_claim: r.perClaim,
    created_at: (r.createdAt as Date).toISOString(),
    updated_at: (r.updatedAt as Date).toISOString(),
  }),
  // A change always stamps updated_at, even one that names no attribute.
  toColumns: (a, action) => {
    const values: ResourceRow = Object.fromEntries(Object.entries(a).map(([key, value]) => [camelCase(key), value]));
    if (action === 'update') values.updatedAt = new Date();
    return values;
  },
  messages: {
    notFound: (id) => `Authority limit ${id} not found.`,
    idMismatch: () => 'The id in the body does not match the URL.',
    requiredCode: 'required',
    unique: {
      attribute: 'subject',
      status: 409,
      code: 'duplicate',
      detail: () => 'An authority limit for this subject and kind already exists.',
    },
  },
  openapi: {
    summary: 'authority limits',
    tags: ['claims', 'claims-ledger'],
    summaries: {
      list: 'Lists authority limits; filter by subject_type, subject, kind.',
      find: 'One authority limit.',
      create: 'Creates an authority limit (null or absent caps: no cap).',
      update: 'Changes an authority limit.',
      delete: 'Deletes an authority limit.',
    },
  },
});

export function registerAuthorityLimitRoutes(router: AtriumRouter, context: ServerPluginContext) {
  registerResources(router, context, [authorityLimits]);
}
