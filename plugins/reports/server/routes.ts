import { and, desc, eq } from 'drizzle-orm';
import { ApiError, notFound, z, type AtriumRouter, type Principal, type ServerPluginContext } from '@atrium/sdk/server';
import { CLAIMS_REPORTING, ClaimsReportingRefused } from '@atrium/plugin-claims/reporting';
import { POLICY_REPORTING, PolicyReportingRefused } from '@atrium/plugin-policies/reporting';
import type { FastifyRequest } from 'fastify';
import {
  REPORT_FILTERS,
  REPORT_IDS,
  reportTitle,
  type PaymentsJson,
  type ReportId,
  type ReportOptionsJson,
  type ReportRunJson,
} from '../shared/report-definitions.js';
import { can } from './permissions.js';
import { reportCsv, reportXlsx } from './report-files.js';
import { REPORT_JOB } from './report-job.js';
import { reportRun } from './tables.js';

const tags = ['reports'];
const security = [{ bearer: [] as string[] }];
const FORBIDDEN = 'This operation is not allowed. (Error code: 403)';

/** Which services a report needs the caller to be allowed to read (checked before the job is queued). */
const NEEDS: Record<ReportId, { claims: boolean; policies: boolean }> = {
  'claims-register': { claims: true, policies: false },
  'loss-run-policy': { claims: true, policies: false },
  'loss-run-period': { claims: true, policies: false },
  'reserves-payments': { claims: true, policies: false },
  premium: { claims: false, policies: true },
  'agent-production': { claims: true, policies: true },
  bordereaux: { claims: true, policies: true },
};

const refusedTo403 = (error: unknown): never => {
  if (error instanceof ClaimsReportingRefused || error instanceof PolicyReportingRefused)
    throw new ApiError(403, FORBIDDEN);
  throw error;
};

/** The principal as the job will act (plain JSON). */
const principalOf = (request: FastifyRequest): Principal => ({
  kind: request.principal.kind,
  subject: request.principal.subject,
  username: request.principal.username,
  effectiveRole: request.principal.effectiveRole,
  roles: [...request.principal.roles],
  attributes: { ...(request.principal.attributes ?? {}) },
});

type RunRow = typeof reportRun.$inferSelect;
const present = (row: RunRow, withResult: boolean): ReportRunJson => ({
  id: row.id,
  report: row.report as ReportId,
  title: reportTitle(row.report),
  filters: row.filters,
  status: row.status as ReportRunJson['status'],
  progress: Number(row.progress).toFixed(2),
  error: row.error,
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt?.toISOString() ?? null,
  result: withResult ? (row.result ?? null) : null,
});

const safeFileName = (text: string) =>
  text
    .replace(/:\s*/g, ' - ')
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .trim() || 'report';

/**
 * Reports under /api/reports (docs/reports.md): start a run (a job), poll it, read its result and
 * download it as CSV or XLSX; the options a report form offers; the agent portal's payments. A run
 * is its starter's: anyone else's is a 404 like a missing one.
 */
