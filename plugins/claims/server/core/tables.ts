import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Core tables of the claims module: claims, exposures, parties and everything hanging off a claim,
 * the lookups products configure, the audit log, attachments, the contacts and mock-policy
 * integrations. The accounting ledger lives in ../ledger/tables.ts and references these.
 */
export const claimsSchema = pgSchema('claims');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * One table for the many small lookups (perils, tags, loss categories, timezones, reported methods,
 * status/type/reason lookups, party types …): `kind` names the collection. Status reasons carry the
 * from_status/to_status they apply to. A lookup with a product_id belongs to that product only.
 */
export const lookup = claimsSchema.table(
  'lookup',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    productId: integer('product_id'),
    name: text('name').notNull(),
    label: text('label').notNull(),
    code: text('code'),
    sortOrder: integer('sort_order').notNull().default(0),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    parentId: integer('parent_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    expired: boolean('expired').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('lookup_kind_idx').on(table.kind, table.productId),
    uniqueIndex('lookup_kind_product_name_key').on(table.kind, sql`coalesce(${table.productId}, 0)`, table.name),
  ],
);

/** A claims product (per line): what a claim is configured by. */
export const product = claimsSchema.table(
  'product',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
    policyTypeName: text('policy_type_name').notNull().default(''),
    isLine: boolean('is_line').notNull().default(false),
    effectiveFrom: date('effective_from'),
    effectiveTo: date('effective_to'),
    configurations: jsonb('configurations').$type<Record<string, unknown>>().notNull().default({}),
    claimType: jsonb('claim_type').$type<{ allow_multiple_perils?: boolean }>().notNull().default({}),
    injuryType: jsonb('injury_type').$type<{ body_parts?: string[]; injury_natures?: string[] } | null>(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('product_name_key').on(table.name)],
);

/** An address (loss location, party address). */
export const location = claimsSchema.table(
  'location',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    line1: text('line1').notNull().default(''),
    line2: text('line2').notNull().default(''),
    city: text('city').notNull().default(''),
    county: text('county').notNull().default(''),
    state: text('state').notNull().default(''),
    zip: text('zip').notNull().default(''),
    country: text('country').notNull().default('US'),
    latitude: numeric('latitude', { precision: 9, scale: 6 }),
    longitude: numeric('longitude', { precision: 9, scale: 6 }),
  },
  // The claim list filters by loss city and state in any case (lower(city), upper(state)) and by zip.
  (table) => [
    index('location_city_lower_idx').on(sql`lower(${table.city})`),
    index('location_state_upper_idx').on(sql`upper(${table.state})`),
    index('location_zip_idx').on(table.zip),
  ],
);

/** Named counters (claim numbers, FNOL numbers); taken with UPDATE … RETURNING so two callers never share one. */
export const numberSequence = claimsSchema.table('number_sequence', {
  name: text('name').primaryKey(),
  nextValue: bigint('next_value', { mode: 'number' }).notNull().default(1),
});

/** A coverage of a policies-module revision as copied onto the claim (the mock revisions' shape). */
export interface ClaimPolicyCoverage {
  coverage_type: string;
  label: string;
  limit: string;
  deductible: string;
  risk: string;
}

