import { z } from 'zod';
import { defineResourceShape, type FilterShape, type RelationshipShape } from '@atrium/sdk/shared';

/**
 * The shared half of every generic claims collection (docs/plugins.md, "A resource in one
 * declaration"): the claim kinds that are plain records on a claim (locations, parties, risks …),
 * the lookups kept in one table, the mock policy types and statuses, and the payment methods and pay
 * codes. The server half (core/claim-kinds.ts, ledger/routes/payment-lookup-routes.ts) adds tables,
 * permissions and record scope; the web half reads and writes them with `resourceClient`.
 */
const text = (max = 500) => z.string().trim().max(max);
const amount = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'Enter an amount with at most 2 decimal places.');
const json = z.record(z.string(), z.unknown());
const byClaim = { claim_id: { kind: 'integer', aliases: ['filter[claim]'] } } satisfies Record<string, FilterShape>;
const claimRel = { claim: { type: 'claim', required: true } } satisfies Record<string, RelationshipShape>;

/** A JSON:API collection below /api/claims/. */
function claimsShape<const A extends Record<string, z.ZodType>>(shape: {
  path: string;
  type: string;
  /**
   * Built on first use: the web half reads these collections by path and never validates with
   * them, and building the ~100 schemas was a third of the claim workspace chunk's evaluation, a
   * long task of the page's load (issue 13, Total Blocking Time). The server reads them as it
   * registers the routes.
   */
  attributes: () => A;
  relationships?: Record<string, RelationshipShape>;
  filters?: Record<string, FilterShape>;
}) {
  const { attributes, ...rest } = shape;
  let built: A | undefined;
  return defineResourceShape({
    ...rest,
    path: `/claims/${shape.path}/`,
    style: 'jsonapi',
    pageSize: 250,
    get attributes(): A {
      return (built ??= attributes());
    },
  });
}

export const locationShape = claimsShape({
  path: 'locations',
  type: 'location',
  attributes: () => ({
    line1: text(),
    line2: text().optional(),
    city: text(100),
    county: text(100).optional(),
    state: text(50),
    zip: text(20),
    country: text(50).optional(),
    latitude: z
      .string()
      .regex(/^-?\d{1,3}(\.\d{1,6})?$/)
      .nullable()
      .optional(),
    longitude: z
      .string()
      .regex(/^-?\d{1,3}(\.\d{1,6})?$/)
      .nullable()
      .optional(),
  }),
  filters: { city: { kind: 'text' }, state: { kind: 'text' }, zip: { kind: 'text' } },
});

export const partyShape = claimsShape({
  path: 'parties',
  type: 'party',
  attributes: () => ({
    name: text(200).min(1),
    display_number: z.number().int().min(1).max(100000),
    role: text(50).optional(),
    contact_id: z.number().int().min(1).nullable().optional(),
    phone: text(50).nullable().optional(),
    email: z.email().nullable().optional(),
    refused_to_provide_dob: z.boolean().optional(),
    refused_to_provide_ssn: z.boolean().optional(),
    refused_to_provide_gender: z.boolean().optional(),
    is_involved: z.boolean().optional(),
    is_approved_vendor: z.boolean().optional(),
  }),
  relationships: { ...claimRel, party_type: { type: 'party-type' }, address: { type: 'location' } },
  filters: { ...byClaim, role: { kind: 'text' } },
});

export const riskShape = claimsShape({
  path: 'risks',
  type: 'risk',
  attributes: () => ({
    name: text(200).min(1),
    sub_name: text(200).optional(),
    fields: json.optional(),
    expired: z.boolean().optional(),
    is_first_party_risk: z.boolean().optional(),
  }),
  relationships: { ...claimRel, risk_type: { type: 'risk-type' } },
  filters: byClaim,
});

export const riskTypeShape = claimsShape({
  path: 'risk-types',
  type: 'risk-type',
  attributes: () => ({
    name: text(100).min(1),
    label: text(200).min(1),
    attributes: z.array(json).optional(),
    damage_type: text(100).nullable().optional(),
  }),
  relationships: { product: { type: 'product' }, risk_type_group: { type: 'risk-type-group' } },
  filters: { product_id: { kind: 'integer' } },
});

export const damageShape = claimsShape({
  path: 'damages',
  type: 'damage',
  attributes: () => ({ description: text(2000), estimated_amount: amount.nullable().optional() }),
  relationships: { ...claimRel, risk: { type: 'risk' } },
  filters: byClaim,
});

export const faultShape = claimsShape({
  path: 'faults',
  type: 'fault',
  attributes: () => ({
    percentage_liable: z
      .string()
      .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Enter a percentage between 0 and 100.')
      .refine((v) => Number(v) <= 100, 'Enter a percentage between 0 and 100.'),
  }),
  relationships: { ...claimRel, party: { type: 'party' }, fault_type: { type: 'fault-type' } },
  filters: byClaim,
});

export const injuryShape = claimsShape({
  path: 'injuries',
  type: 'injury',
  attributes: () => ({
    description: text(2000).optional(),
    treatment: text(2000).optional(),
    settlement_from: amount.nullable().optional(),
    settlement_to: amount.nullable().optional(),
  }),
  relationships: {
    ...claimRel,
    party: { type: 'party' },
    injury_nature: { type: 'injury-nature' },
    body_part: { type: 'injury-body-part' },
  },
  filters: byClaim,
});

