import { createHash } from 'node:crypto';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import {
  pageOfRows,
  ApiError,
  defineResource,
  JSONAPI_MEDIA_TYPE,
  pageQuerySchema,
  paginationLinks,
  readUploadedFile,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { CLAIMS_BASE, callerOf, numericId, security } from '../core/http-kit.js';
import { claimsPermission } from '../permissions.js';
import { capProblems, IMPORT_JOB, progressOf } from './import-job.js';
import { INTERRUPTED_AFTER_SECONDS, interruptedSql } from './import-resume.js';
import { ImportFileError, readImportFile, templateCsv } from './import-file.js';
import { claimsUsersAmong } from '../integrations/claims-users.js';
import { adjusterNamesOf, claimNumbersOf, planImport, type ImportPlan } from './import-plan.js';
import { loadReference } from './import-store.js';
import { importRun, importRunClaim } from './tables.js';

/**
 * Import Historical Claims (docs/claims-import.md), under /api/claims/imports/:
 *
 * - `GET template/` — the CSV template (header and example rows).
 * - `POST preview/` — upload (multipart/form-data, field `file`; or a text/csv body): the dry run.
 *   Reads and validates the file against Atrium and answers what an import would do, with every
 *   problem by row and column. Writes nothing.
 * - `POST /` — the same upload, confirmed: keeps the file's rows as an import run (`queued`) and
 *   enqueues the import job; 202 with the run. A file whose header cannot be used is a 400.
 * - `GET /`, `GET {id}/` — import runs (status, progress, counts, problems), newest first.
 * - `GET {id}/claims/` — each claim of a run: imported (with its claim id), skipped or failed.
 * - `POST {id}/resume/` — finishes an interrupted run (`interrupted: true`: running without progress
 *   for two minutes, its process died): 202 with the run; 409 for a run that is not interrupted.
 *
 * Permission `claims:import` (read / create); the system policies give it to administrators only.
 */
const tags = ['claims'];
const UPLOAD_LIMIT = 10 * 1024 * 1024;
/** Preview answers list at most this many claims and problems (the counts are always whole). */
const PREVIEW_LIST_LIMIT = 1000;

type RunRow = Omit<typeof importRun.$inferSelect, 'rows'> & { interrupted: boolean };
const { rows: _rows, ...tableColumns } = getTableColumns(importRun);
const runColumns = { ...tableColumns, interrupted: interruptedSql };

const runResource = defineResource<RunRow>({
  type: 'claims-import-run',
  id: (row) => String(row.id),
  attributes: (row) => ({
    file_name: row.fileName,
    file_sha256: row.fileSha256,
    format: row.format,
    status: row.status,
    interrupted: row.interrupted,
    progress: progressOf(row),
    created_by: row.createdBy,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    claims_total: row.claimsTotal,
    claims_processed: row.claimsProcessed,
    claims_imported: row.claimsImported,
    claims_skipped: row.claimsSkipped,
    claims_failed: row.claimsFailed,
    exposures_imported: row.exposuresImported,
    entries_imported: row.entriesImported,
    problems: row.problems,
    error: row.error,
  }),
});

const runClaimResource = defineResource<typeof importRunClaim.$inferSelect>({
  type: 'claims-import-claim',
  id: (row) => String(row.id),
  attributes: (row) => ({
    claim_number: row.claimNumber,
    outcome: row.outcome,
    claim_id: row.claimId,
    first_row: row.firstRow,
    exposures: row.exposures,
    entries: row.entries,
    detail: row.detail,
    at: row.at,
  }),
});

interface Upload {
  data: Buffer;
  fileName: string;
  contentType?: string;
}

async function uploadOf(body: unknown, contentType: string): Promise<Upload> {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new ApiError(400, "Attach the historical claims file in the form field 'file'.", {
      source: { parameter: 'file' },
      code: 'required',
    });
  }
  if (/^multipart\/form-data/i.test(contentType)) {
    const file = await readUploadedFile(body, contentType);
    if (!file || file.data.length === 0) {
      throw new ApiError(400, "Attach the historical claims file in the form field 'file'.", {
        source: { parameter: 'file' },
        code: 'required',
      });
    }
    return { data: file.data, fileName: file.filename || 'claims.csv', contentType: file.contentType };
  }
  return { data: body, fileName: 'claims.csv', contentType };
}

async function planUpload(context: ServerPluginContext, upload: Upload) {
  let read;
  try {
    read = await readImportFile(upload.data, { filename: upload.fileName, contentType: upload.contentType });
  } catch (error) {
    if (error instanceof ImportFileError) throw new ApiError(400, error.message, { source: { parameter: 'file' } });
    throw error;
  }
  const reference = await loadReference(
    context.db,
    claimNumbersOf(read.grid),
    await claimsUsersAmong(context, adjusterNamesOf(read.grid)),
  );
  const plan = planImport(read.grid, reference);
  const sha256 = createHash('sha256').update(upload.data).digest('hex');
  return { grid: read.grid, format: read.format, plan, sha256 };
}

