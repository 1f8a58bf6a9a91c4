import { inArray } from 'drizzle-orm';
import { defineResource, typeOnly, type Queryable, type ResourceDefinition } from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { CLAIMS_BASE } from './http-kit.js';
import { claim, coverage, exposure, exposureTag, party, policyRevision } from './tables.js';

/** An exposure as the API shows it: the row, its claim's number and status, its tag ids. */
export type ExposureRow = typeof exposure.$inferSelect;

export interface ExposureRecord extends ExposureRow {
  claimNumber: string;
  claimStatus: string;
  tagIds: string[];
  /** The claimant's (party's) name, the coverage's name: what screens show instead of ids. */
  partyName: string | null;
  coverageName: string | null;
}

export async function hydrateExposures(db: Queryable, rows: ExposureRow[]): Promise<ExposureRecord[]> {
  if (rows.length === 0) return [];
  const claimIds = [...new Set(rows.map((r) => r.claimId))];
  const partyIds = [...new Set(rows.flatMap((r) => (r.partyId == null ? [] : [r.partyId])))];
  const coverageIds = [...new Set(rows.flatMap((r) => (r.coverageId == null ? [] : [r.coverageId])))];
  const revisionIds = [
    ...new Set(rows.flatMap((r) => (r.coverageType == null || r.policyRevisionId == null ? [] : [r.policyRevisionId]))),
  ];
  const [claims, tags, parties, coverages, revisions] = await Promise.all([
    db
      .select({ id: claim.id, number: claim.number, status: claim.status, policyCoverages: claim.policyCoverages })
      .from(claim)
      .where(inArray(claim.id, claimIds)),
    db
      .select()
      .from(exposureTag)
      .where(
        inArray(
          exposureTag.exposureId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(exposureTag.tagId),
    partyIds.length
      ? db.select({ id: party.id, name: party.name }).from(party).where(inArray(party.id, partyIds))
      : Promise.resolve([]),
    coverageIds.length
      ? db.select({ id: coverage.id, name: coverage.name }).from(coverage).where(inArray(coverage.id, coverageIds))
      : Promise.resolve([]),
    revisionIds.length
      ? db
          .select({ id: policyRevision.id, coverages: policyRevision.coverages })
          .from(policyRevision)
          .where(inArray(policyRevision.id, revisionIds))
      : Promise.resolve([]),
  ]);
  const claimById = new Map(claims.map((c) => [c.id, c]));
  // The policy coverage's label on its mock revision, or on a policies-module policy the claim's
  // copied coverages (no revision id then); else the legacy coverage row's name.
  const coverageLabel = (row: ExposureRow) => {
    if (row.coverageType == null) return coverages.find((c) => c.id === row.coverageId)?.name ?? null;
    const listed = (
      row.policyRevisionId == null
        ? claimById.get(row.claimId)?.policyCoverages
        : revisions.find((r) => r.id === row.policyRevisionId)?.coverages
    )?.find((c) => c.coverage_type === row.coverageType);
    return listed?.label || row.coverageType;
  };
  return rows.map((row) => ({
    ...row,
    claimNumber: claimById.get(row.claimId)?.number ?? '',
    claimStatus: claimById.get(row.claimId)?.status ?? '',
    tagIds: tags.filter((t) => t.exposureId === row.id).map((t) => String(t.tagId)),
    partyName: parties.find((p) => p.id === row.partyId)?.name ?? null,
    coverageName: coverageLabel(row),
  }));
}

export function exposureResource(_db: Queryable): ResourceDefinition<ExposureRecord> {
  return defineResource<ExposureRecord>({
    type: 'exposure',
    id: (row) => String(row.id),
    basePath: `${CLAIMS_BASE}/exposures/`,
    readPermission: claimsPermission('exposure', 'read'),
    attributes: (row) => ({
      number: row.number,
      display_number: `${row.claimNumber}-${row.number}`,
      exposure_name: row.exposureName,
      description: row.description,
      status: row.status,
      folder_id: row.folderId,
      claim_number: row.claimNumber,
      is_injury: row.isInjury,
      // Exposures of an FNOL draft may go; once the claim is submitted they are closed instead.
      is_deletable: row.claimStatus === 'draft',
      expired: row.expired,
      adjuster: row.adjuster,
      adjuster_start_date: row.adjusterStartDate,
      deductible_applied_status: row.deductibleAppliedStatus,
      deductible_override_amount: row.deductibleOverrideAmount,
      deductible_override_reason: row.deductibleOverrideReason,
      full_deductible_applied: row.fullDeductibleApplied,
      summary: row.summary,
      status_change_reason: row.statusChangeReason,
      // The policy coverage claimed under (its type on the claim's policy revision) and the names
      // screens show: the coverage's and the claimant's (never "Coverage: 88").
      coverage_type: row.coverageType,
      policy_revision_id: row.policyRevisionId,
      coverage_name: row.coverageName,
      claimant_name: row.partyName,
      version: row.version,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    }),
    relationships: {
      claim: { resource: () => typeOnly('claim'), ids: (row) => String(row.claimId) },
      party: { resource: () => typeOnly('party'), ids: (row) => (row.partyId == null ? null : String(row.partyId)) },
      coverage: {
        resource: () => typeOnly('coverage'),
        ids: (row) => (row.coverageId == null ? null : String(row.coverageId)),
      },
      risk: { resource: () => typeOnly('risk'), ids: (row) => (row.riskId == null ? null : String(row.riskId)) },
      tags: { resource: () => typeOnly('tag'), many: true, ids: (row) => row.tagIds },
    },
  });
}
