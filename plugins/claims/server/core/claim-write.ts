import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { ApiError, attributeError, toManyRelationship, toOneRelationship, z, type Queryable } from '@atrium/sdk/server';
import type { PolicyLookup } from '@atrium/plugin-policies/services';
import { mockPolicyColumns, policyColumnsAt } from '../integrations/policy-source.js';
import {
  claimPeril,
  exposure,
  location,
  lookup,
  party,
  policyRevision,
  product,
  type claim,
  type ClaimPolicyCoverage,
} from './tables.js';

/**
 * What a claim write may carry, and how it becomes columns. The FNOL enters perils, loss category
 * and reported method by name and the loss location as an address; they are resolved here (an
 * unknown name is a 400 on its attribute) so that routes stay short.
 */
const text = (max: number) => z.string().trim().max(max);
/**
 * A claim date: `YYYY-MM-DD` or an ISO date and time, naming a day that exists between 1900-01-01 and
 * 2200-12-31 — the rules of the SDK's calendarDate (security issue 14), checked here on the claims
 * side so that "99999-01-01" or "2026-02-30" is a 400 on its attribute rather than a database error.
 */
const EARLIEST_DAY = '1900-01-01';
const LATEST_DAY = '2200-12-31';
const DAY_FORM = /^(\d{4})-(\d{2})-(\d{2})(?:$|T\d{2}:\d{2})/;
function isClaimDate(value: string): boolean {
  const match = DAY_FORM.exec(value);
  if (!match || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
export const dateText = z
  .string()
  .max(40)
  .refine(isClaimDate, 'Enter a date as YYYY-MM-DD (or an ISO date and time).')
  .refine(
    (v) => !isClaimDate(v) || (v.slice(0, 10) >= EARLIEST_DAY && v.slice(0, 10) <= LATEST_DAY),
    `Enter a date between ${EARLIEST_DAY} and ${LATEST_DAY}.`,
  );
const id = z.number().int().min(1).max(2147483647);

export const lossLocationSchema = z.strictObject({
  line1: text(200).optional(),
  line2: text(200).optional(),
  city: text(100).optional(),
  county: text(100).optional(),
  state: text(50).optional(),
  zip: text(20).optional(),
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
});

export const fnolClaimantSchema = z.object({
  claimant_name: text(200).min(1, 'This field is required.'),
  /** The policy revision's coverage type the exposure claims under (its name). */
  coverage_type: text(100).optional(),
  /** The coverage's label as shown when it was chosen (free text from before coverages were listed). */
  coverage: text(200).default(''),
  description: text(2000).default(''),
});

export const claimAttributes = {
  status: text(20).optional(),
  custom_number: text(50).nullable().optional(),
  state: text(50).nullable().optional(),
  date_of_loss: dateText.nullable().optional(),
  date_of_loss_timezone: text(64).nullable().optional(),
  loss_description: text(5000).optional(),
  policy_id: id.nullable().optional(),
  policy_number: text(50).nullable().optional(),
  policy_revision_id: id.nullable().optional(),
  policy_type: text(100).nullable().optional(),
  /**
   * A policies-module policy (its id) instead of a mock one: the claim takes the revision in force on
   * `policy_date` (else the date of loss, else today) with its coverages. null clears it.
   */
  policy_ref: text(40).nullable().optional(),
  policy_date: z.iso.date().optional(),
  reported_date: dateText.nullable().optional(),
  reported_by: z.record(z.string(), z.unknown()).nullable().optional(),
  reported_method: text(100).nullable().optional(),
  current_fnol_step: text(50).nullable().optional(),
  refresh_policy_date: dateText.nullable().optional(),
  update_latest_revision: z.boolean().optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  status_change_reason: text(500).nullable().optional(),
  loss_category: text(100).nullable().optional(),
  loss_location: lossLocationSchema.nullable().optional(),
  perils: z.array(text(100)).max(20).optional(),
  claimants: z.array(fnolClaimantSchema).max(50).optional(),
  primary_adjuster: text(200).nullable().optional(),
};

export const claimRelationships = {
  product: toOneRelationship('product').optional(),
  tags: toManyRelationship('tag').optional(),
};

export type ClaimAttributes = { [K in keyof typeof claimAttributes]?: z.infer<(typeof claimAttributes)[K]> };
type ClaimInsert = typeof claim.$inferInsert;

const toDate = (value: string | null | undefined) => (value == null ? value : new Date(value));

async function lookupIdByName(
  tx: Queryable,
  kind: string,
  name: string,
  productId: number | null | undefined,
  field: string,
): Promise<number> {
  const [row] = await tx
    .select({ id: lookup.id })
    .from(lookup)
    .where(
      and(
        eq(lookup.kind, kind),
        or(eq(lookup.name, name), eq(lookup.label, name)),
        productId ? or(isNull(lookup.productId), eq(lookup.productId, productId)) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw attributeError(field, `Unknown ${kind.replace(/-/g, ' ')} '${name}'.`);
  return row.id;
}

/** The day a policies-module policy is taken on: policy_date, else the date of loss (new, else current), else today. */
export function policyDateOf(a: ClaimAttributes, currentLoss: Date | null | undefined): string {
  if (a.policy_date) return a.policy_date;
  const loss = a.date_of_loss ? new Date(a.date_of_loss) : currentLoss;
  return (loss ?? new Date()).toISOString().slice(0, 10);
}

/** Turns the attributes of a write into column values (perils are returned apart: they live in claim_peril). */
export async function claimValues(
  tx: Queryable,
  attributes: ClaimAttributes,
  productId: number | null | undefined,
  currentLocationId: number | null,
  policies: { lookup: PolicyLookup | null; dateOfLoss?: Date | null } = { lookup: null },
): Promise<{ values: Partial<ClaimInsert>; perilIds?: number[] }> {
  const a = attributes;
  const values: Partial<ClaimInsert> = {};
  if (a.custom_number !== undefined) values.customNumber = a.custom_number;
  if (a.state !== undefined) values.state = a.state;
  if (a.date_of_loss !== undefined) values.dateOfLoss = toDate(a.date_of_loss);
  if (a.date_of_loss_timezone !== undefined) values.dateOfLossTimezone = a.date_of_loss_timezone;
  if (a.loss_description !== undefined) values.lossDescription = a.loss_description;
  if (a.policy_id !== undefined) values.policyId = a.policy_id;
  if (a.policy_number !== undefined) values.policyNumber = a.policy_number;
  if (a.policy_revision_id !== undefined) values.policyRevisionId = a.policy_revision_id;
  if (a.policy_type !== undefined) values.policyType = a.policy_type;
  if (a.policy_ref) {
    const date = policyDateOf(a, policies.dateOfLoss);
    Object.assign(values, await policyColumnsAt(policies.lookup, tx, a.policy_ref, date));
  } else if (a.policy_ref === null || (a.policy_revision_id !== undefined && a.policy_ref === undefined)) {
    Object.assign(values, mockPolicyColumns);
  }
  if (a.reported_date !== undefined) values.reportedDate = toDate(a.reported_date);
  if (a.reported_by !== undefined) values.reportedBy = a.reported_by;
  if (a.current_fnol_step !== undefined) values.currentFnolStep = a.current_fnol_step;
  if (a.refresh_policy_date !== undefined) values.refreshPolicyDate = toDate(a.refresh_policy_date);
  if (a.update_latest_revision !== undefined) values.updateLatestRevision = a.update_latest_revision;
  if (a.fields !== undefined) values.fields = a.fields;
  if (a.status_change_reason !== undefined) values.statusChangeReason = a.status_change_reason;
  if (a.primary_adjuster !== undefined) values.primaryAdjuster = a.primary_adjuster || null;
  if (a.claimants !== undefined) values.fnolClaimants = a.claimants;
  if (a.reported_method !== undefined) {
    values.reportedMethodId = a.reported_method
      ? await lookupIdByName(tx, 'reported-method', a.reported_method, productId, 'reported_method')
      : null;
  }
  if (a.loss_category !== undefined) {
    values.lossCategoryId = a.loss_category
      ? await lookupIdByName(tx, 'loss-category', a.loss_category, productId, 'loss_category')
      : null;
  }
  if (a.loss_location !== undefined) {
    if (a.loss_location === null) values.lossLocationId = null;
    else if (currentLocationId) {
      await tx.update(location).set(a.loss_location).where(eq(location.id, currentLocationId));
    } else {
      const [created] = await tx.insert(location).values(a.loss_location).returning({ id: location.id });
      values.lossLocationId = created!.id;
    }
  }
  let perilIds: number[] | undefined;
  if (a.perils !== undefined) {
    perilIds = [];
    for (const name of new Set(a.perils)) perilIds.push(await lookupIdByName(tx, 'peril', name, productId, 'perils'));
  }
  return { values, perilIds };
}

export async function replacePerils(tx: Queryable, claimId: number, perilIds: number[]): Promise<void> {
  await tx.delete(claimPeril).where(eq(claimPeril.claimId, claimId));
  if (perilIds.length) await tx.insert(claimPeril).values(perilIds.map((perilId) => ({ claimId, perilId })));
}

/** A draft's product: the one named in the document, else the product whose policy type is the claim's. */
export async function resolveProductId(
  tx: Queryable,
  relationship: { data: { id: string } | null } | undefined,
  policyType: string | null | undefined,
): Promise<number | null | undefined> {
  if (relationship) {
    if (!relationship.data) return null;
    const wanted = /^[1-9]\d{0,9}$/.test(relationship.data.id) ? Number(relationship.data.id) : 0;
    const [row] = await tx.select({ id: product.id }).from(product).where(eq(product.id, wanted)).limit(1);
    if (!row) {
      throw new ApiError(400, `Product ${relationship.data.id} does not exist.`, {
        source: { pointer: '/data/relationships/product/data/id' },
      });
    }
    return row.id;
  }
  if (policyType) {
    const [row] = await tx
      .select({ id: product.id })
      .from(product)
      .where(or(eq(product.policyTypeName, policyType), eq(product.name, policyType)))
      .limit(1);
    return row?.id;
  }
  return undefined;
}

/**
 * Submitting an FNOL: the claimants entered become parties (role claimant) and each gets an
 * exposure on the chosen coverage of the claim's policy revision (its coverage type and the
 * revision's id, named after the coverage's label), numbered after those the claim already has.
 * A coverage type the revision does not list is a 400 on `claimants`.
 */
export async function materializeFnolClaimants(
  tx: Queryable,
  claimId: number,
  claimants: Record<string, unknown>[],
  policyRevisionId: number | null,
  /** The coverages copied from a policies-module revision (the claim's policy_source is 'policies'). */
  copiedCoverages?: ClaimPolicyCoverage[],
): Promise<void> {
  if (claimants.length === 0) return;
  const [revision] = copiedCoverages
    ? [{ coverages: copiedCoverages }]
    : policyRevisionId
      ? await tx
          .select({ coverages: policyRevision.coverages })
          .from(policyRevision)
          .where(eq(policyRevision.id, policyRevisionId))
          .limit(1)
      : [];
  const coverages = revision?.coverages ?? [];
  const [{ maxParty, maxExposure }] = (
    await tx.execute<{ maxParty: number; maxExposure: number }>(
      sql`select (select coalesce(max(display_number), 0) from claims.party where claim_id = ${claimId})::int as "maxParty",
                 (select coalesce(max(number), 0) from claims.exposure where claim_id = ${claimId})::int as "maxExposure"`,
    )
  ).rows as [{ maxParty: number; maxExposure: number }];
  let partyNumber = Number(maxParty);
  let exposureNumber = Number(maxExposure);
  for (const claimant of claimants) {
    const coverageType =
      typeof claimant.coverage_type === 'string' && claimant.coverage_type ? claimant.coverage_type : null;
    const covered = coverageType ? coverages.find((c) => c.coverage_type === coverageType) : undefined;
    if (coverageType && !covered) {
      throw attributeError('claimants', `The policy revision has no coverage ${coverageType}.`);
    }
    const [created] = await tx
      .insert(party)
      .values({ claimId, displayNumber: ++partyNumber, name: String(claimant.claimant_name), role: 'claimant' })
      .returning({ id: party.id });
    await tx.insert(exposure).values({
      claimId,
      number: ++exposureNumber,
      exposureName: covered?.label || covered?.coverage_type || String(claimant.coverage ?? ''),
      description: String(claimant.description ?? ''),
      coverageType,
      policyRevisionId: coverageType ? policyRevisionId : null,
      partyId: created!.id,
      status: 'open',
    });
  }
}

export async function loadTagIds(tx: Queryable, ids: string[], pointer: string): Promise<number[]> {
  const wanted = [...new Set(ids)];
  const numeric = wanted.filter((v) => /^[1-9]\d{0,9}$/.test(v)).map(Number);
  const found = numeric.length
    ? await tx
        .select({ id: lookup.id })
        .from(lookup)
        .where(and(eq(lookup.kind, 'tag'), inArray(lookup.id, numeric)))
    : [];
  const known = new Set(found.map((f) => String(f.id)));
  const missing = wanted.find((v) => !known.has(v));
  if (missing) throw new ApiError(400, `Tag ${missing} does not exist.`, { source: { pointer } });
  return numeric;
}
