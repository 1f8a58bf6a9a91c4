import { z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { registerCollection, type CollectionOptions } from './collection-routes.js';
import { registerManualItemRoutes } from './manual-item-routes.js';
import {
  claimEvent,
  coverage,
  damage,
  fault,
  injury,
  location,
  lookup,
  onSiteService,
  party,
  risk,
  riskType,
} from './tables.js';

/**
 * The claim kinds that are plain records on a claim (or reference data) — each a JSON:API collection
 * under /api/claims/<path>/ with create, update, delete and find. Lookups share one table; their
 * paths are listed in LOOKUP_PATHS.
 */
const text = (max = 500) => z.string().trim().max(max);
const amount = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'Enter an amount with at most 2 decimal places.');
const json = z.record(z.string(), z.unknown());
const byClaim = { claim_id: { column: 'claimId', kind: 'integer' } } as const;
const claimRel = { claim: { type: 'claim', column: 'claimId', required: true } };

const CLAIM_KINDS: CollectionOptions[] = [
  {
    path: 'locations',
    type: 'location',
    table: location,
    thing: 'claim',
    summary: 'locations (addresses of losses and parties)',
    attributes: {
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
    },
    filters: {
      city: { column: 'city', kind: 'text' },
      state: { column: 'state', kind: 'text' },
      zip: { column: 'zip', kind: 'text' },
    },
  },
  {
    path: 'parties',
    type: 'party',
    table: party,
    thing: 'party',
    summary: 'claim parties',
    attributes: {
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
    },
    relationships: {
      ...claimRel,
      party_type: { type: 'party-type', column: 'partyTypeId' },
      address: { type: 'location', column: 'addressId' },
    },
    hidden: ['version'],
    filters: { ...byClaim, role: { column: 'role', kind: 'text' } },
    uniqueAttribute: 'display_number',
  },
  {
    path: 'risks',
    type: 'risk',
    table: risk,
    thing: 'claim',
    summary: 'risks on claims',
    attributes: {
      name: text(200).min(1),
      sub_name: text(200).optional(),
      fields: json.optional(),
      expired: z.boolean().optional(),
      is_first_party_risk: z.boolean().optional(),
    },
    relationships: { ...claimRel, risk_type: { type: 'risk-type', column: 'riskTypeId' } },
    filters: byClaim,
  },
  {
    path: 'risk-types',
    type: 'risk-type',
    table: riskType,
    thing: 'product',
    summary: 'risk types of products',
    attributes: {
      name: text(100).min(1),
      label: text(200).min(1),
      attributes: z.array(json).optional(),
      damage_type: text(100).nullable().optional(),
    },
    relationships: {
      product: { type: 'product', column: 'productId' },
      risk_type_group: { type: 'risk-type-group', column: 'riskTypeGroupId' },
    },
    filters: { product_id: { column: 'productId', kind: 'integer' } },
  },
  {
    path: 'damages',
    type: 'damage',
    table: damage,
    thing: 'claim',
    summary: 'damages to risks',
    attributes: { description: text(2000), estimated_amount: amount.nullable().optional() },
    relationships: { ...claimRel, risk: { type: 'risk', column: 'riskId' } },
    filters: byClaim,
  },
  {
    path: 'faults',
    type: 'fault',
    table: fault,
    thing: 'claim',
    summary: 'fault (percentage liable) per party',
    attributes: {
      percentage_liable: z
        .string()
        .regex(/^\d{1,3}(\.\d{1,2})?$/, 'Enter a percentage between 0 and 100.')
        .refine((v) => Number(v) <= 100, 'Enter a percentage between 0 and 100.'),
    },
    relationships: {
      ...claimRel,
      party: { type: 'party', column: 'partyId' },
      fault_type: { type: 'fault-type', column: 'faultTypeId' },
    },
    filters: byClaim,
  },
  {
    path: 'injuries',
    type: 'injury',
    table: injury,
    thing: 'injury',
    summary: 'injuries of parties',
    attributes: {
      description: text(2000).optional(),
      treatment: text(2000).optional(),
      settlement_from: amount.nullable().optional(),
      settlement_to: amount.nullable().optional(),
    },
    relationships: {
      ...claimRel,
      party: { type: 'party', column: 'partyId' },
      injury_nature: { type: 'injury-nature', column: 'injuryNatureId' },
      body_part: { type: 'injury-body-part', column: 'bodyPartId' },
    },
    filters: byClaim,
  },
  {
    path: 'coverages',
    type: 'coverage',
    table: coverage,
    thing: 'claim',
    summary: "coverages of the claim's policy",
    attributes: {
      name: text(200).min(1),
      limit_amount: amount.nullable().optional(),
      deductible_amount: amount.nullable().optional(),
    },
    relationships: { ...claimRel, coverage_type: { type: 'coverage-type', column: 'coverageTypeId' } },
    filters: byClaim,
  },
  {
    path: 'claim-events',
    type: 'claim-event',
    table: claimEvent,
    thing: 'claim',
    summary: 'events in the life of claims',
    attributes: {
      event_type: text(100).min(1),
      description: text(2000).optional(),
      occurred_at: z.coerce.date().optional(),
      created_by: text(200).min(1),
    },
    relationships: claimRel,
    filters: byClaim,
  },
  {
    path: 'on-site-services',
    type: 'on-site-service',
    table: onSiteService,
    thing: 'claim',
    summary: 'on-site services (inspections, repairs) on claims',
    attributes: {
      vendor_name: text(200).optional(),
      scheduled_at: z.coerce.date().nullable().optional(),
      notes: text(2000).optional(),
    },
    relationships: { ...claimRel, service_type: { type: 'on-site-service-type', column: 'serviceTypeId' } },
    filters: byClaim,
  },
];

/**
 * Collection path → JSON:API type of every lookup kept in the lookup table. Status reasons carry
 * from_status/to_status; settlements keep range_from/range_to in `attributes`.
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

export function registerClaimKinds(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  // With the context: rows of claims are scoped to the claims the caller may read (collection-routes).
  for (const kind of CLAIM_KINDS) registerCollection(router, db, kind, context);
  // Manual items and limits keep their rows in the lookup table but validate their own fields.
  registerManualItemRoutes(router, db);
  for (const [path, type] of Object.entries(LOOKUP_PATHS)) {
    if (path === 'manual-items' || path === 'manual-limits') continue;
    registerCollection(router, db, {
      path,
      type,
      table: lookup,
      thing: 'lookup',
      summary: `${path.replace(/-/g, ' ')} (lookup)`,
      fixed: { kind: type },
      attributes: {
        name: text(200).min(1),
        label: text(200).min(1),
        code: text(50).nullable().optional(),
        sort_order: z.number().int().min(0).max(100000).optional(),
        from_status: text(50).nullable().optional(),
        to_status: text(50).nullable().optional(),
        attributes: json.optional(),
        expired: z.boolean().optional(),
      },
      relationships: {
        product: { type: 'product', column: 'productId' },
        parent: { type, column: 'parentId' },
      },
      hidden: ['createdAt'],
      filters: {
        product_id: { column: 'productId', kind: 'integer' },
        expired: { column: 'expired', kind: 'boolean' },
      },
      uniqueAttribute: 'name',
    });
  }
}