function previewDocument(upload: Upload, format: string, sha256: string, plan: ImportPlan) {
  return {
    jsonapi: { version: '1.1' },
    data: {
      type: 'claims-import-preview',
      id: sha256,
      attributes: {
        file_name: upload.fileName,
        file_sha256: sha256,
        format,
        can_import: !plan.unreadable && plan.summary.claims_to_import > 0,
        ...plan.summary,
        problems_count: plan.problems.length,
        problems: plan.problems.slice(0, PREVIEW_LIST_LIMIT),
        claim_outcomes: plan.claims.slice(0, PREVIEW_LIST_LIMIT).map((c) => ({
          claim_number: c.number,
          first_row: c.firstRow,
          outcome: c.outcome,
          product: c.productName,
          status: c.status,
          exposures: c.exposures.length,
          entries: c.entries.length,
          problems: c.problems.length,
          detail: c.detail,
        })),
      },
    },
  };
}

export function registerImportRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const read = claimsPermission('import', 'read');
  const create = claimsPermission('import', 'create');

  router.get(
    '/imports/template/',
    {
      config: { access: read },
      schema: {
        summary: 'The historical claims import template: a CSV with the columns and example rows.',
        tags,
        security,
      },
    },
    async (_request, reply) => {
      reply.header('content-disposition', 'attachment; filename="historical-claims-template.csv"');
      return reply.type('text/csv; charset=utf-8').send(templateCsv());
    },
  );

  router.get(
    '/imports/',
    {
      config: { jsonapi: true, access: read },
      schema: {
        summary: 'Historical claims import runs, newest first.',
        tags,
        security,
        querystring: z.strictObject({ ...pageQuerySchema(50) }),
      },
    },
    async (request) => {
      const query = request.query as { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const [total] = await db.select({ n: count() }).from(importRun);
      const rows = await db
        .select(runColumns)
        .from(importRun)
        .orderBy(desc(importRun.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${CLAIMS_BASE}/imports/`, query, page, total?.n ?? 0);
      return serializeDocument(runResource, rows, { links, meta });
    },
  );

  router.get(
    '/imports/:id/',
    {
      config: { jsonapi: true, access: read },
      schema: {
        summary: 'One import run: status, progress, counts, problems.',
        tags,
        security,
        params: z.strictObject({ id: z.string() }),
      },
    },
    async (request) => {
      const id = numericId(request.params.id, `Import run ${request.params.id} not found.`);
      const [row] = await db.select(runColumns).from(importRun).where(eq(importRun.id, id));
      if (!row) throw new ApiError(404, `Import run ${id} not found.`);
      return serializeDocument(runResource, row);
    },
  );

  router.get(
    '/imports/:id/claims/',
    {
      config: { jsonapi: true, access: read },
      schema: {
        summary: "An import run's claims: imported (with the claim id), skipped or failed, in file order.",
        tags,
        security,
        params: z.strictObject({ id: z.string() }),
        querystring: z.strictObject({ ...pageQuerySchema(250) }),
      },
    },
    async (request) => {
      const id = numericId(request.params.id, `Import run ${request.params.id} not found.`);
      const [run] = await db.select({ id: importRun.id }).from(importRun).where(eq(importRun.id, id));
      if (!run) throw new ApiError(404, `Import run ${id} not found.`);
      const query = request.query as { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const where = eq(importRunClaim.runId, id);
      const { rows, links, meta } = await pageOfRows(db, importRunClaim, {
        where,
        orderBy: [importRunClaim.firstRow],
        page,
        path: `${CLAIMS_BASE}/imports/${id}/claims/`,
        query,
      });
      return serializeDocument(runClaimResource, rows, { links, meta });
    },
  );

  router.post(
    '/imports/:id/resume/',
    {
      config: { jsonapi: true, access: create },
      schema: {
        summary: 'Resumes an interrupted import run: queues its job again for the claims it has not done yet (202).',
        description: `A run is interrupted when it is running without progress for ${INTERRUPTED_AFTER_SECONDS} seconds (its process stopped). The claims it recorded stay as they are; the job imports the rest and the counts come out as an uninterrupted run's. 409 for a run that is not interrupted.`,
        tags,
        security,
        params: z.strictObject({ id: z.string() }),
      },
    },
    async (request, reply) => {
      const id = numericId(request.params.id, `Import run ${request.params.id} not found.`);
      // The resume takes the run over: a new attempt and a fresh heartbeat, only while interrupted,
      // so of two resumes at once one gets the run and the other a 409.
      const [taken] = await db
        .update(importRun)
        .set({ attempt: sql`${importRun.attempt} + 1`, heartbeatAt: sql`now()` })
        .where(and(eq(importRun.id, id), interruptedSql))
        .returning({ attempt: importRun.attempt });
      if (!taken) {
        const [row] = await db.select(runColumns).from(importRun).where(eq(importRun.id, id));
        if (!row) throw new ApiError(404, `Import run ${id} not found.`);
        throw new ApiError(409, notInterrupted(row), { code: 'not-interrupted', meta: { status: row.status } });
      }
      try {
        await context.jobs.send(
          IMPORT_JOB,
          { runId: id, attempt: taken.attempt },
          { singletonKey: `claims-import-${id}-attempt-${taken.attempt}` },
        );
      } catch (error) {
        request.log.error({ err: error, runId: id }, 'could not queue the resumed historical claims import');
        // Interrupted again at once, so the next resume need not wait for the heartbeat to age.
        await db
          .update(importRun)
          .set({ heartbeatAt: sql`now() - make_interval(secs => ${INTERRUPTED_AFTER_SECONDS + 1})` })
          .where(and(eq(importRun.id, id), eq(importRun.attempt, taken.attempt)));
        throw new ApiError(503, 'The import could not be queued; resume it again.');
      }
      const [row] = await db.select(runColumns).from(importRun).where(eq(importRun.id, id));
      request.log.info(
        { runId: id, attempt: taken.attempt, by: callerOf(request) },
        'historical claims import resumed',
      );
      return reply
        .code(202)
        .type(JSONAPI_MEDIA_TYPE)
        .header('location', `${CLAIMS_BASE}/imports/${id}/`)
        .send(await serializeDocument(runResource, row!));
    },
  );

  // Uploads: a child scope reads multipart/form-data and CSV/XLSX bodies whole, for these routes only.
  void router.register(async (scope) => {
    scope.addContentTypeParser(
      [
        'multipart/form-data',
        'text/csv',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/octet-stream',
      ],
      { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT },
      (_request, body, done) => done(null, body),
    );
    const uploads = scope as unknown as AtriumRouter;

    uploads.post(
      '/imports/preview/',
      {
        config: { access: create },
        schema: {
          summary: 'Dry run of a historical claims file: what an import would do and every problem. Writes nothing.',
          description:
            'multipart/form-data with the file (CSV or XLSX) in the field `file`, or the CSV as a text/csv body. Answers a JSON:API document of type claims-import-preview.',
          tags,
          security,
        },
      },
      async (request, reply) => {
        const upload = await uploadOf(request.body, String(request.headers['content-type'] ?? ''));
        const { plan, format, sha256 } = await planUpload(context, upload);
        return reply.type(JSONAPI_MEDIA_TYPE).send(previewDocument(upload, format, sha256, plan));
      },
    );

    uploads.post(
      '/imports/',
      {
        config: { access: create },
        schema: {
          summary: 'Imports a historical claims file: keeps it as an import run and queues the import job (202).',
          description:
            'The same upload as the preview. Claims with problems are left out and reported; claims imported before are skipped. A file whose header cannot be used is a 400 and nothing is kept.',
          tags,
          security,
        },
      },
      async (request, reply) => {
        const upload = await uploadOf(request.body, String(request.headers['content-type'] ?? ''));
        const { plan, grid, format, sha256 } = await planUpload(context, upload);
        if (plan.unreadable) {
          throw new ApiError(400, `The file cannot be imported: ${plan.fileProblems[0]!.message}`, {
            issues: plan.fileProblems.map((p) => ({
              detail: p.message,
              source: { parameter: 'file' },
              code: 'file',
            })),
            meta: { problems: plan.fileProblems },
          });
        }
        const [run] = await db
          .insert(importRun)
          .values({
            fileName: upload.fileName,
            fileSha256: sha256,
            format,
            rows: grid,
            status: 'queued',
            createdBy: callerOf(request),
            claimsTotal: plan.claims.length,
            problems: capProblems(plan.problems),
          })
          .returning();
        try {
          await context.jobs.send(IMPORT_JOB, { runId: run!.id }, { singletonKey: `claims-import-${run!.id}` });
        } catch (error) {
          request.log.error({ err: error, runId: run!.id }, 'could not queue the historical claims import');
          await db
            .update(importRun)
            .set({
              status: 'failed',
              finishedAt: new Date(),
              error: 'The import could not be queued; upload it again.',
            })
            .where(eq(importRun.id, run!.id));
          throw new ApiError(503, 'The import could not be queued; upload it again.');
        }
        const { rows: _kept, ...out } = run!;
        return reply
          .code(202)
          .type(JSONAPI_MEDIA_TYPE)
          .header('location', `${CLAIMS_BASE}/imports/${run!.id}/`)
          .send(await serializeDocument(runResource, { ...out, interrupted: false }));
      },
    );
  });
}

function notInterrupted(run: RunRow): string {
  if (run.status === 'running') {
    return `Import run ${run.id} is running and made progress in the last ${INTERRUPTED_AFTER_SECONDS / 60} minutes; only an interrupted run can be resumed.`;
  }
  if (run.status === 'queued') return `Import run ${run.id} is queued and will start by itself; it cannot be resumed.`;
  return `Import run ${run.id} is ${run.status}; only an interrupted run can be resumed.`;
}