export const claim = claimsSchema.table(
  'claim',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The claim number, `<carrier claim_prefix>-<sequence>`; drafts get theirs at creation too. */
    number: text('number').notNull(),
    customNumber: text('custom_number'),
    fnolNumber: text('fnol_number'),
    status: text('status').notNull().default('draft'),
    state: text('state'),
    /** Null while an FNOL draft has no product yet (it is taken from the policy's type when it can be). */
    productId: integer('product_id').references(() => product.id),
    dateOfLoss: timestamptz('date_of_loss'),
    dateOfLossTimezone: text('date_of_loss_timezone'),
    lossDescription: text('loss_description').notNull().default(''),
    lossLocationId: integer('loss_location_id').references(() => location.id),
    lossCategoryId: integer('loss_category_id').references(() => lookup.id),
    reportedMethodId: integer('reported_method_id').references(() => lookup.id),
    reportedDate: timestamptz('reported_date'),
    /** Who reported the loss: { name, relation, phone, email } as entered on the FNOL's Reported By step. */
    reportedBy: jsonb('reported_by').$type<Record<string, unknown> | null>(),
    policyId: integer('policy_id'),
    policyNumber: text('policy_number'),
    policyRevisionId: integer('policy_revision_id'),
    policyType: text('policy_type'),
    /**
     * Where the claim's policy lives: 'mock' (policy_id / policy_revision_id are Mock Policies
     * Maintenance rows) or 'policies' (the policies module's policy: policy_ref / policy_revision_ref,
     * with the revision's coverages and producers copied here when the policy was chosen).
     */
    policySource: text('policy_source').notNull().default('mock'),
    policyRef: text('policy_ref'),
    policyRevisionRef: text('policy_revision_ref'),
    policyRevisionNumber: integer('policy_revision_number'),
    policyCoverages: jsonb('policy_coverages').$type<ClaimPolicyCoverage[] | null>(),
    policyAgentContactId: text('policy_agent_contact_id'),
    policyAgencyContactId: text('policy_agency_contact_id'),
    currentFnolStep: text('current_fnol_step'),
    refreshPolicyDate: timestamptz('refresh_policy_date'),
    updateLatestRevision: boolean('update_latest_revision').notNull().default(false),
    exposuresFolderId: integer('exposures_folder_id'),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    /** The claimants as entered on the FNOL (name, coverage, description); submitting makes parties and exposures. */
    fnolClaimants: jsonb('fnol_claimants').$type<Record<string, unknown>[]>().notNull().default([]),
    statusChangeReason: text('status_change_reason'),
    primaryAdjuster: text('primary_adjuster'),
    primaryInsuredPartyId: integer('primary_insured_party_id'),
    createdBy: text('created_by').notNull(),
    submittedBy: text('submitted_by'),
    /** Optimistic concurrency: bumped by every update; the ETag is derived from it. */
    version: integer('version').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('claim_number_key').on(table.number),
    index('claim_status_idx').on(table.status, table.id),
    index('claim_adjuster_idx').on(table.primaryAdjuster),
    index('claim_loss_location_idx').on(table.lossLocationId),
    index('claim_policy_number_idx').on(table.policyNumber),
    index('claim_policy_revision_idx').on(table.policyRevisionId),
    index('claim_policy_ref_idx').on(table.policyRef),
    // The list sorts by loss and reported date too (then by id): with a million claims a sort
    // without them reads every claim for one page (docs/claims.md, P2).
    index('claim_date_of_loss_idx').on(table.dateOfLoss, table.id),
    index('claim_reported_date_idx').on(table.reportedDate, table.id),
  ],
);

export const claimPeril = claimsSchema.table(
  'claim_peril',
  {
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    perilId: integer('peril_id')
      .notNull()
      .references(() => lookup.id),
  },
  (table) => [uniqueIndex('claim_peril_key').on(table.claimId, table.perilId)],
);

export const claimTag = claimsSchema.table(
  'claim_tag',
  {
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => lookup.id),
  },
  (table) => [uniqueIndex('claim_tag_key').on(table.claimId, table.tagId)],
);

/** A person or organisation on a claim (insured, claimant, witness, vendor …). */
export const party = claimsSchema.table(
  'party',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    displayNumber: integer('display_number').notNull(),
    contactId: integer('contact_id'),
    name: text('name').notNull(),
    /** claim-party-role lookup name: insured, claimant, witness, vendor … */
    role: text('role').notNull().default('claimant'),
    partyTypeId: integer('party_type_id').references(() => lookup.id),
    addressId: integer('address_id').references(() => location.id),
    phone: text('phone'),
    email: text('email'),
    refusedToProvideDob: boolean('refused_to_provide_dob').notNull().default(false),
    refusedToProvideSsn: boolean('refused_to_provide_ssn').notNull().default(false),
    refusedToProvideGender: boolean('refused_to_provide_gender').notNull().default(false),
    isInvolved: boolean('is_involved').notNull().default(true),
    isApprovedVendor: boolean('is_approved_vendor').notNull().default(false),
    version: integer('version').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('party_claim_display_number_key').on(table.claimId, table.displayNumber),
    index('party_claim_idx').on(table.claimId),
  ],
);

