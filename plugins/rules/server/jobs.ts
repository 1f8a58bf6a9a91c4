import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { JobDefinition, Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { commitProject, deployCommit, testProject, validateProject } from './build.js';
import { syncWithLines } from './impact-routes.js';
import { clearRulesInForce } from './runtime.js';
import { findEffectiveDate, findProject } from './store.js';
import { exportProject, ImportRefused, importProject, readImportFile } from './transfer.js';
import { job, type JobKind, type JobResult } from './tables.js';

/**
 * Build jobs (validate, test, commit, deploy, sync, export, import) on the platform's job queue (pg-boss queue
 * `rules-build`, data `{ jobId }`). A job row answers `GET /api/rules/job/{id}/` in the spec's Job
 * shape while it runs: status NEW → IN_PROGRESS → COMPLETED, resultStatus SUCCESS or ERROR,
 * progress '0.00' … '100.00'.
 */
export const BUILD_QUEUE = 'rules-build';

export interface BuildParams {
  effectiveDateId?: number;
  componentId?: number;
  commitId?: number;
  message?: string;
  /** export */
  packageId?: number;
  includeDependencies?: boolean;
  /** import: the uploaded file's key, and the new project's name and label (default: the file's) */
  key?: string;
  name?: string;
  label?: string;
}

export async function enqueueBuild(
  db: Queryable,
  context: ServerPluginContext,
  kind: JobKind,
  projectId: number | null,
  params: BuildParams,
  username: string,
): Promise<string> {
  const id = randomUUID();
  await db.insert(job).values({ id, projectId, kind, params: { ...params }, createdBy: username });
  await context.jobs.send(BUILD_QUEUE, { jobId: id });
  return id;
}

export function jobView(row: typeof job.$inferSelect) {
  return {
    id: row.id,
    kind: row.kind,
    project: row.projectId,
    status: row.status,
    resultStatus: row.resultStatus,
    progress: row.progress,
    result: row.kind === 'test' ? (row.result?.tests ?? []) : (row.result ?? null),
    ...(row.kind === 'test' && row.result?.problems?.length ? { problems: row.result.problems } : {}),
    created_by: row.createdBy,
    date_added: row.createdAt.toISOString(),
    date_modified: row.updatedAt.toISOString(),
  };
}

/** Thrown inside a job's transaction when the job was cancelled meanwhile: the work is rolled back. */
class JobCancelled extends Error {}

/**
 * Cancels a job that has not finished (`POST rules/job/{id}/cancel/`): status CANCELLED, its
 * progress kept, `result.message` naming who cancelled. Answers the row, or null when the job had
 * already finished (or been cancelled). A running job notices at its next step: what it changes in
 * the database is rolled back (commit, deploy, import check under the job row's lock before their
 * transaction ends), an export's file is deleted, and it never overwrites the CANCELLED status.
 */
export async function cancelJob(db: Queryable, jobId: string, username: string) {
  const [row] = await db
    .update(job)
    .set({ status: 'CANCELLED', result: { message: `Cancelled by ${username}.` }, updatedAt: new Date() })
    .where(and(eq(job.id, jobId), sql`${job.status} in ('NEW', 'IN_PROGRESS')`))
    .returning();
  return row ?? null;
}

export async function runBuildJob(context: ServerPluginContext, jobId: string): Promise<void> {
  const db = context.db;
  // NEW → IN_PROGRESS only if nobody cancelled it while it waited in the queue.
  const [row] = await db
    .update(job)
    .set({ status: 'IN_PROGRESS', progress: '10.00', updatedAt: new Date() })
    .where(and(eq(job.id, jobId), eq(job.status, 'NEW')))
    .returning();
  if (!row) return;
  // Every later write is for a job still in progress: a cancel is never overwritten.
  const set = (values: Partial<typeof job.$inferInsert>, on: Queryable = db) =>
    on
      .update(job)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(job.id, jobId), eq(job.status, 'IN_PROGRESS')))
      .returning({ id: job.id });
  if (row.projectId === null && row.kind !== 'import') {
    await set({ status: 'COMPLETED', resultStatus: 'ERROR', progress: '100.00', result: { message: 'No project.' } });
    return;
  }
  /** Inside a transaction, before it commits: locks the job row; a cancelled job rolls the work back. */
  const stillWanted = async (tx: Queryable) => {
    const [current] = await tx.select({ status: job.status }).from(job).where(eq(job.id, jobId)).for('update');
    if (current?.status !== 'IN_PROGRESS') throw new JobCancelled();
  };
  const params = row.params as unknown as BuildParams;
  const lines = context.service(LINES_ONTOLOGY);
  let result: JobResult;
  let ok: boolean;
  /** Set by the transactional kinds: their final status is written in their own transaction. */
  let done = false;
  const finish = async (tx: Queryable, r: JobResult, success: boolean) => {
    await stillWanted(tx);
    await set({ status: 'COMPLETED', resultStatus: success ? 'SUCCESS' : 'ERROR', progress: '100.00', result: r }, tx);
    done = true;
  };
  try {
    switch (row.kind) {
      case 'validate': {
        const problems = await validateProject(db, lines, row.projectId!, params.effectiveDateId!);
        result = { problems };
        ok = problems.length === 0;
        break;
      }
      case 'test': {
        const { tests, problems } = await testProject(db, row.projectId!, params.effectiveDateId!, params.componentId);
        result = { tests, problems };
        ok = problems.length === 0 && tests.every((t) => t.testPassed);
        break;
      }
      case 'commit': {
        ({ ok, ...result } = await db.transaction(async (tx) => {
          const r = await commitProject(
            tx,
            lines,
            row.projectId!,
            params.effectiveDateId!,
            row.createdBy,
            params.message ?? '',
          );
          const { ok: success, ...rest } = r;
          await finish(tx, rest, success);
          return r;
        }));
        break;
      }
      case 'deploy': {
        ({ ok, ...result } = await db.transaction(async (tx) => {
          const r = await deployCommit(tx, row.projectId!, params.effectiveDateId!, params.commitId!, row.createdBy);
          const { ok: success, ...rest } = r;
          await finish(tx, rest, success);
          return r;
        }));
        break;
      }
      case 'sync': {
        const p = await findProject(db, row.projectId!);
        const report = await syncWithLines(db, lines, p, await findEffectiveDate(db, p.id, params.effectiveDateId!));
        result = report ?? { message: `Lines has no published version of '${p.product}' to check the rules against.` };
        ok = report?.count === 0;
        break;
      }
      case 'export': {
        result = await exportProject(db, context.storage, row.projectId!, {
          ...(params.packageId ? { packageId: params.packageId } : {}),
          includeDependencies: params.includeDependencies === true,
        });
        ok = true;
        break;
      }
      case 'import': {
        try {
          const file = await readImportFile(context.storage, params.key!);
          await set({ progress: '50.00' });
          result = await db.transaction(async (tx) => {
            const r = await importProject(tx, lines, file, {
              ...(params.name ? { name: params.name } : {}),
              ...(params.label ? { label: params.label } : {}),
              username: row.createdBy,
            });
            await set({ projectId: r.projectId! }, tx);
            await finish(tx, r, true);
            return r;
          });
          ok = true;
        } catch (error) {
          if (!(error instanceof ImportRefused)) throw error;
          result = { message: error.message };
          ok = false;
        }
        break;
      }
    }
  } catch (error) {
    if (error instanceof JobCancelled) return;
    context.log.error({ err: error, jobId }, 'rules build job failed');
    result = { message: `The ${row.kind} job failed: ${(error as Error).message}` };
    ok = false;
  }
  if (row.kind === 'deploy') clearRulesInForce(db);
  if (done) return;
  const [written] = await set({
    status: 'COMPLETED',
    resultStatus: ok ? 'SUCCESS' : 'ERROR',
    progress: '100.00',
    result,
  });
  // Cancelled while it ran: an export's file is not kept.
  if (!written && result.file) await context.storage.delete(result.file.key).catch(() => false);
}

export const buildJob: JobDefinition<{ jobId: string }> = {
  name: BUILD_QUEUE,
  // Someone waits for each build: poll often (the query is tiny).
  pollingIntervalSeconds: 1,
  retryLimit: 0,
  handler: (data, context) => runBuildJob(context, data.jobId),
};
