import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  defineResource,
  resourceDefinitionOf,
  type Queryable,
  type ResourceDefinition,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { CLAIMS_BASE } from './http-kit.js';
import { claimBalance } from '../ledger/tables.js';
import { claim, claimPeril, claimTag, claimUser, exposure, location, lookup, party, product, risk } from './tables.js';
import { partyCollection } from './claim-kinds.js';
import { exposureResource, hydrateExposures } from './exposure-resource.js';
import { productResource } from './product-resource.js';

/**
 * A claim as the API shows it: the row, its loss location (an embedded address), its perils, loss
 * category and reported method by name (as the FNOL enters them), and ids of its tags, exposures
 * and parties. `hydrateClaims` loads all of that for a page of claims in a fixed number of queries.
 */
export type ClaimRow = typeof claim.$inferSelect;
export type LocationRow = typeof location.$inferSelect;

export interface ClaimRecord extends ClaimRow {
  location: LocationRow | null;
  perilNames: string[];
  tagIds: string[];
  exposureIds: string[];
  partyIds: string[];
  primaryInsuredId: string | null;
  lossCategoryName: string | null;
  reportedMethodName: string | null;
  firstPartyRisks: number;
  unlistedRisks: number;
  /** From the claim's balance row (ledger/tables.ts claim_balance); '0.00' without postings. */
  totalIncurred: string;
  /**
   * The primary adjuster's name as claims last copied it from identity (claim_user, written when a
   * user is made a claim's adjuster), so screens show a person rather than a user name; null when
   * unassigned or never copied (an imported claim's adjuster until first assigned here).
   */
  primaryAdjusterName: string | null;
}

export const etagOf = (row: { id: number; version: number }, kind = 'claim') => `"${kind}-${row.id}-v${row.version}"`;

export function locationAttributes(row: LocationRow | null) {
  if (!row) return null;
  const { id, ...rest } = row;
  return { id, ...rest };
}

/**
 * `column = any($1)` with the ids as one array parameter: one statement text whatever the page size,
 * and no per-id parameter for Drizzle to build (an `in (…)` of a 250-claim page is 250 parameters).
 */
const anyOf = (column: AnyPgColumn, ids: number[]) => sql`${column} = any(${sql.param(ids)})`;

