import { and, eq, sql } from 'drizzle-orm';
import {
  isUniqueViolation,
  ApiError,
  type Database,
  type JobDefinition,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsUsersAmong } from '../integrations/claims-users.js';
import { adjusterNamesOf, claimNumbersOf, planImport, type PlannedClaim } from './import-plan.js';
import { loadReference, writePlannedClaim } from './import-store.js';
import { countsOf, resumeStateOf, type RecordedOutcome, type RunCounts } from './import-resume.js';
import { importRun, importRunClaim, type ImportProblem } from './tables.js';

/**
 * The import job (pg-boss queue `claims-import-historical-claims`, data `{ runId, attempt? }`). It plans the
 * run's rows again against the database as it is now (a claim may have been created or imported
 * since the preview), then writes each claim in its own transaction: a claim that fails leaves
 * nothing behind and does not stop the others. Progress (claims processed, counts) is written to
 * the run after every claim; the screen polls the run.
 */
export const IMPORT_JOB = 'claims-import-historical-claims';

/** Problems kept on a run; a file with more says how many were left out. */
export const MAX_STORED_PROBLEMS = 1000;

/** `attempt`: set by a resume (routes.ts), the attempt that took the interrupted run over. */
export const importJob: JobDefinition<{ runId: number; attempt?: number }> = {
  name: IMPORT_JOB,
  // Imports are rare and someone waits for each: poll often (the query is tiny).
  pollingIntervalSeconds: 1,
  // Not retried by the queue: pg-boss fails a job whose handler runs past its expiry (15 minutes) and
  // would retry it while that handler still runs, and a large import may take longer. An interrupted run is
  // resumed by a person instead (POST imports/{id}/resume/), which knows the run stopped.
  retryLimit: 0,
  handler: (data, context) => runImport(context.db, data.runId, context, data.attempt),
};

export function capProblems(problems: ImportProblem[]): ImportProblem[] {
  if (problems.length <= MAX_STORED_PROBLEMS) return problems;
  return [
    ...problems.slice(0, MAX_STORED_PROBLEMS),
    {
      row: null,
      column: null,
      claim_number: null,
      message: `${problems.length - MAX_STORED_PROBLEMS} more problems are not listed.`,
    },
  ];
}

/**
 * Runs an import run. Without `resumeAttempt` it takes a `queued` run; with it (the job a resume
 * queued, routes.ts) it takes a `running` run only while that attempt still owns it — both by a
 * conditional UPDATE, so one execution at a time works on a run. The claims that already have an
 * outcome for the run are not planned again and the counts come from the outcome rows, so a resumed
 * run ends with the counts an uninterrupted one would have.
 */
export async function runImport(db: Database, runId: number, context?: ServerPluginContext, resumeAttempt?: number) {
  const [run] =
    resumeAttempt === undefined
      ? await db
          .update(importRun)
          .set({ status: 'running', startedAt: new Date(), heartbeatAt: sql`now()` })
          .where(and(eq(importRun.id, runId), eq(importRun.status, 'queued')))
          .returning()
      : await db
          .update(importRun)
          .set({ heartbeatAt: sql`now()` })
          .where(and(eq(importRun.id, runId), eq(importRun.status, 'running'), eq(importRun.attempt, resumeAttempt)))
          .returning();
  if (!run) return; // not queued (already run, unknown) or resumed again by someone else: nothing to do
  // Every write to the run is this execution's only while the run is still its attempt's.
  const mine = and(eq(importRun.id, runId), eq(importRun.status, 'running'), eq(importRun.attempt, run.attempt));
  const progress = async (values: Partial<typeof importRun.$inferInsert>) => {
    const updated = await db
      .update(importRun)
      .set({ ...values, heartbeatAt: sql`now()` })
      .where(mine)
      .returning({ id: importRun.id });
    if (updated.length === 0) context?.log.warn({ runId }, 'historical claims import taken over by a resume; stopping');
    return updated.length > 0;
  };
  try {
    if (!context) throw new Error('An import runs with its plugin context (it asks who is a claims user).');
    const reference = await loadReference(
      db,
      claimNumbersOf(run.rows),
      await claimsUsersAmong(context, adjusterNamesOf(run.rows)),
    );
    const plan = planImport(run.rows, reference);
    const { pending, counts, problems } = resumeStateOf(plan, await outcomesOf(db, runId));
    const started = await progress({
      claimsTotal: plan.claims.length,
      problems: capProblems(problems),
      ...countColumns(counts),
    });
    if (!started) return;
    for (const planned of pending) {
      const outcome = await importOne(db, run, planned);
      if (outcome.kind !== 'recorded-before') {
        counts.processed++;
        if (outcome.kind === 'imported') {
          counts.imported++;
          counts.exposures += planned.exposures.length;
          counts.entries += planned.entries.length;
        } else if (outcome.kind === 'skipped') counts.skipped++;
        else {
          counts.failed++;
          if (outcome.problem) problems.push(outcome.problem);
        }
      }
      const owned = await progress({
        ...countColumns(counts),
        ...(outcome.problem ? { problems: capProblems(problems) } : {}),
      });
      if (!owned) return;
    }
    // The outcome rows have the last word: they are what the run did, whoever wrote them.
    await db
      .update(importRun)
      .set({
        status: 'completed',
        finishedAt: new Date(),
        heartbeatAt: sql`now()`,
        ...countColumns(countsOf(await outcomesOf(db, runId))),
      })
      .where(mine);
  } catch (error) {
    context?.log.error({ err: error, runId }, 'historical claims import failed');
    await db
      .update(importRun)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: `The import stopped: ${(error as Error).message ?? String(error)}`,
      })
      .where(mine);
  }
}

