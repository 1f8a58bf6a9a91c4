import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { claimPrefix } from '../core/claim-numbers.js';
import { writeAudit } from '../core/http-kit.js';
import { claim, claimAssignment, coverage, exposure, location, lookup, party, product } from '../core/tables.js';
import { requestTransaction, type Actor, type TransactionRequest } from '../ledger/posting-service.js';
import type { ImportReference, PlannedClaim } from './import-plan.js';
import { importRunClaim } from './tables.js';

/**
 * What the validation pass needs from the database, for the claim numbers a file names; `claimsUsers`
 * are the user names among the file's adjusters that are claims users now (claimsUsersAmong).
 */
export async function loadReference(
  db: Queryable,
  numbers: string[],
  claimsUsers: string[],
  now = new Date(),
): Promise<ImportReference> {
  const products = await db
    .select({ id: product.id, name: product.name, label: product.label, policyTypeName: product.policyTypeName })
    .from(product)
    .orderBy(product.name);
  const users = claimsUsers.map((username) => ({ username }));
  const existing = new Map<string, { claimId: number; importedByRun: number | null }>();
  // In chunks: a file may name tens of thousands of claims.
  for (let i = 0; i < numbers.length; i += 1000) {
    const chunk = numbers.slice(i, i + 1000);
    const rows = await db
      .select({ id: claim.id, number: claim.number, runId: importRunClaim.runId })
      .from(claim)
      .leftJoin(importRunClaim, and(eq(importRunClaim.claimId, claim.id), eq(importRunClaim.outcome, 'imported')))
      .where(inArray(claim.number, chunk));
    for (const row of rows) existing.set(row.number, { claimId: row.id, importedByRun: row.runId ?? null });
  }
  return {
    products,
    claimUsers: users.map((u) => u.username),
    existing,
    today: now.toISOString().slice(0, 10),
    claimPrefix: await claimPrefix(db),
  };
}

const atMidnightUtc = (isoDate: string) => new Date(`${isoDate}T00:00:00.000Z`);

export interface WrittenClaim {
  claimId: number;
  exposures: number;
  entries: number;
}

/**
 * Writes one planned claim inside the caller's transaction: the loss location, the claim (its old
 * number kept, marked `fields.source = 'import'` with the run id), the primary adjuster assignment,
 * one claimant party per claimant name, the coverages named, the exposures, then every financial
 * entry through the ledger's posting service on its original date, and the run's `imported`
 * outcome row (whose unique index makes a claim number importable once).
 *
 * The posting service is called without a principal and with the access policy's answer taken as
 * yes — the way the demo seed posts — so authority limits do not apply: the history was decided
 * and approved in the old system, and the ledger records it; the import itself needs claims:import.
 */
export async function writePlannedClaim(
  tx: Queryable,
  planned: PlannedClaim,
  run: { id: number; fileName: string; username: string },
): Promise<WrittenClaim> {
  let lossLocationId: number | null = null;
  if (planned.location) {
    const [row] = await tx.insert(location).values(planned.location).returning({ id: location.id });
    lossLocationId = row!.id;
  }
  const [created] = await tx
    .insert(claim)
    .values({
      number: planned.number,
      status: planned.status,
      productId: planned.productId,
      dateOfLoss: planned.dateOfLoss ? atMidnightUtc(planned.dateOfLoss) : null,
      reportedDate: planned.reportedDate ? atMidnightUtc(planned.reportedDate) : null,
      lossDescription: planned.lossDescription,
      lossLocationId,
      policyNumber: planned.policyNumber,
      policyType: planned.policyType || null,
      primaryAdjuster: planned.adjuster,
      createdBy: run.username,
      submittedBy: run.username,
      fields: { source: 'import', import_run_id: run.id },
    })
    .returning();
  const claimId = created!.id;

  if (planned.adjuster) {
    const [role] = await tx
      .select({ id: lookup.id })
      .from(lookup)
      .where(and(eq(lookup.kind, 'claim-user-role'), eq(lookup.name, 'Primary Adjuster')))
      .limit(1);
    if (role) await tx.insert(claimAssignment).values({ claimId, username: planned.adjuster, roleId: role.id });
  }

  const partyIds = new Map<string, number>();
  for (const e of planned.exposures) {
    if (partyIds.has(e.claimantName)) continue;
    const [row] = await tx
      .insert(party)
      .values({ claimId, displayNumber: partyIds.size + 1, name: e.claimantName, role: 'claimant' })
      .returning({ id: party.id });
    partyIds.set(e.claimantName, row!.id);
  }

  const coverageIds = new Map<string, number>();
  for (const name of new Set(planned.exposures.map((e) => e.coverage).filter(Boolean))) {
    const [type] = await tx
      .select({ id: lookup.id })
      .from(lookup)
      .where(
        and(
          eq(lookup.kind, 'coverage-type'),
          eq(lookup.name, name),
          planned.productId ? or(isNull(lookup.productId), eq(lookup.productId, planned.productId)) : undefined,
        ),
      )
      .limit(1);
    const [row] = await tx
      .insert(coverage)
      .values({ claimId, name, coverageTypeId: type?.id ?? null })
      .returning({ id: coverage.id });
    coverageIds.set(name, row!.id);
  }

  const exposureIds = new Map<number, number>();
  for (const e of planned.exposures) {
    const [row] = await tx
      .insert(exposure)
      .values({
        claimId,
        number: e.number,
        exposureName: e.coverage || e.claimantName,
        status: e.status,
        partyId: partyIds.get(e.claimantName) ?? null,
        coverageId: coverageIds.get(e.coverage) ?? null,
        adjuster: planned.adjuster,
      })
      .returning({ id: exposure.id });
    exposureIds.set(e.number, row!.id);
  }

  const actor: Actor = { username: run.username, effectiveRole: null, principal: null };
  for (const entry of planned.entries) {
    const exposureId = exposureIds.get(entry.exposureNumber)!;
    const details = {
      source: 'import',
      import_run_id: run.id,
      import_row: entry.row,
      original_posted_date: entry.postedDate,
      reference: entry.reference || null,
      comments: entry.comments,
    };
    const request: TransactionRequest =
      entry.type === 'reserve'
        ? { type: 'reserve', exposureId, category: entry.category, newAmount: entry.amount, details }
        : entry.type === 'payment'
          ? {
              type: 'payment',
              exposureId,
              category: entry.category,
              amount: entry.amount,
              finalPayment: entry.finalPayment,
              details,
            }
          : { type: 'recovery', exposureId, category: entry.category, amount: entry.amount, details };
    await requestTransaction(tx, actor, request, true, { postedAt: atMidnightUtc(entry.postedDate) });
  }

  await tx.insert(importRunClaim).values({
    runId: run.id,
    claimNumber: planned.number,
    outcome: 'imported',
    claimId,
    firstRow: planned.firstRow,
    exposures: planned.exposures.length,
    entries: planned.entries.length,
  });
  await writeAudit(tx, {
    username: run.username,
    action: 'create',
    entityType: 'claim',
    entityId: claimId,
    claimId,
    toStatus: planned.status,
    reason: `Imported from ${run.fileName} (import run ${run.id}).`,
    after: created,
  });
  return { claimId, exposures: planned.exposures.length, entries: planned.entries.length };
}
