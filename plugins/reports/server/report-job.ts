import { and, eq, inArray } from 'drizzle-orm';
import type { Database, JobDefinition, ServerPluginContext } from '@atrium/sdk/server';
import { ClaimsReportingRefused } from '@atrium/plugin-claims/reporting';
import { PolicyReportingRefused } from '@atrium/plugin-policies/reporting';
import { REPORT_FILTERS, type ReportId } from '../shared/report-definitions.js';
import { ReportTooLarge, buildReport } from './report-builders.js';
import { reportRun } from './tables.js';

/**
 * The report job (pg-boss queue `reports-run`, data `{ runId }`): takes a NEW run, computes it in
 * the scope of the principal who asked, writes progress as it goes and the result at the end. The
 * page polls the run with the SDK's job runner machine.
 */
export const REPORT_JOB = 'reports-run';

export const reportJob: JobDefinition<{ runId: number }> = {
  name: REPORT_JOB,
  // Someone waits for each run: poll often (the query is tiny).
  pollingIntervalSeconds: 1,
  retryLimit: 0,
  handler: (data, context) => runReport(context, data.runId),
};

const today = () => new Date().toISOString().slice(0, 10);

export async function runReport(context: ServerPluginContext, runId: number, db: Database = context.db): Promise<void> {
  const [run] = await db
    .update(reportRun)
    .set({ status: 'IN_PROGRESS', startedAt: new Date() })
    .where(and(eq(reportRun.id, runId), eq(reportRun.status, 'NEW')))
    .returning();
  if (!run) return;
  let last = 0;
  const progress = async (percent: number) => {
    const value = Math.min(99, Math.max(0, Math.floor(percent)));
    if (value <= last) return;
    last = value;
    await db
      .update(reportRun)
      .set({ progress: value.toFixed(2) })
      .where(and(eq(reportRun.id, runId), inArray(reportRun.status, ['IN_PROGRESS'])));
  };
  try {
    const report = run.report as ReportId;
    const filters = REPORT_FILTERS[report].parse(run.filters);
    const result = await buildReport(report, { context, principal: run.principal, progress, today: today() }, filters);
    await db
      .update(reportRun)
      .set({ status: 'SUCCESS', progress: '100.00', result, finishedAt: new Date() })
      .where(eq(reportRun.id, runId));
  } catch (error) {
    const known =
      error instanceof ReportTooLarge ||
      error instanceof ClaimsReportingRefused ||
      error instanceof PolicyReportingRefused;
    if (!known) context.log.error({ err: error, runId }, 'report run failed');
    await db
      .update(reportRun)
      .set({
        status: 'FAILED',
        error: known
          ? (error as Error).message
          : 'The report could not be computed. Try again, or ask your administrator.',
        finishedAt: new Date(),
      })
      .where(eq(reportRun.id, runId));
  }
}