/** `known.locations`: loss locations the caller already read (the list joins them), not read again. */
export async function hydrateClaims(
  db: Queryable,
  rows: ClaimRow[],
  known: { locations?: LocationRow[] } = {},
): Promise<ClaimRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const locationIds = known.locations ? [] : rows.map((r) => r.lossLocationId).filter((id): id is number => id != null);
  const lookupIds = rows
    .flatMap((r) => [r.lossCategoryId, r.reportedMethodId])
    .filter((id): id is number => id != null);
  const adjusters = [...new Set(rows.map((r) => r.primaryAdjuster).filter((u): u is string => !!u))];
  const [locations, perils, tagRows, exposureRows, partyRows, lookups, riskCounts, balances, adjusterRows] =
    await Promise.all([
      locationIds.length ? db.select().from(location).where(anyOf(location.id, locationIds)) : [],
      db
        .select({ claimId: claimPeril.claimId, name: lookup.name })
        .from(claimPeril)
        .innerJoin(lookup, eq(lookup.id, claimPeril.perilId))
        .where(anyOf(claimPeril.claimId, ids))
        .orderBy(lookup.name),
      db.select().from(claimTag).where(anyOf(claimTag.claimId, ids)).orderBy(claimTag.tagId),
      db
        .select({ id: exposure.id, claimId: exposure.claimId })
        .from(exposure)
        .where(anyOf(exposure.claimId, ids))
        .orderBy(exposure.number),
      db
        .select({ id: party.id, claimId: party.claimId, role: party.role })
        .from(party)
        .where(anyOf(party.claimId, ids))
        .orderBy(party.displayNumber),
      lookupIds.length
        ? db.select({ id: lookup.id, name: lookup.name }).from(lookup).where(anyOf(lookup.id, lookupIds))
        : [],
      db
        .select({
          claimId: risk.claimId,
          firstParty: sql<number>`count(*) filter (where ${risk.isFirstPartyRisk})`.mapWith(Number),
          unlisted: sql<number>`count(*) filter (where not ${risk.isFirstPartyRisk})`.mapWith(Number),
        })
        .from(risk)
        .where(anyOf(risk.claimId, ids))
        .groupBy(risk.claimId),
      db
        .select({ claimId: claimBalance.claimId, totalIncurred: claimBalance.totalIncurred })
        .from(claimBalance)
        .where(anyOf(claimBalance.claimId, ids)),
      adjusters.length
        ? db
            .select({ username: claimUser.username, name: claimUser.name })
            .from(claimUser)
            .where(inArray(claimUser.username, adjusters))
        : [],
    ]);
  const adjusterName = new Map(adjusterRows.map((a) => [a.username, a.name]));
  const locationById = new Map((known.locations ?? locations).map((l) => [l.id, l]));
  const lookupName = new Map(lookups.map((l) => [l.id, l.name]));
  const group = <T extends { claimId: number }>(list: T[]) => {
    const map = new Map<number, T[]>();
    for (const item of list) {
      const items = map.get(item.claimId);
      if (items) items.push(item);
      else map.set(item.claimId, [item]);
    }
    return map;
  };
  const perilsBy = group(perils);
  const tagsBy = group(tagRows);
  const exposuresBy = group(exposureRows);
  const partiesBy = group(partyRows);
  const risksBy = new Map(riskCounts.map((r) => [r.claimId, r]));
  const incurredBy = new Map(balances.map((b) => [b.claimId, b.totalIncurred]));
  // Every column by name rather than `{ ...row, … }`: a spread followed by more properties gives
  // V8 objects that are several times slower to build and to read (measured: 7 ms of a 250-claim page
  // of the P2 benchmark). The ClaimRecord type makes the compiler insist on every column.
  return rows.map((row): ClaimRecord => {
    const parties = partiesBy.get(row.id) ?? [];
    const risks = risksBy.get(row.id);
    return {
      id: row.id,
      number: row.number,
      customNumber: row.customNumber,
      fnolNumber: row.fnolNumber,
      status: row.status,
      state: row.state,
      productId: row.productId,
      dateOfLoss: row.dateOfLoss,
      dateOfLossTimezone: row.dateOfLossTimezone,
      lossDescription: row.lossDescription,
      lossLocationId: row.lossLocationId,
      lossCategoryId: row.lossCategoryId,
      reportedMethodId: row.reportedMethodId,
      reportedDate: row.reportedDate,
      reportedBy: row.reportedBy,
      policyId: row.policyId,
      policyNumber: row.policyNumber,
      policyRevisionId: row.policyRevisionId,
      policyType: row.policyType,
      policySource: row.policySource,
      policyRef: row.policyRef,
      policyRevisionRef: row.policyRevisionRef,
      policyRevisionNumber: row.policyRevisionNumber,
      policyCoverages: row.policyCoverages,
      policyAgentContactId: row.policyAgentContactId,
      policyAgencyContactId: row.policyAgencyContactId,
      currentFnolStep: row.currentFnolStep,
      refreshPolicyDate: row.refreshPolicyDate,
      updateLatestRevision: row.updateLatestRevision,
      exposuresFolderId: row.exposuresFolderId,
      fields: row.fields,
      fnolClaimants: row.fnolClaimants,
      statusChangeReason: row.statusChangeReason,
      primaryAdjuster: row.primaryAdjuster,
      primaryInsuredPartyId: row.primaryInsuredPartyId,
      createdBy: row.createdBy,
      submittedBy: row.submittedBy,
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      location: row.lossLocationId ? (locationById.get(row.lossLocationId) ?? null) : null,
      perilNames: (perilsBy.get(row.id) ?? []).map((p) => p.name),
      tagIds: (tagsBy.get(row.id) ?? []).map((t) => String(t.tagId)),
      exposureIds: (exposuresBy.get(row.id) ?? []).map((e) => String(e.id)),
      partyIds: parties.map((p) => String(p.id)),
      primaryInsuredId:
        row.primaryInsuredPartyId != null
          ? String(row.primaryInsuredPartyId)
          : (parties.find((p) => p.role === 'insured')?.id.toString() ?? null),
      lossCategoryName: row.lossCategoryId ? (lookupName.get(row.lossCategoryId) ?? null) : null,
      reportedMethodName: row.reportedMethodId ? (lookupName.get(row.reportedMethodId) ?? null) : null,
      firstPartyRisks: risks?.firstParty ?? 0,
      unlistedRisks: risks?.unlisted ?? 0,
      totalIncurred: incurredBy.get(row.id) ?? '0.00',
      primaryAdjusterName: row.primaryAdjuster ? adjusterName.get(row.primaryAdjuster) || null : null,
    };
  });
}