export const coverageShape = claimsShape({
  path: 'coverages',
  type: 'coverage',
  attributes: () => ({
    name: text(200).min(1),
    limit_amount: amount.nullable().optional(),
    deductible_amount: amount.nullable().optional(),
  }),
  relationships: { ...claimRel, coverage_type: { type: 'coverage-type' } },
  filters: byClaim,
});

export const claimEventShape = claimsShape({
  path: 'claim-events',
  type: 'claim-event',
  attributes: () => ({
    event_type: text(100).min(1),
    description: text(2000).optional(),
    occurred_at: z.coerce.date().optional(),
    // created_by (who recorded the event) is not written by clients: the server sets the caller
    // (collection-routes.ts, createdByColumn; security issue 14, item 10).
  }),
  relationships: claimRel,
  filters: byClaim,
});

export const onSiteServiceShape = claimsShape({
  path: 'on-site-services',
  type: 'on-site-service',
  attributes: () => ({
    vendor_name: text(200).optional(),
    scheduled_at: z.coerce.date().nullable().optional(),
    notes: text(2000).optional(),
  }),
  relationships: { ...claimRel, service_type: { type: 'on-site-service-type' } },
  filters: byClaim,
});

/**
 * Collection path → JSON:API type of every lookup kept in the lookup table. Status reasons carry
 * from_status/to_status; settlements keep range_from/range_to in `attributes`. Manual items and
 * limits share the table but validate their own fields (core/manual-item-routes.ts).
 */
export const LOOKUP_PATHS: Record<string, string> = {
  perils: 'peril',
  'reported-methods': 'reported-method',
  timezones: 'timezone',
  tags: 'tag',
  'tag-levels': 'tag-level',
  'loss-categories': 'loss-category',
  'risk-type-groups': 'risk-type-group',
  'party-types': 'party-type',
  'party-relations': 'party-relation',
  'claim-party-roles': 'claim-party-role',
  'risk-party-roles': 'risk-party-role',
  'fault-types': 'fault-type',
  'coverage-types': 'coverage-type',
  'coverage-groups': 'coverage-group',
  'coverage-limit-values': 'coverage-limit-value',
  'injury-types': 'injury-type',
  'injury-natures': 'injury-nature',
  'injury-body-parts': 'injury-body-part',
  treatments: 'treatment',
  'diagnosis-codes': 'diagnosis-code',
  settlements: 'settlement',
  'statutory-codes': 'statutory-code',
  'claim-user-roles': 'claim-user-role',
  'claim-types': 'claim-type',
  'claim-status-reasons': 'claim-status-reason',
  'exposure-status-reasons': 'exposure-status-reason',
  'transaction-status-reasons': 'transaction-status-reason',
  'exposure-types': 'exposure-type',
  'on-site-service-types': 'on-site-service-type',
  'insurance-informations': 'insurance-information',
  'additional-interests': 'additional-interest',
  endorsements: 'endorsement',
  items: 'item',
  'line-limits': 'line-limit',
  'manual-items': 'manual-item',
  'manual-limits': 'manual-limit',
  'limit-consumptions': 'limit-consumption',
  genders: 'gender',
  'address-types': 'address-type',
};

export const lookupShape = (path: string) =>
  claimsShape({
    path,
    type: LOOKUP_PATHS[path]!,
    attributes: () => ({
      name: text(200).min(1),
      label: text(200).min(1),
      code: text(50).nullable().optional(),
      sort_order: z.number().int().min(0).max(100000).optional(),
      from_status: text(50).nullable().optional(),
      to_status: text(50).nullable().optional(),
      attributes: json.optional(),
      expired: z.boolean().optional(),
    }),
    relationships: { product: { type: 'product' }, parent: { type: LOOKUP_PATHS[path]! } },
    filters: { product_id: { kind: 'integer' }, expired: { kind: 'boolean' } },
  });

const nameAndLabel = { name: z.string().trim().min(1).max(100), label: z.string().trim().min(1).max(200) };
export const policyTypeShape = claimsShape({
  path: 'integrations/policies/policy-types',
  type: 'policy-type',
  attributes: () => nameAndLabel,
});
export const policyStatusShape = claimsShape({
  path: 'integrations/policies/policy-statuses',
  type: 'policy-status',
  attributes: () => nameAndLabel,
});

/** Payment methods and pay codes: named rows (the name is the id payments record), in sort order. */
const nameText = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(50, 'Name must be 50 characters or less.')
  .regex(/^\S*$/, 'The Name cannot contain spaces.')
  .regex(/^[a-z0-9_-]*$/, 'Name may only contain lower-case letters, digits, - and _.');
const labelText = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field is required.')
  .max(200, 'Label must be 200 characters or less.');
const sortOrder = z
  .number({ error: 'Sort order must be a whole number.' })
  .int('Sort order must be a whole number.')
  .min(0, 'Sort order must be 0 or more.')
  .max(100000, 'Sort order must be 100000 or less.');

const paymentLookupShape = <const P extends 'payment-methods' | 'pay-codes'>(path: P) =>
  defineResourceShape({
    path: `/claims/${path}/`,
    type: path,
    style: 'jsonapi',
    attributes: {
      name: nameText,
      label: labelText,
      sort_order: sortOrder.optional(),
      active: z.boolean().optional(),
    },
    filters: { active: { kind: 'boolean', column: 'expired', negate: true } },
    orderings: ['sort_order'],
    pageSize: 250,
  });
export const paymentMethodShape = paymentLookupShape('payment-methods');
export const payCodeShape = paymentLookupShape('pay-codes');
