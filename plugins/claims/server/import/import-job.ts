import { and, eq } from 'drizzle-orm';
import { ApiError, type Database, type JobDefinition, type ServerPluginContext } from '@atrium/sdk/server';
import { isUniqueViolation } from '../core/http-kit.js';
import { claimNumbersOf, planImport, type PlannedClaim } from './import-plan.js';
import { loadReference, writePlannedClaim } from './import-store.js';
import { importRun, importRunClaim, type ImportProblem } from './tables.js';

/**
 * The import job (pg-boss queue `claims-import-historical-claims`, data `{ runId }`). It plans the
 * run's rows again against the database as it is now (a claim may have been created or imported
 * since the preview), then writes each claim in its own transaction: a claim that fails leaves
 * nothing behind and does not stop the others. Progress (claims processed, counts) is written to
 * the run after every claim; the screen polls the run.
 */
export const IMPORT_JOB = 'claims-import-historical-claims';

/** Problems kept on a run; a file with more says how many were left out. */
export const MAX_STORED_PROBLEMS = 1000;

export const importJob: JobDefinition<{ runId: number }> = {
  name: IMPORT_JOB,
  // Imports are rare and someone waits for each: poll often (the query is tiny).
  pollingIntervalSeconds: 1,
  // A run is not retried by the queue: claims written stay written, and re-running the file is the retry.
  retryLimit: 0,
  handler: (data, context) => runImport(context.db, data.runId, context),
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

export async function runImport(db: Database, runId: number, context?: Pick<ServerPluginContext, 'log'>) {
  const [run] = await db
    .update(importRun)
    .set({ status: 'running', startedAt: new Date() })
    .where(and(eq(importRun.id, runId), eq(importRun.status, 'queued')))
    .returning();
  if (!run) return; // not queued (already run, or unknown): nothing to do
  try {
    const reference = await loadReference(db, claimNumbersOf(run.rows));
    const plan = planImport(run.rows, reference);
    const problems: ImportProblem[] = [...plan.problems];
    await db
      .update(importRun)
      .set({ claimsTotal: plan.claims.length, problems: capProblems(problems) })
      .where(eq(importRun.id, runId));
    const counts = { processed: 0, imported: 0, skipped: 0, failed: 0, exposures: 0, entries: 0 };
    for (const planned of plan.claims) {
      const outcome = await importOne(db, run, planned);
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
      await db
        .update(importRun)
        .set({
          claimsProcessed: counts.processed,
          claimsImported: counts.imported,
          claimsSkipped: counts.skipped,
          claimsFailed: counts.failed,
          exposuresImported: counts.exposures,
          entriesImported: counts.entries,
          ...(outcome.problem ? { problems: capProblems(problems) } : {}),
        })
        .where(eq(importRun.id, runId));
    }
    await db.update(importRun).set({ status: 'completed', finishedAt: new Date() }).where(eq(importRun.id, runId));
  } catch (error) {
    context?.log.error({ err: error, runId }, 'historical claims import failed');
    await db
      .update(importRun)
      .set({
        status: 'failed',
        finishedAt: new Date(),
        error: `The import stopped: ${(error as Error).message ?? String(error)}`,
      })
      .where(eq(importRun.id, runId));
  }
}

type Outcome = { kind: 'imported' | 'skipped' | 'failed'; problem?: ImportProblem };

async function importOne(db: Database, run: typeof importRun.$inferSelect, planned: PlannedClaim): Promise<Outcome> {
  const record = async (outcome: 'skipped' | 'failed', detail: string) => {
    await db.insert(importRunClaim).values({
      runId: run.id,
      claimNumber: planned.number,
      outcome,
      firstRow: planned.firstRow,
      exposures: planned.exposures.length,
      entries: planned.entries.length,
      detail,
    });
  };
  if (planned.outcome === 'skip') {
    await record('skipped', planned.detail!);
    return { kind: 'skipped' };
  }
  if (planned.outcome === 'problem') {
    const [first] = planned.problems;
    const more = planned.problems.length > 1 ? ` (and ${planned.problems.length - 1} more problems)` : '';
    await record('failed', `Row ${first!.row}, ${first!.column}: ${first!.message}${more}`);
    return { kind: 'failed' };
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
      if (imported) {
        await record('skipped', `Claim ${planned.number} was imported by import run ${imported.runId}; skipped.`);
        return { kind: 'skipped' };
      }
    }
    const message = isUniqueViolation(error)
      ? `Claim ${planned.number} already exists in Atrium.`
      : error instanceof ApiError
        ? error.message
        : `The claim could not be written: ${(error as Error).message}`;
    await record('failed', message);
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