/** party ↔ party with a party-relation lookup. */
export const partyRelation = claimsSchema.table('party_relation', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  partyId: integer('party_id')
    .notNull()
    .references(() => party.id, { onDelete: 'cascade' }),
  relatedPartyId: integer('related_party_id')
    .notNull()
    .references(() => party.id, { onDelete: 'cascade' }),
  role: text('role').notNull(),
});

/** A coverage on a claim's policy as copied onto the claim. */
export const coverage = claimsSchema.table(
  'coverage',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    coverageTypeId: integer('coverage_type_id').references(() => lookup.id),
    name: text('name').notNull(),
    limitAmount: money('limit_amount'),
    deductibleAmount: money('deductible_amount'),
  },
  (table) => [index('coverage_claim_idx').on(table.claimId)],
);

export const risk = claimsSchema.table(
  'risk',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    riskTypeId: integer('risk_type_id').references(() => riskType.id),
    name: text('name').notNull(),
    subName: text('sub_name').notNull().default(''),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    expired: boolean('expired').notNull().default(false),
    isFirstPartyRisk: boolean('is_first_party_risk').notNull().default(true),
  },
  (table) => [index('risk_claim_idx').on(table.claimId)],
);

/** A product's kind of risk (vehicle, dwelling …); risk_type_group_id points at a risk-type-group lookup. */
export const riskType = claimsSchema.table('risk_type', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  productId: integer('product_id').references(() => product.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  label: text('label').notNull(),
  riskTypeGroupId: integer('risk_type_group_id').references(() => lookup.id),
  attributes: jsonb('attributes').$type<Record<string, unknown>[]>().notNull().default([]),
  damageType: text('damage_type'),
});

export const exposure = claimsSchema.table(
  'exposure',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    /** 1, 2, 3 … within the claim; display_number is `<claim number>-<number>`. */
    number: integer('number').notNull(),
    exposureName: text('exposure_name').notNull().default(''),
    description: text('description').notNull().default(''),
    status: text('status').notNull().default('open'),
    folderId: integer('folder_id'),
    isInjury: boolean('is_injury').notNull().default(false),
    expired: boolean('expired').notNull().default(false),
    partyId: integer('party_id').references(() => party.id),
    coverageId: integer('coverage_id').references(() => coverage.id),
    /**
     * The policy coverage the exposure claims under: its coverage type (name) on the policy revision
     * the claim was filed on. Both are the policy's own keys, not this module's mock tables, so the
     * link survives the move to the policies module.
     */
    coverageType: text('coverage_type'),
    policyRevisionId: integer('policy_revision_id'),
    riskId: integer('risk_id').references(() => risk.id),
    adjuster: text('adjuster'),
    adjusterStartDate: date('adjuster_start_date'),
    deductibleAppliedStatus: text('deductible_applied_status'),
    deductibleOverrideAmount: money('deductible_override_amount'),
    deductibleOverrideReason: text('deductible_override_reason'),
    fullDeductibleApplied: boolean('full_deductible_applied').notNull().default(false),
    summary: text('summary').notNull().default(''),
    statusChangeReason: text('status_change_reason'),
    version: integer('version').notNull().default(1),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('exposure_claim_number_key').on(table.claimId, table.number),
    index('exposure_party_idx').on(table.partyId),
  ],
);

export const exposureTag = claimsSchema.table(
  'exposure_tag',
  {
    exposureId: integer('exposure_id')
      .notNull()
      .references(() => exposure.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => lookup.id),
  },
  (table) => [uniqueIndex('exposure_tag_key').on(table.exposureId, table.tagId)],
);

export const damage = claimsSchema.table('damage', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  claimId: integer('claim_id')
    .notNull()
    .references(() => claim.id, { onDelete: 'cascade' }),
  riskId: integer('risk_id').references(() => risk.id, { onDelete: 'cascade' }),
  description: text('description').notNull().default(''),
  estimatedAmount: money('estimated_amount'),
});

export const fault = claimsSchema.table(
  'fault',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    partyId: integer('party_id').references(() => party.id, { onDelete: 'cascade' }),
    faultTypeId: integer('fault_type_id').references(() => lookup.id),
    percentageLiable: numeric('percentage_liable', { precision: 5, scale: 2 }).notNull().default('0'),
  },
  (table) => [
    check('fault_percentage_check', sql`${table.percentageLiable} between 0 and 100`),
    index('fault_claim_idx').on(table.claimId),
  ],
);

