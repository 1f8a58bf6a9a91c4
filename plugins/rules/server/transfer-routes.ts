import { eq } from 'drizzle-orm';
import {
  ApiError,
  conflict,
  newObjectKey,
  notFound,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { cancelJob, enqueueBuild, jobView, type BuildParams } from './jobs.js';
import { can } from './permissions.js';
import { currentEffectiveDate, findEffectiveDate, findProject } from './store.js';
import { job, rulesPackage, type JobKind } from './tables.js';
import { EXPORT_PREFIX, IMPORT_MAX_BYTES, IMPORT_PREFIX } from './transfer.js';

/** Who may cancel a job: whoever may start that kind of job. */
const CANCEL_PERMISSION: Record<JobKind, ReturnType<typeof can>> = {
  validate: can('build', 'validate'),
  sync: can('build', 'validate'),
  test: can('build', 'test'),
  commit: can('build', 'commit'),
  deploy: can('build', 'deploy'),
  export: can('project', 'read'),
  import: can('project', 'create'),
};

const tags = ['rules'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const projectName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A name is letters, digits and underscores, starting with a letter.')
  .max(100);

/**
 * Sync with lines, export and import as jobs (docs/rules.md, "Sync, export and import"): each
 * answers 202 with the job in the spec's Job shape, followed at `GET rules/job/{id}/`.
 */
export function registerTransferRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const user = (request: { principal?: { username: string } | null }) => request.principal?.username ?? 'system';
  const start = async (kind: JobKind, projectId: number | null, params: BuildParams, username: string) => {
    const jobId = await enqueueBuild(db, context, kind, projectId, params, username);
    const [row] = await db.select().from(job).where(eq(job.id, jobId));
    return jobView(row!);
  };

  router.post(
    '/rules/projects/:id/sync/',
    {
      config: { access: can('build', 'validate') },
      schema: {
        summary:
          'Starts a sync-with-lines job: lists every rule of the effective date that no longer matches the lines product version in force.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({ effective_date_id: id.optional() }).optional(),
      },
    },
    async (request, reply) => {
      const p = await findProject(db, request.params.id);
      const dateId = request.body?.effective_date_id;
      const date = dateId ? await findEffectiveDate(db, p.id, dateId) : await currentEffectiveDate(db, p.id);
      reply.status(202);
      return start('sync', p.id, { effectiveDateId: date.id }, user(request));
    },
  );

  router.get(
    '/rules/projects/:id/async-export/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary:
          'Starts an export job: the project (or one package, with include-dependencies the packages it depends on) as a JSON file.',
        tags,
        security,
        params: z.object({ id }),
        querystring: z.strictObject({
          'include-dependencies': z.enum(['true', 'false']).optional(),
          package_id: id.optional(),
        }),
      },
    },
    async (request, reply) => {
      const p = await findProject(db, request.params.id);
      const packageId = request.query.package_id;
      if (packageId !== undefined) {
        const [pkg] = await db.select().from(rulesPackage).where(eq(rulesPackage.id, packageId));
        if (!pkg || pkg.projectId !== p.id) throw notFound(`Package ${packageId} of rules project ${p.id} not found.`);
      }
      reply.status(202);
      return start(
        'export',
        p.id,
        {
          ...(packageId !== undefined ? { packageId } : {}),
          includeDependencies: request.query['include-dependencies'] === 'true',
        },
        user(request),
      );
    },
  );

  router.get(
    '/rules/job/:id/file/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'The file an export job wrote (JSON, as an attachment). 404 while there is none.',
        tags,
        security,
        params: z.object({ id: z.string().uuid('A job id is a UUID.') }),
      },
    },
    async (request, reply) => {
      const [row] = await db.select().from(job).where(eq(job.id, request.params.id));
      const file = row?.kind === 'export' ? row.result?.file : undefined;
      if (!file || !file.key.startsWith(`${EXPORT_PREFIX}/`))
        throw notFound(`Job ${request.params.id} has no export file.`);
      const stored = await context.storage.get(file.key);
      if (!stored) throw notFound('The export file is missing from storage; export again.');
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-length', String(stored.size))
        .send(stored.body);
    },
  );

  router.get(
    '/rules/projects/import-ui-:uuid/import/presigned_post_url/',
    {
      config: { access: can('project', 'create') },
      schema: {
        summary:
          'A direct upload for an export file to import: POST the fields, then the file as `file`, to url (no Authorization header).',
        tags,
        security,
        params: z.object({ uuid: z.string().uuid('The import id is a UUID.') }),
      },
    },
    async () =>
      context.storage.createUploadTicket({
        key: newObjectKey(IMPORT_PREFIX),
        contentType: 'application/json',
        maxBytes: Math.min(IMPORT_MAX_BYTES, context.storage.maxUploadBytes),
      }),
  );

  router.post(
    '/rules/projects/async-import/',
    {
      config: { access: can('project', 'create') },
      schema: {
        summary:
          'Starts an import job: a new project (every effective date a draft) from an uploaded export file, by its key.',
        tags,
        security,
        body: z.strictObject({
          key: z.string().min(1).max(512),
          name: projectName.optional(),
          label: z.string().trim().min(1).max(200).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { key, name, label } = request.body;
      const missing = () =>
        new ApiError(400, 'The uploaded file was not found; upload it again.', {
          issues: [{ detail: 'The uploaded file was not found; upload it again.', source: { pointer: '/key' } }],
        });
      if (!key.startsWith(`${IMPORT_PREFIX}/`)) throw missing();
      if (!(await context.storage.head(key))) throw missing();
      reply.status(202);
      return start('import', null, { key, ...(name ? { name } : {}), ...(label ? { label } : {}) }, user(request));
    },
  );

  router.post(
    '/rules/job/:id/cancel/',
    {
      // Reading jobs first; then the permission that starts this kind of job (below).
      config: { access: can('project', 'read') },
      schema: {
        summary:
          'Cancels a job that is NEW or IN_PROGRESS: status CANCELLED; what it was changing is rolled back. 409 once it has finished.',
        tags,
        security,
        params: z.object({ id: z.string().uuid('A job id is a UUID.') }),
        body: z.strictObject({}).optional(),
      },
    },
    async (request) => {
      const [row] = await db.select().from(job).where(eq(job.id, request.params.id));
      if (!row) throw notFound(`Job ${request.params.id} not found.`);
      const evaluator = context.services.evaluator;
      const evaluation =
        evaluator && request.principal
          ? await evaluator.evaluate(request.principal, CANCEL_PERMISSION[row.kind])
          : { allowed: false, reason: 'no-evaluator' };
      if (!evaluation.allowed) throw new ApiError(403, undefined, { code: evaluation.reason ?? 'forbidden' });
      const cancelled = await cancelJob(db, row.id, user(request));
      if (!cancelled) {
        const [now] = await db.select().from(job).where(eq(job.id, row.id));
        throw conflict(
          `The ${row.kind} job has already ${now?.status === 'CANCELLED' ? 'been cancelled' : 'finished'}; it can no longer be cancelled.`,
          { code: 'job_finished' },
        );
      }
      return jobView(cancelled);
    },
  );
}
