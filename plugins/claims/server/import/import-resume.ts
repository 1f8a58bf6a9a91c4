import { sql } from 'drizzle-orm';
import type { PlannedClaim } from './import-plan.js';
import { importRun, type ImportProblem } from './tables.js';

/**
 * Interrupted import runs (docs/claims-import.md, "An interrupted run"). The job writes a heartbeat
 * with every claim; a `running` run whose heartbeat is older than this was interrupted (its process
 * died: the queue does not retry imports). Two minutes is far above the time one claim takes and
 * short enough that nobody waits long to resume.
 */
export const INTERRUPTED_AFTER_SECONDS = 120;

/**
 * True for a run that is `running` without progress for INTERRUPTED_AFTER_SECONDS. Compared on the
 * database's clock, which also wrote the heartbeat, so servers with drifting clocks agree. A run
 * from before heartbeats falls back to when it started.
 */
export const interruptedSql = sql<boolean>`(${importRun.status} = 'running' and coalesce(${importRun.heartbeatAt}, ${importRun.startedAt}, ${importRun.createdAt}) < now() - make_interval(secs => ${INTERRUPTED_AFTER_SECONDS}))`;

/** An outcome row a run already has (import_run_claim). */
export interface RecordedOutcome {
  claimNumber: string;
  outcome: string;
  firstRow: number;
  exposures: number;
  entries: number;
  detail: string | null;
}

export interface RunCounts {
  processed: number;
  imported: number;
  skipped: number;
  failed: number;
  exposures: number;
  entries: number;
}

/** The run's counts as its outcome rows say: the same whether it ran at once or was resumed. */
export function countsOf(outcomes: Pick<RecordedOutcome, 'outcome' | 'exposures' | 'entries'>[]): RunCounts {
  const counts: RunCounts = { processed: 0, imported: 0, skipped: 0, failed: 0, exposures: 0, entries: 0 };
  for (const o of outcomes) {
    counts.processed++;
    if (o.outcome === 'imported') {
      counts.imported++;
      counts.exposures += o.exposures;
      counts.entries += o.entries;
    } else if (o.outcome === 'skipped') counts.skipped++;
    else counts.failed++;
  }
  return counts;
}

export interface ResumeState {
  /** The planned claims without an outcome for this run yet, in plan order. */
  pending: PlannedClaim[];
  counts: RunCounts;
  /** The run's problems as an uninterrupted run would have them so far. */
  problems: ImportProblem[];
}

/**
 * Where a run stands, from the plan of its file (made again now) and the outcomes it recorded
 * before it stopped. A claim with an outcome is not planned again. Its problems are taken from the
 * plan when the plan still finds them, else (a claim that failed when it was written) from the
 * outcome's detail, which is the message the uninterrupted run would have listed.
 */
export function resumeStateOf(
  plan: { claims: PlannedClaim[]; problems: ImportProblem[] },
  recorded: RecordedOutcome[],
): ResumeState {
  const done = new Map(recorded.map((o) => [o.claimNumber, o]));
  const problems = plan.problems.filter((p) => {
    if (p.claim_number === null) return true;
    // A claim done as imported or skipped had no problem then; the plan now sees it as imported.
    const outcome = done.get(p.claim_number)?.outcome;
    return outcome === undefined || outcome === 'failed';
  });
  for (const c of plan.claims) {
    const o = done.get(c.number);
    if (o?.outcome === 'failed' && c.outcome !== 'problem') {
      problems.push({ row: o.firstRow, column: null, claim_number: o.claimNumber, message: o.detail ?? 'Failed.' });
    }
  }
  return {
    pending: plan.claims.filter((c) => !done.has(c.number)),
    counts: countsOf(recorded),
    problems,
  };
}