export const injury = claimsSchema.table('injury', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  claimId: integer('claim_id')
    .notNull()
    .references(() => claim.id, { onDelete: 'cascade' }),
  partyId: integer('party_id').references(() => party.id, { onDelete: 'cascade' }),
  injuryNatureId: integer('injury_nature_id').references(() => lookup.id),
  bodyPartId: integer('body_part_id').references(() => lookup.id),
  treatment: text('treatment').notNull().default(''),
  description: text('description').notNull().default(''),
  settlementFrom: money('settlement_from'),
  settlementTo: money('settlement_to'),
});

export const claimEvent = claimsSchema.table(
  'claim_event',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    description: text('description').notNull().default(''),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
  },
  (table) => [index('claim_event_claim_idx').on(table.claimId)],
);

export const onSiteService = claimsSchema.table('on_site_service', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  claimId: integer('claim_id')
    .notNull()
    .references(() => claim.id, { onDelete: 'cascade' }),
  serviceTypeId: integer('service_type_id').references(() => lookup.id),
  vendorName: text('vendor_name').notNull().default(''),
  scheduledAt: timestamptz('scheduled_at'),
  notes: text('notes').notNull().default(''),
});

/** A user the claims module knows: adjusters and supervisors (claim-user). */
export const claimUser = claimsSchema.table('claim_user', {
  username: text('username').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
});

export const claimAssignment = claimsSchema.table(
  'claim_assignment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => lookup.id),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('claim_assignment_key').on(table.claimId, table.username, table.roleId)],
);

export const exposureAssignment = claimsSchema.table(
  'exposure_assignment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => lookup.id),
    exposureId: integer('exposure_id')
      .notNull()
      .references(() => exposure.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('exposure_assignment_key').on(table.exposureId, table.username, table.roleId)],
);

/** Every write: who, when, what, the record before and after; status moves name from/to and the reason. */
export const auditLog = claimsSchema.table(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamptz('at').notNull().defaultNow(),
    username: text('username').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    claimId: integer('claim_id'),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    reason: text('reason'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (table) => [
    index('audit_log_claim_idx').on(table.claimId, table.id),
    index('audit_log_entity_idx').on(table.entityType, table.entityId),
  ],
);

export const attachmentFolder = claimsSchema.table(
  'attachment_folder',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    parentId: integer('parent_id'),
    /** What the folder tree belongs to, e.g. a claim number. */
    referenceId: text('reference_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('attachment_folder_reference_idx').on(table.referenceId),
    index('attachment_folder_parent_idx').on(table.parentId),
  ],
);

/**
 * An attachment's bytes live in object storage under `storage_key` (docs/storage.md), with the
 * SHA-256 the store computed. Rows written before that keep their bytes in `content`, which is read
 * when there is no key; one of the two is always present.
 */
export const attachment = claimsSchema.table(
  'attachment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    folderId: integer('folder_id')
      .notNull()
      .references(() => attachmentFolder.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    /** Only on rows from before object storage. */
    content: bytea('content'),
    storageKey: text('storage_key'),
    sha256: text('sha256'),
    description: text('description').notNull().default(''),
    uploadedBy: text('uploaded_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('attachment_folder_idx').on(table.folderId),
    // One row per object: deleting a row deletes its object, which no other row may still need.
    uniqueIndex('attachment_storage_key_idx').on(table.storageKey),
    check('attachment_bytes_somewhere', sql`${table.storageKey} IS NOT NULL OR ${table.content} IS NOT NULL`),
  ],
);

/** Contacts integration (until the contacts module provides contacts). */
export const contact = claimsSchema.table(
  'contact',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull().default('person'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    name: text('name').notNull(),
    genderId: integer('gender_id').references(() => lookup.id),
    /**
     * The SSN in plaintext, as rows from before sealing (and the demo seed, whose shared snapshot
     * cannot know an installation's key) hold it. Never written otherwise: the sealing pass
     * (integrations/contact-ssns.ts) moves it into ssn_sealed and ssn_hash and empties it.
     */
    legacySsn: text('ssn'),
    /** The SSN's digits sealed by the secrets service, bound to the row (`claims.contact:<id>:ssn`). */
    ssnSealed: text('ssn_sealed'),
    /** The keyed hash (HMAC-SHA256) of the SSN's digits: duplicate checks compare these. */
    ssnHash: text('ssn_hash'),
    dob: date('dob'),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    addresses: jsonb('addresses').$type<Record<string, unknown>[]>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('contact_name_idx').on(sql`lower(${table.name})`), index('contact_ssn_hash_idx').on(table.ssnHash)],
);

export const contactNote = claimsSchema.table('contact_note', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  contactId: integer('contact_id')
    .notNull()
    .references(() => contact.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

export const contactRelation = claimsSchema.table('contact_relation', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  contactId: integer('contact_id')
    .notNull()
    .references(() => contact.id, { onDelete: 'cascade' }),
  relatedContactId: integer('related_contact_id')
    .notNull()
    .references(() => contact.id, { onDelete: 'cascade' }),
  relation: text('relation').notNull(),
});

/** ZIP → city/state for address-by-zip. */
export const zipCode = claimsSchema.table('zip_code', {
  zip: text('zip').primaryKey(),
  city: text('city').notNull(),
  county: text('county').notNull().default(''),
  state: text('state').notNull(),
});

/** Mock Policies Maintenance: the claims module's own policies until the policies module provides them. */
export const policyType = claimsSchema.table(
  'policy_type',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
  },
  (table) => [uniqueIndex('policy_type_name_key').on(table.name)],
);

export const policyStatus = claimsSchema.table(
  'policy_status',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    label: text('label').notNull(),
  },
  (table) => [uniqueIndex('policy_status_name_key').on(table.name)],
);

export const mockPolicy = claimsSchema.table(
  'mock_policy',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyNumber: text('policy_number').notNull(),
    insuredName: text('insured_name').notNull(),
    productId: integer('product_id').references(() => product.id),
    dateAdded: timestamptz('date_added').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('mock_policy_number_key').on(table.policyNumber)],
);