export function reportRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

  async function ownRun(request: FastifyRequest, id: number): Promise<RunRow> {
    const [row] = await db
      .select()
      .from(reportRun)
      .where(and(eq(reportRun.id, id), eq(reportRun.username, request.principal.username)))
      .limit(1);
    if (!row) throw notFound(`Report run ${id} not found.`);
    return row;
  }

  router.post(
    '/runs/',
    {
      config: { access: can('report', 'read') },
      schema: {
        summary: 'Starts a report run (a job); poll GET runs/{id}/ until its status is SUCCESS or FAILED.',
        tags,
        security,
        body: z.strictObject({
          report: z.enum(REPORT_IDS as [ReportId, ...ReportId[]], { error: 'Choose a report.' }),
          filters: z.record(z.string(), z.unknown()).default({}),
        }),
      },
    },
    async (request, reply) => {
      const { report } = request.body;
      const parsed = REPORT_FILTERS[report].safeParse(request.body.filters);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          detail: issue.message,
          source: { pointer: `/filters/${issue.path.join('/')}` },
        }));
        throw new ApiError(400, issues[0]!.detail, { source: issues[0]!.source, issues });
      }
      const principal = principalOf(request);
      const needs = NEEDS[report];
      // Refuse now what the job would refuse later: the caller may not read what the report covers.
      if (needs.claims) {
        await context.service(CLAIMS_REPORTING).countClaims(db, principal, { policyNumbers: [] }).catch(refusedTo403);
      }
      if (needs.policies) {
        await context
          .service(POLICY_REPORTING)
          .premium(db, principal, { from: '1900-01-01', to: '1900-01-01', policyNumbers: [] })
          .catch(refusedTo403);
      }
      const [row] = await db
        .insert(reportRun)
        .values({ report, filters: parsed.data as Record<string, unknown>, principal, username: principal.username })
        .returning();
      await context.jobs.send(REPORT_JOB, { runId: row!.id });
      return reply.status(202).send(present(row!, false));
    },
  );

  router.get(
    '/runs/',
    {
      config: { access: can('report', 'read') },
      schema: { summary: "The caller's latest report runs (without results).", tags, security },
    },
    async (request) => {
      const rows = await db
        .select()
        .from(reportRun)
        .where(eq(reportRun.username, request.principal.username))
        .orderBy(desc(reportRun.id))
        .limit(20);
      return { results: rows.map((row) => present(row, false)) };
    },
  );

  router.get(
    '/runs/:id/',
    {
      config: { access: can('report', 'read') },
      schema: {
        summary: 'A report run: status, progress and, once finished, its result.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => present(await ownRun(request, request.params.id), true),
  );

  router.get(
    '/runs/:id/export/',
    {
      config: { access: can('report', 'read') },
      schema: {
        summary: "Downloads a finished run's result as CSV (default) or XLSX.",
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({
          format: z.enum(['csv', 'xlsx'], { error: 'Choose CSV or XLSX.' }).default('csv'),
        }),
      },
    },
    async (request, reply) => {
      const run = await ownRun(request, request.params.id);
      if (run.status !== 'SUCCESS' || !run.result) throw new ApiError(409, 'The report has not finished yet.');
      const format = request.query.format;
      const name = `${safeFileName(run.result.title)}.${format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      reply.header('cache-control', 'no-store');
      if (format === 'xlsx') {
        return reply
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .send(await reportXlsx(run.result));
      }
      return reply.type('text/csv; charset=utf-8').send(reportCsv(run.result));
    },
  );

  /** Whether the caller may read claims, and policies (what each report needs, NEEDS above). */
  async function mayRead(principal: Principal) {
    const [claims, policies] = await Promise.all([
      context
        .service(CLAIMS_REPORTING)
        .countClaims(db, principal, { policyNumbers: [] })
        .then(
          () => true,
          (error: unknown) => (error instanceof ClaimsReportingRefused ? false : Promise.reject(error)),
        ),
      context
        .service(POLICY_REPORTING)
        .premium(db, principal, { from: '1900-01-01', to: '1900-01-01', policyNumbers: [] })
        .then(
          () => true,
          (error: unknown) => (error instanceof PolicyReportingRefused ? false : Promise.reject(error)),
        ),
    ]);
    return { claims, policies };
  }

  router.get(
    '/available/',
    {
      config: { access: can('report', 'read') },
      schema: {
        summary: 'The reports the caller may run (each needs claims read, policies read, or both).',
        tags,
        security,
      },
    },
    async (request) => {
      const may = await mayRead(principalOf(request));
      return {
        reports: REPORT_IDS.filter((id) => (!NEEDS[id].claims || may.claims) && (!NEEDS[id].policies || may.policies)),
      };
    },
  );

  router.get(
    '/options/',
    {
      config: { access: can('report', 'read') },
      schema: { summary: "What the report forms offer: the policies of the caller's scope.", tags, security },
    },
    async (request): Promise<ReportOptionsJson> => {
      const principal = principalOf(request);
      const [book, claimed] = await Promise.all([
        context
          .service(POLICY_REPORTING)
          .policies(db, principal)
          .catch((error: unknown) => (error instanceof PolicyReportingRefused ? [] : Promise.reject(error))),
        context
          .service(CLAIMS_REPORTING)
          .policyNumbers(db, principal)
          .catch((error: unknown) => (error instanceof ClaimsReportingRefused ? [] : Promise.reject(error))),
      ]);
      const policies = new Map<string, string>();
      for (const p of book) policies.set(p.policyNumber, `${p.policyNumber} · ${p.namedInsured} (${p.product})`);
      for (const number of claimed) if (!policies.has(number)) policies.set(number, number);
      return {
        policies: [...policies]
          .map(([number, label]) => ({ number, label }))
          .sort((a, b) => a.number.localeCompare(b.number)),
      };
    },
  );

  router.get(
    '/payments/',
    {
      config: { access: can('payment', 'read') },
      schema: {
        summary: "Invoices and payments received of the caller's policies (the agent portal's Payments).",
        tags,
        security,
      },
    },
    async (request): Promise<PaymentsJson> => {
      const billing = await context.service(POLICY_REPORTING).billing(db, principalOf(request), {}).catch(refusedTo403);
      return {
        invoices: billing.invoices.map((i) => ({
          policy_number: i.policyNumber,
          number: i.number,
          invoice_date: i.invoiceDate,
          due_date: i.dueDate,
          amount: i.amount,
          status: i.status,
          description: i.description,
        })),
        payments: billing.payments.map((p) => ({
          policy_number: p.policyNumber,
          invoice_number: p.invoiceNumber,
          received_on: p.receivedOn,
          amount: p.amount,
          method: p.method,
          reference: p.reference,
        })),
      };
    },
  );
}