/** Lookups (tags) as included resources. */
const tagResource = defineResource<typeof lookup.$inferSelect>({
  type: 'tag',
  id: (row) => String(row.id),
  basePath: `${CLAIMS_BASE}/tags/`,
  readPermission: claimsPermission('lookup', 'read'),
  attributes: (row) => ({ name: row.name, label: row.label, code: row.code, expired: row.expired }),
});

/**
 * `include=` shows each related type only to callers who may read it (claims:party, claims:exposure,
 * claims:product, claims:lookup), as if they had asked for its own route (security issue 14, item 1).
 */
export function claimResource(db: Queryable, context: ServerPluginContext): ResourceDefinition<ClaimRecord> {
  // Built once: the serializer asks a relationship for its resource for every claim of a page.
  const exposures = exposureResource(db);
  const parties = resourceDefinitionOf(partyCollection, context);
  const loadParties = (ids: string[]) =>
    db
      .select()
      .from(party)
      .where(inArray(party.id, ids.map(Number)));
  return defineResource<ClaimRecord>({
    type: 'claim',
    id: (row) => String(row.id),
    basePath: `${CLAIMS_BASE}/claims/`,
    attributes: (row) => ({
      number: row.number,
      custom_number: row.customNumber,
      status: row.status,
      state: row.state,
      date_of_loss: row.dateOfLoss,
      date_of_loss_timezone: row.dateOfLossTimezone,
      loss_description: row.lossDescription,
      fnol_number: row.fnolNumber,
      policy_id: row.policyId,
      policy_number: row.policyNumber,
      policy_revision_id: row.policyRevisionId,
      policy_source: row.policySource,
      policy_ref: row.policyRef,
      policy_revision_ref: row.policyRevisionRef,
      policy_revision_number: row.policyRevisionNumber,
      policy_coverages: row.policyCoverages,
      policy_type: row.policyType,
      reported_date: row.reportedDate,
      reported_by: row.reportedBy,
      reported_method: row.reportedMethodName,
      current_fnol_step: row.currentFnolStep,
      policy_risks_count: row.firstPartyRisks,
      total_incurred: row.totalIncurred,
      unlisted_risks_count: row.unlistedRisks,
      refresh_policy_date: row.refreshPolicyDate,
      update_latest_revision: row.updateLatestRevision,
      exposures_folder_id: row.exposuresFolderId,
      fields: row.fields,
      status_change_reason: row.statusChangeReason,
      loss_category: row.lossCategoryName,
      loss_location: locationAttributes(row.location),
      perils: row.perilNames,
      claimants: row.fnolClaimants,
      primary_adjuster: row.primaryAdjuster,
      primary_adjuster_name: row.primaryAdjusterName,
      created_by: row.createdBy,
      submitted_by: row.submittedBy,
      version: row.version,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    }),
    relationships: {
      product: {
        resource: () => productResource,
        ids: (row) => (row.productId == null ? null : String(row.productId)),
        load: (ids) =>
          db
            .select()
            .from(product)
            .where(inArray(product.id, ids.map(Number))),
      },
      tags: {
        resource: () => tagResource,
        many: true,
        ids: (row) => row.tagIds,
        load: (ids) =>
          db
            .select()
            .from(lookup)
            .where(and(inArray(lookup.id, ids.map(Number)))),
      },
      exposures: {
        resource: () => exposures,
        many: true,
        ids: (row) => row.exposureIds,
        load: async (ids) =>
          hydrateExposures(
            db,
            await db
              .select()
              .from(exposure)
              .where(inArray(exposure.id, ids.map(Number))),
          ),
      },
      parties: { resource: () => parties, many: true, ids: (row) => row.partyIds, load: loadParties },
      primary_insured: { resource: () => parties, ids: (row) => row.primaryInsuredId, load: loadParties },
    },
  });
}