/** One coverage of a policy revision, as the policies module serves it (docs/claims.md, "Policies"). */
export interface PolicyCoverage {
  coverage_type: string;
  label: string;
  limit: string;
  deductible: string;
  risk: string;
}

export const policyRevision = claimsSchema.table(
  'policy_revision',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => mockPolicy.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    description: text('description').notNull().default(''),
    policyTypeId: integer('policy_type_id').references(() => policyType.id),
    policyStatusId: integer('policy_status_id').references(() => policyStatus.id),
    effectiveDate: date('effective_date').notNull(),
    expirationDate: date('expiration_date').notNull(),
    primaryInsuredContact: jsonb('primary_insured_contact').$type<Record<string, unknown> | null>(),
    namedInsuredContacts: jsonb('named_insured_contacts').$type<Record<string, unknown>[]>().notNull().default([]),
    additionalInsuredContacts: jsonb('additional_insured_contacts')
      .$type<Record<string, unknown>[]>()
      .notNull()
      .default([]),
    agencyContact: jsonb('agency_contact').$type<Record<string, unknown> | null>(),
    agentContact: jsonb('agent_contact').$type<Record<string, unknown> | null>(),
    /**
     * The producers' contact ids, kept by the database from the contacts above: agents and agencies
     * read the claims of the policies they write through these (claim-access.ts, system policies).
     */
    agentContactId: text('agent_contact_id').generatedAlwaysAs(sql`agent_contact->>'id'`),
    agencyContactId: text('agency_contact_id').generatedAlwaysAs(sql`agency_contact->>'id'`),
    files: jsonb('files').$type<Record<string, unknown>[]>().notNull().default([]),
    /** What the revision covers: coverage type (name), limit, deductible (decimal text) and risk. */
    coverages: jsonb('coverages').$type<PolicyCoverage[]>().notNull().default([]),
    dateAdded: timestamptz('date_added').notNull().defaultNow(),
  },
  (table) => [
    index('policy_revision_policy_idx').on(table.policyId),
    index('policy_revision_agent_idx').on(table.agentContactId),
    index('policy_revision_agency_idx').on(table.agencyContactId),
  ],
);

export { bytea, money };