async function outcomesOf(db: Database, runId: number): Promise<RecordedOutcome[]> {
  return db
    .select({
      claimNumber: importRunClaim.claimNumber,
      outcome: importRunClaim.outcome,
      firstRow: importRunClaim.firstRow,
      exposures: importRunClaim.exposures,
      entries: importRunClaim.entries,
      detail: importRunClaim.detail,
    })
    .from(importRunClaim)
    .where(eq(importRunClaim.runId, runId))
    .orderBy(importRunClaim.id);
}

function countColumns(counts: RunCounts) {
  return {
    claimsProcessed: counts.processed,
    claimsImported: counts.imported,
    claimsSkipped: counts.skipped,
    claimsFailed: counts.failed,
    exposuresImported: counts.exposures,
    entriesImported: counts.entries,
  };
}

/** `recorded-before`: the claim already has an outcome for this run (an execution that was taken over wrote it). */
export type Outcome = { kind: 'imported' | 'skipped' | 'failed' | 'recorded-before'; problem?: ImportProblem };

/** One claim of a run: written in its own transaction, or recorded skipped or failed. Exported for the resume tests. */
export async function importOne(
  db: Database,
  run: typeof importRun.$inferSelect,
  planned: PlannedClaim,
): Promise<Outcome> {
  /** False when the claim has an outcome for the run already (one per claim and run). */
  const record = async (outcome: 'skipped' | 'failed', detail: string) => {
    const inserted = await db
      .insert(importRunClaim)
      .values({
        runId: run.id,
        claimNumber: planned.number,
        outcome,
        firstRow: planned.firstRow,
        exposures: planned.exposures.length,
        entries: planned.entries.length,
        detail,
      })
      .onConflictDoNothing({ target: [importRunClaim.runId, importRunClaim.claimNumber] })
      .returning({ id: importRunClaim.id });
    return inserted.length > 0;
  };
  const recordedBefore: Outcome = { kind: 'recorded-before' };
  if (planned.outcome === 'skip') {
    return (await record('skipped', planned.detail!)) ? { kind: 'skipped' } : recordedBefore;
  }
  if (planned.outcome === 'problem') {
    const [first] = planned.problems;
    const more = planned.problems.length > 1 ? ` (and ${planned.problems.length - 1} more problems)` : '';
    const recorded = await record('failed', `Row ${first!.row}, ${first!.column}: ${first!.message}${more}`);
    return recorded ? { kind: 'failed' } : recordedBefore;
  }
  try {
    await db.transaction((tx) =>
      writePlannedClaim(tx, planned, { id: run.id, fileName: run.fileName, username: run.createdBy }),
    );
    return { kind: 'imported' };
  } catch (error) {
    // Another run (or someone) made the number between the plan and the write.
    if (isUniqueViolation(error)) {
      const [imported] = await db
        .select({ runId: importRunClaim.runId })
        .from(importRunClaim)
        .where(and(eq(importRunClaim.claimNumber, planned.number), eq(importRunClaim.outcome, 'imported')));
      if (imported?.runId === run.id) return recordedBefore;
      if (imported) {
        const recorded = await record(
          'skipped',
          `Claim ${planned.number} was imported by import run ${imported.runId}; skipped.`,
        );
        return recorded ? { kind: 'skipped' } : recordedBefore;
      }
    }
    const message = isUniqueViolation(error)
      ? `Claim ${planned.number} already exists in Atrium.`
      : error instanceof ApiError
        ? error.message
        : `The claim could not be written: ${(error as Error).message}`;
    if (!(await record('failed', message))) return recordedBefore;
    return {
      kind: 'failed',
      problem: { row: planned.firstRow, column: null, claim_number: planned.number, message },
    };
  }
}

/** Percent of the run's claims processed, as the job runner machine reads it ('0.00'–'100.00'). */
export function progressOf(run: Pick<typeof importRun.$inferSelect, 'status' | 'claimsTotal' | 'claimsProcessed'>) {
  if (run.status === 'completed') return '100.00';
  if (run.claimsTotal === 0) return '0.00';
  return ((run.claimsProcessed * 100) / run.claimsTotal).toFixed(2);
}
