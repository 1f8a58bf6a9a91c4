import { and, asc, desc, eq, ne } from 'drizzle-orm';
import {
  ApiError,
  conflict,
  isUniqueViolation,
  notFound,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import {
  brlToFormula,
  BrlSyntaxError,
  compileBundle,
  formulaToBrl,
  printAction,
  printCondition,
  tryParseBrl,
  type Name,
  type RiskModel,
  type TemplateComponent,
} from '@atrium/rating/rules';
import { FormulaSyntaxError } from '@atrium/rating';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { ontologyFor } from './build.js';
import { enqueueBuild, jobView } from './jobs.js';
import { can } from './permissions.js';
import { clearRulesInForce, runDeployedRules } from './runtime.js';
import {
  componentsAt,
  currentEffectiveDate,
  effectiveDateOf,
  findEffectiveDate,
  findProject,
  treeOf,
  type LoadedComponent,
} from './store.js';
import {
  COMPONENT_STATES,
  COMPONENT_TYPES,
  EFFECTIVE_DATE_STATUSES,
  commit,
  component,
  componentVersion,
  deployment,
  effectiveDate,
  job,
  project,
  rulesPackage,
  type EffectiveDateStatus,
} from './tables.js';

/**
 * The /api/rules surface of slice (a) (docs/rules.md). Hand-written routes rather than declared
 * resources: components are versioned per effective date (one text per date), effective dates have
 * a status machine, and builds are jobs — none of them a plain table collection. Plain JSON with
 * the spec's snake_case names; lists answer `{ count, next, previous, results }`.
 */
const tags = ['rules'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.');
const componentName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A name is letters, digits and underscores, starting with a letter.')
  .max(100);
const folder = z
  .string()
  .trim()
  .regex(/^([A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*)?$/, 'A folder is names separated by /.')
  .max(200);
const tagSchema = z.strictObject({
  category: z.string().trim().min(1).max(100),
  value: z.string().trim().min(1).max(200),
  priority: z.number().int().default(0),
});

const nameText = (n: Name) => (typeof n === 'string' ? n : `{{${n.param}}}`);

export const list = <T>(results: T[]) => ({ count: results.length, next: null, previous: null, results });

export async function unique<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`${what} already exists.`);
    throw error;
  }
}

type DateRow = typeof effectiveDate.$inferSelect;
const dateView = (d: DateRow) => ({
  id: d.id,
  name: d.name,
  project: d.projectId,
  effective_date: d.effectiveDate,
  description: d.description,
  status: d.status,
  date_added: d.dateAdded.toISOString(),
  date_modified: d.dateModified.toISOString(),
});

export const componentView = (c: LoadedComponent, withBody = true) => ({
  id: c.id,
  name: c.name,
  label: c.label,
  folder: c.folder,
  component_type: c.componentType,
  package: c.packageId,
  package_name: c.packageName,
  full_name: c.fullName,
  tags: c.tags,
  state: c.state,
  effective_date: c.effectiveDateId,
  uncommitted: c.committedHash !== c.hash,
  date_modified: c.updatedAt.toISOString(),
  modified_by: c.updatedBy,
  ...(withBody ? { body: c.body, tree: c.tree } : {}),
});

export async function projectView(db: Queryable, p: typeof project.$inferSelect) {
  const dates = await db
    .select()
    .from(effectiveDate)
    .where(eq(effectiveDate.projectId, p.id))
    .orderBy(asc(effectiveDate.effectiveDate));
  return {
    id: p.id,
    name: p.name,
    label: p.label,
    product: p.product,
    description: p.description,
    effective_dates: dates.filter((d) => d.status !== 'archived').map(dateView),
  };
}

/** A component with its project, and its version on the named (or current) effective date. */
export async function loadComponent(db: Queryable, componentId: number, effectiveDateId?: number) {
  const [row] = await db
    .select({ projectId: rulesPackage.projectId })
    .from(component)
    .innerJoin(rulesPackage, eq(rulesPackage.id, component.packageId))
    .where(eq(component.id, componentId));
  if (!row) throw notFound(`Component ${componentId} not found.`);
  const date = await effectiveDateOf(db, row.projectId, effectiveDateId);
  const found = (await componentsAt(db, row.projectId, date.id)).find((c) => c.id === componentId);
  if (!found) throw notFound(`Component ${componentId} has no version on effective date ${date.effectiveDate}.`);
  return { component: found, date, projectId: row.projectId };
}

export function assertDraft(date: DateRow): void {
  if (date.status !== 'draft') {
    throw conflict(`Effective date ${date.effectiveDate} is ${date.status}; only a draft effective date changes.`);
  }
}

const TRANSITIONS: Record<EffectiveDateStatus, EffectiveDateStatus[]> = {
  draft: ['published', 'archived'],
  published: ['archived'],
  archived: ['draft'],
};

export const riskSchema: z.ZodType<RiskModel> = z.lazy(() =>
  z.looseObject({
    id: z.union([z.string().max(100), z.number()]).optional(),
    type: z.union([z.string().min(1).max(100), z.looseObject({ name: z.string().min(1).max(100) })]),
    field_answers: z.record(z.string(), z.unknown()).optional(),
    answers: z.record(z.string(), z.unknown()).optional(),
    items: z
      .array(z.looseObject({ name: z.string().max(100) }))
      .max(200)
      .optional(),
    children: z.array(riskSchema).max(500).optional(),
    risk_quotes: z.array(riskSchema).max(500).optional(),
  }),
) as z.ZodType<RiskModel>;

export function registerRulesRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const lines = () => context.service(LINES_ONTOLOGY);
  const user = (request: { principal?: { username: string } | null }) => request.principal?.username ?? 'system';

  // ---------------------------------------------------------------- projects
  router.get(
    '/rules/projects/',
    { config: { access: can('project', 'read') }, schema: { summary: 'Lists rules projects.', tags, security } },
    async () => {
      const rows = await db.select().from(project).orderBy(asc(project.name));
      return list(await Promise.all(rows.map((p) => projectView(db, p))));
    },
  );

  router.post(
    '/rules/projects/',
    {
      config: { access: can('project', 'create') },
      schema: {
        summary: 'Creates a rules project for a lines product, with a package and a first draft effective date.',
        tags,
        security,
        body: z.strictObject({
          name: componentName,
          label: z.string().trim().min(1).max(200),
          product: z.string().trim().min(1).max(100),
          description: z.string().max(2000).default(''),
          effective_date: day,
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const products = await lines().products(db);
      if (!products.some((p) => p.name === body.product)) {
        throw new ApiError(400, `'${body.product}' is not a lines product.`, {
          issues: [{ detail: `'${body.product}' is not a lines product.`, source: { pointer: '/product' } }],
        });
      }
      const created = await unique(`A rules project named '${body.name}'`, () =>
        db.transaction(async (tx) => {
          const [p] = await tx
            .insert(project)
            .values({ name: body.name, label: body.label, product: body.product, description: body.description })
            .returning();
          await tx.insert(rulesPackage).values({ projectId: p!.id, name: body.name });
          await tx
            .insert(effectiveDate)
            .values({ projectId: p!.id, name: body.effective_date, effectiveDate: body.effective_date });
          return p!;
        }),
      );
      reply.status(201);
      return projectView(db, created);
    },
  );

  router.get(
    '/rules/projects/:id/',
    {
      config: { access: can('project', 'read') },
      schema: { summary: 'Reads a rules project with its effective dates.', tags, security, params: z.object({ id }) },
    },
    async (request) => projectView(db, await findProject(db, request.params.id)),
  );

  router.delete(
    '/rules/projects/:id/',
    {
      config: { access: can('project', 'delete') },
      schema: { summary: 'Deletes a rules project and everything in it.', tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      await findProject(db, request.params.id);
      await db.delete(project).where(eq(project.id, request.params.id));
      clearRulesInForce(db);
      reply.status(204);
    },
  );

  // ---------------------------------------------------------------- effective dates
  const dateParams = z.object({ id, dateId: id });
  router.get(
    '/rules/projects/:id/effective-dates/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: "Lists a project's effective dates; state=archived lists the archived ones.",
        tags,
        security,
        params: z.object({ id }),
        querystring: z.object({ state: z.enum(['archived']).optional() }),
      },
    },
    async (request) => {
      await findProject(db, request.params.id);
      const rows = await db
        .select()
        .from(effectiveDate)
        .where(
          and(
            eq(effectiveDate.projectId, request.params.id),
            request.query.state === 'archived'
              ? eq(effectiveDate.status, 'archived')
              : ne(effectiveDate.status, 'archived'),
          ),
        )
        .orderBy(asc(effectiveDate.effectiveDate));
      return list(rows.map(dateView));
    },
  );

  router.post(
    '/rules/projects/:id/effective-dates/',
    {
      config: { access: can('project', 'create') },
      schema: {
        summary: 'Creates a draft effective date; its components start as copies of the latest earlier date.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          effective_date: day,
          name: z.string().trim().min(1).max(200).optional(),
          description: z.string().max(2000).default(''),
        }),
      },
    },
    async (request, reply) => {
      const { effective_date: when, name, description } = request.body;
      await findProject(db, request.params.id);
      const created = await unique(`An effective date ${when} of this project`, () =>
        db.transaction(async (tx) => {
          const existing = await tx
            .select()
            .from(effectiveDate)
            .where(eq(effectiveDate.projectId, request.params.id))
            .orderBy(asc(effectiveDate.effectiveDate));
          const source = existing.filter((d) => d.effectiveDate < when).pop() ?? existing[existing.length - 1];
          const [d] = await tx
            .insert(effectiveDate)
            .values({ projectId: request.params.id, name: name ?? when, effectiveDate: when, description })
            .returning();
          if (source) {
            const versions = await tx
              .select()
              .from(componentVersion)
              .where(eq(componentVersion.effectiveDateId, source.id));
            if (versions.length > 0) {
              await tx.insert(componentVersion).values(
                versions.map((v) => ({
                  componentId: v.componentId,
                  effectiveDateId: d!.id,
                  body: v.body,
                  tree: v.tree,
                  state: v.state,
                  // Unchanged from what was committed on the source date.
                  committedHash: v.committedHash,
                  updatedBy: user(request),
                })),
              );
            }
          }
          return d!;
        }),
      );
      reply.status(201);
      return dateView(created);
    },
  );

  router.put(
    '/rules/projects/:id/effective-dates/:dateId/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: "Changes an effective date's name, description or (drafts only) date.",
        tags,
        security,
        params: dateParams,
        body: z.strictObject({
          name: z.string().trim().min(1).max(200).optional(),
          description: z.string().max(2000).optional(),
          effective_date: day.optional(),
        }),
      },
    },
    async (request) => {
      const date = await findEffectiveDate(db, request.params.id, request.params.dateId);
      const body = request.body;
      if (body.effective_date !== undefined && body.effective_date !== date.effectiveDate) assertDraft(date);
      const [row] = await unique(`An effective date ${body.effective_date} of this project`, () =>
        db
          .update(effectiveDate)
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.effective_date !== undefined ? { effectiveDate: body.effective_date } : {}),
            dateModified: new Date(),
          })
          .where(eq(effectiveDate.id, date.id))
          .returning(),
      );
      return dateView(row!);
    },
  );

  router.put(
    '/rules/projects/:id/effective-dates/:dateId/:status/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: 'Moves an effective date to a status: draft → published (needs a deployment) → archived → draft.',
        tags,
        security,
        params: z.object({ id, dateId: id, status: z.enum(EFFECTIVE_DATE_STATUSES) }),
      },
    },
    async (request) => {
      const date = await findEffectiveDate(db, request.params.id, request.params.dateId);
      const to = request.params.status;
      if (to === date.status) return dateView(date);
      if (!TRANSITIONS[date.status].includes(to)) {
        throw conflict(`An effective date that is ${date.status} cannot become ${to}.`);
      }
      if (to === 'published') {
        const [d] = await db
          .select({ id: deployment.id })
          .from(deployment)
          .where(eq(deployment.effectiveDateId, date.id))
          .limit(1);
        if (!d)
          throw conflict(
            `Effective date ${date.effectiveDate} has no deployment; deploy a commit before publishing it.`,
          );
      }
      const [row] = await db
        .update(effectiveDate)
        .set({ status: to, dateModified: new Date() })
        .where(eq(effectiveDate.id, date.id))
        .returning();
      clearRulesInForce(db);
      return dateView(row!);
    },
  );

  router.get(
    '/rules/projects/:id/effective-dates/:dateId/components/',
    {
      config: { access: can('component', 'read') },
      schema: { summary: 'Lists the components of one effective date.', tags, security, params: dateParams },
    },
    async (request) => {
      const date = await findEffectiveDate(db, request.params.id, request.params.dateId);
      return list((await componentsAt(db, request.params.id, date.id)).map((c) => componentView(c, false)));
    },
  );

  router.get(
    '/rules/projects/:id/uncommittedcomponents/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'Lists the components changed since the last commit of the effective date (default: the current one).',
        tags,
        security,
        params: z.object({ id }),
        querystring: z.object({ effective_date_id: id.optional() }),
      },
    },
    async (request) => {
      await findProject(db, request.params.id);
      const date = await effectiveDateOf(db, request.params.id, request.query.effective_date_id);
      const components = await componentsAt(db, request.params.id, date.id);
      return list(components.filter((c) => c.committedHash !== c.hash).map((c) => componentView(c, false)));
    },
  );

  router.get(
    '/rules/projects/:id/components/:cid/effective-dates/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'The effective dates a component has a version on.',
        tags,
        security,
        params: z.object({ id, cid: id }),
      },
    },
    async (request) => {
      await findProject(db, request.params.id);
      const rows = await db
        .select({ d: effectiveDate, state: componentVersion.state })
        .from(componentVersion)
        .innerJoin(effectiveDate, eq(effectiveDate.id, componentVersion.effectiveDateId))
        .where(
          and(eq(componentVersion.componentId, request.params.cid), eq(effectiveDate.projectId, request.params.id)),
        )
        .orderBy(asc(effectiveDate.effectiveDate));
      return list(rows.map((r) => ({ ...dateView(r.d), component_state: r.state })));
    },
  );

  // ---------------------------------------------------------------- builds and jobs
  const started = async (jobId: string) => {
    const [row] = await db.select().from(job).where(eq(job.id, jobId));
    return jobView(row!);
  };

  router.post(
    '/rules/projects/:id/build/validate/',
    {
      config: { access: can('build', 'validate') },
      schema: {
        summary: 'Starts a validate job: parse, round trip and type check against the product version in force.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({ effective_date_id: id.optional() }).optional(),
      },
    },
    async (request, reply) => {
      await findProject(db, request.params.id);
      const date = await effectiveDateOf(db, request.params.id, request.body?.effective_date_id);
      const jobId = await enqueueBuild(
        db,
        context,
        'validate',
        request.params.id,
        { effectiveDateId: date.id },
        user(request),
      );
      reply.status(202);
      return started(jobId);
    },
  );

  router.post(
    '/rules/projects/:id/build/async-test/',
    {
      config: { access: can('build', 'test') },
      schema: {
        summary: "Starts a test job running the project's rule tests (or one test component).",
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({ component_id: id.optional(), effective_date_id: id.optional() }).optional(),
      },
    },
    async (request, reply) => {
      await findProject(db, request.params.id);
      const date = await effectiveDateOf(db, request.params.id, request.body?.effective_date_id);
      const componentId = request.body?.component_id;
      const jobId = await enqueueBuild(
        db,
        context,
        'test',
        request.params.id,
        { effectiveDateId: date.id, ...(componentId ? { componentId } : {}) },
        user(request),
      );
      reply.status(202);
      return started(jobId);
    },
  );

  router.post(
    '/rules/projects/:id/build/async-commit/:x/',
    {
      config: { access: can('build', 'commit') },
      schema: {
        summary:
          'Starts a commit job for effective date x: refused unless it validates; stores a hashed snapshot and diff.',
        tags,
        security,
        params: z.object({ id, x: id }),
        body: z.strictObject({ message: z.string().max(2000).optional() }).optional(),
      },
    },
    async (request, reply) => {
      const date = await findEffectiveDate(db, request.params.id, request.params.x);
      assertDraft(date);
      const jobId = await enqueueBuild(
        db,
        context,
        'commit',
        request.params.id,
        { effectiveDateId: date.id, message: request.body?.message ?? '' },
        user(request),
      );
      reply.status(202);
      return started(jobId);
    },
  );

  router.post(
    '/rules/projects/:id/build/async-deploy/:x/:y/',
    {
      config: { access: can('build', 'deploy') },
      schema: {
        summary: 'Starts a deploy job: freezes the compiled bundle of commit y for effective date x.',
        tags,
        security,
        params: z.object({ id, x: id, y: id }),
      },
    },
    async (request, reply) => {
      const date = await findEffectiveDate(db, request.params.id, request.params.x);
      const jobId = await enqueueBuild(
        db,
        context,
        'deploy',
        request.params.id,
        { effectiveDateId: date.id, commitId: request.params.y },
        user(request),
      );
      reply.status(202);
      return started(jobId);
    },
  );

  router.get(
    '/rules/job/:id/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'A build job in the Job shape (status, resultStatus, result, progress).',
        tags,
        security,
        params: z.object({ id: z.string().uuid('A job id is a UUID.') }),
      },
    },
    async (request) => {
      const [row] = await db.select().from(job).where(eq(job.id, request.params.id));
      if (!row) throw notFound(`Job ${request.params.id} not found.`);
      return jobView(row);
    },
  );

  // ---------------------------------------------------------------- packages
  const packageView = (p: typeof rulesPackage.$inferSelect) => ({ id: p.id, name: p.name, project: p.projectId });
  router.get(
    '/rules/package/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'Lists packages (of one project with project_id).',
        tags,
        security,
        querystring: z.object({ project_id: id.optional() }),
      },
    },
    async (request) => {
      const rows = await db
        .select()
        .from(rulesPackage)
        .where(request.query.project_id ? eq(rulesPackage.projectId, request.query.project_id) : undefined)
        .orderBy(asc(rulesPackage.name));
      return list(rows.map(packageView));
    },
  );
  const findPackage = async (packageId: number) => {
    const [p] = await db.select().from(rulesPackage).where(eq(rulesPackage.id, packageId));
    if (!p) throw notFound(`Package ${packageId} not found.`);
    return p;
  };
  router.get(
    '/rules/package/:id/',
    {
      config: { access: can('project', 'read') },
      schema: { summary: 'Reads a package.', tags, security, params: z.object({ id }) },
    },
    async (request) => packageView(await findPackage(request.params.id)),
  );
  router.get(
    '/rules/package/:id/summary/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: "Counts a package's components by type on the current effective date.",
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const p = await findPackage(request.params.id);
      const date = await currentEffectiveDate(db, p.projectId);
      const components = (await componentsAt(db, p.projectId, date.id)).filter((c) => c.packageId === p.id);
      const byType: Record<string, number> = {};
      for (const c of components) byType[c.componentType] = (byType[c.componentType] ?? 0) + 1;
      return {
        ...packageView(p),
        effective_date: date.id,
        components: components.length,
        by_type: byType,
        uncommitted: components.filter((c) => c.committedHash !== c.hash).length,
      };
    },
  );

  // ---------------------------------------------------------------- components
  const componentBody = z.strictObject({
    package_id: id,
    name: componentName,
    label: z.string().trim().max(200).default(''),
    folder: folder.default(''),
    component_type: z.enum(COMPONENT_TYPES),
    body: z.string().max(200_000),
    tags: z.array(tagSchema).max(50).default([]),
    state: z.enum(COMPONENT_STATES).default('enabled'),
  });
  const createComponent = async (request: {
    body: z.infer<typeof componentBody>;
    params: { date?: number };
    principal?: { username: string } | null;
  }) => {
    const body = request.body;
    const p = await findPackage(body.package_id);
    const date = await effectiveDateOf(db, p.projectId, request.params.date);
    assertDraft(date);
    const created = await unique(`A component named '${body.name}' in this package`, () =>
      db.transaction(async (tx) => {
        const [c] = await tx
          .insert(component)
          .values({
            packageId: p.id,
            name: body.name,
            label: body.label,
            folder: body.folder,
            componentType: body.component_type,
            tags: body.tags,
          })
          .returning({ id: component.id });
        await tx.insert(componentVersion).values({
          componentId: c!.id,
          effectiveDateId: date.id,
          body: body.body,
          tree: treeOf(body.component_type, body.body),
          state: body.state,
          updatedBy: user(request),
        });
        return c!.id;
      }),
    );
    return componentView((await loadComponent(db, created, date.id)).component);
  };
  router.post(
    '/rules/brl-components/',
    {
      config: { access: can('component', 'create') },
      schema: {
        summary: 'Creates a component on the current draft effective date.',
        tags,
        security,
        body: componentBody,
      },
    },
    async (request, reply) => {
      const view = await createComponent({ body: request.body, params: {}, principal: request.principal });
      reply.status(201);
      return view;
    },
  );
  router.post(
    '/rules/brl-components/effective-date/:date/',
    {
      config: { access: can('component', 'create') },
      schema: {
        summary: 'Creates a component on a draft effective date.',
        tags,
        security,
        params: z.object({ date: id }),
        body: componentBody,
      },
    },
    async (request, reply) => {
      const view = await createComponent({ body: request.body, params: request.params, principal: request.principal });
      reply.status(201);
      return view;
    },
  );

  router.get(
    '/rules/brl-components/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'Lists components (current effective date), filtered by tags=category.value and package-id.',
        tags,
        security,
        querystring: z.object({
          tags: z
            .string()
            .regex(/^[^.]+\.[^.]+$/, 'tags is category.value')
            .optional(),
          'package-id': id.optional(),
          project_id: id.optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const projectIds = q['package-id']
        ? [(await findPackage(q['package-id'])).projectId]
        : q.project_id
          ? [q.project_id]
          : (await db.select({ id: project.id }).from(project)).map((p) => p.id);
      const [category, value] = q.tags ? q.tags.split('.') : [];
      const out: LoadedComponent[] = [];
      for (const projectId of projectIds) {
        const date = await currentEffectiveDate(db, projectId).catch(() => null);
        if (!date) continue;
        for (const c of await componentsAt(db, projectId, date.id)) {
          if (q['package-id'] && c.packageId !== q['package-id']) continue;
          if (category && !c.tags.some((t) => t.category === category && t.value === value)) continue;
          out.push(c);
        }
      }
      return list(out.map((c) => componentView(c, false)));
    },
  );

  /** The component a full name (`package.folder.name`) names, on its current or the named date. */
  const byFullName = async (name: string, projectId?: number, effectiveDateId?: number) => {
    const parts = name.split('.');
    const rows = await db
      .select({ id: component.id, projectId: rulesPackage.projectId })
      .from(component)
      .innerJoin(rulesPackage, eq(rulesPackage.id, component.packageId))
      .where(
        and(
          eq(rulesPackage.name, parts[0]!),
          eq(component.name, parts[parts.length - 1]!),
          eq(component.folder, parts.slice(1, -1).join('/')),
          projectId ? eq(rulesPackage.projectId, projectId) : undefined,
        ),
      );
    if (rows.length === 0) throw notFound(`Component ${name} not found.`);
    return loadComponent(db, rows[0]!.id, effectiveDateId);
  };

  router.get(
    '/rules/brl-components/by-full-name/:name/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'Finds a component by full name (package.folder.name) on its current effective date.',
        tags,
        security,
        params: z.object({ name: z.string().min(1).max(400) }),
        querystring: z.object({ project_id: id.optional() }),
      },
    },
    async (request) => componentView((await byFullName(request.params.name, request.query.project_id)).component),
  );

  router.get(
    '/rules/brl-components/:name/structure/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary:
          "A rule or template's structure by full name: its header, When / Then / Otherwise lines and template arguments (name, label, documentation, type, input-type, default, value).",
        tags,
        security,
        params: z.object({
          name: z
            .string()
            .min(1)
            .max(400)
            .regex(
              /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)+$/,
              'Name a component by its full name, package.folder.name.',
            ),
        }),
        querystring: z.strictObject({ project_id: id.optional(), effective_date_id: id.optional() }),
      },
    },
    async (request) => {
      const {
        component: c,
        date,
        projectId,
      } = await byFullName(request.params.name, request.query.project_id, request.query.effective_date_id);
      const tree = c.tree;
      if (!tree)
        throw new ApiError(
          400,
          `Component ${c.fullName} has no structure (it is not a rule or a template, or it does not parse).`,
          { code: 'no_structure' },
        );
      let template: TemplateComponent | undefined;
      if (tree.kind === 'use') {
        const found = (await componentsAt(db, projectId, date.id)).find(
          (x) => x.tree?.kind === 'template' && x.tree.name === tree.template,
        );
        template = found?.tree as TemplateComponent | undefined;
      } else if (tree.kind === 'template') template = tree;
      const argumentsOf = (values: Record<string, unknown>) =>
        (template?.parameters ?? []).map((p) => ({
          name: p.name,
          label: p.label ?? null,
          documentation: p.documentation ?? null,
          type: p.type,
          'input-type': p.inputType ?? null,
          default: p.default ?? null,
          value: values[p.name] ?? null,
        }));
      const body = tree.kind === 'use' ? template : tree;
      return {
        id: c.id,
        full_name: c.fullName,
        component_type: c.componentType,
        effective_date: date.id,
        structure: {
          kind: tree.kind,
          name: tree.name,
          label: tree.label ?? null,
          template: tree.kind === 'use' ? tree.template : null,
          // A use whose template is not on this date has no body to show, only its values.
          template_found: tree.kind === 'use' ? template !== undefined : null,
          category: body?.category ?? null,
          applies_to: body ? nameText(body.appliesTo) : null,
          priority: tree.kind === 'use' ? (tree.priority ?? template?.priority ?? 0) : tree.priority,
          when: (body?.when ?? []).map((x) => ({ tool: x.tool, text: printCondition(x) })),
          then: (body?.then ?? []).map((x) => ({ action: x.action, text: printAction(x) })),
          otherwise: (body?.otherwise ?? []).map((x) => ({ action: x.action, text: printAction(x) })),
          arguments:
            tree.kind === 'use'
              ? [
                  ...argumentsOf(tree.values),
                  // Values the template has no parameter for (validate reports them) are still shown.
                  ...Object.entries(tree.values)
                    .filter(([k]) => !template?.parameters.some((p) => p.name === k))
                    .map(([name, value]) => ({
                      name,
                      label: null,
                      documentation: null,
                      type: null,
                      'input-type': null,
                      default: null,
                      value,
                    })),
                ]
              : argumentsOf({}),
        },
      };
    },
  );

  const oneParams = z.object({ id });
  const datedParams = z.object({ id, date: id });
  const get = async (request: { params: { id: number; date?: number } }) =>
    componentView((await loadComponent(db, request.params.id, request.params.date)).component);
  for (const [path, params] of [
    ['/rules/brl-components/:id/', oneParams],
    ['/rules/brl-components/:id/effective-date/:date/', datedParams],
  ] as const) {
    router.get(
      path,
      {
        config: { access: can('component', 'read') },
        schema: {
          summary: 'Reads a component with its text and tree (current or named effective date).',
          tags,
          security,
          params,
        },
      },
      get,
    );
    router.get(
      `${path}compiled/`,
      {
        config: { access: can('component', 'read') },
        schema: { summary: 'The compiled tree of a rule (templates applied).', tags, security, params },
      },
      async (request) => {
        const {
          component: c,
          projectId,
          date,
        } = await loadComponent(db, request.params.id, (request.params as { date?: number }).date);
        if (!c.tree)
          throw new ApiError(
            400,
            `Component ${c.fullName} has no compiled form (it is not a rule, or it does not parse).`,
            { code: 'not_compiled' },
          );
        if (c.tree.kind !== 'use') return { id: c.id, full_name: c.fullName, compiled: c.tree };
        const trees = (await componentsAt(db, projectId, date.id)).map((x) => x.tree).filter((t) => t !== null);
        try {
          const bundle = compileBundle(trees.filter((t) => t.kind === 'template' || t === c.tree));
          return { id: c.id, full_name: c.fullName, compiled: bundle.rules[0] };
        } catch (error) {
          throw new ApiError(400, (error as Error).message, { code: 'not_compiled' });
        }
      },
    );
    router.get(
      `${path}committed/`,
      {
        config: { access: can('component', 'read') },
        schema: {
          summary:
            "The component's text as last committed (for the editor's diff of uncommitted changes); body null when it was never committed.",
          tags,
          security,
          params,
        },
      },
      async (request) => {
        const { component: c, projectId } = await loadComponent(
          db,
          request.params.id,
          (request.params as { date?: number }).date,
        );
        let body: string | null = null;
        if (c.committedHash !== null) {
          // Equal hashes are equal texts and states: any commit of the project holding it will do.
          const commits = await db
            .select({ snapshot: commit.snapshot })
            .from(commit)
            .where(eq(commit.projectId, projectId))
            .orderBy(desc(commit.id));
          for (const row of commits) {
            const entry = row.snapshot.find((e) => e.hash === c.committedHash);
            if (entry) {
              body = entry.body;
              break;
            }
          }
        }
        return {
          id: c.id,
          full_name: c.fullName,
          effective_date: c.effectiveDateId,
          uncommitted: c.committedHash !== c.hash,
          body,
        };
      },
    );
    router.put(
      path,
      {
        config: { access: can('component', 'update') },
        schema: {
          summary: "Changes a component's text (on a draft effective date), label, folder, name or tags.",
          tags,
          security,
          params,
          body: z.strictObject({
            body: z.string().max(200_000).optional(),
            label: z.string().trim().max(200).optional(),
            folder: folder.optional(),
            name: componentName.optional(),
            tags: z.array(tagSchema).max(50).optional(),
          }),
        },
      },
      async (request) => {
        const { component: c, date } = await loadComponent(
          db,
          request.params.id,
          (request.params as { date?: number }).date,
        );
        const b = request.body;
        await unique(`A component named '${b.name}' in this package`, () =>
          db.transaction(async (tx) => {
            if (b.body !== undefined && b.body !== c.body) {
              assertDraft(date);
              await tx
                .update(componentVersion)
                .set({
                  body: b.body,
                  tree: treeOf(c.componentType, b.body),
                  updatedBy: user(request),
                  updatedAt: new Date(),
                })
                .where(eq(componentVersion.id, c.versionId));
            }
            if (b.label !== undefined || b.folder !== undefined || b.name !== undefined || b.tags !== undefined) {
              await tx
                .update(component)
                .set({
                  ...(b.label !== undefined ? { label: b.label } : {}),
                  ...(b.folder !== undefined ? { folder: b.folder } : {}),
                  ...(b.name !== undefined ? { name: b.name } : {}),
                  ...(b.tags !== undefined ? { tags: b.tags } : {}),
                  updatedAt: new Date(),
                })
                .where(eq(component.id, c.id));
            }
          }),
        );
        return componentView((await loadComponent(db, c.id, date.id)).component);
      },
    );
    router.delete(
      path,
      {
        config: { access: can('component', 'delete') },
        schema: {
          summary: 'Deletes a component (with an effective date: only its version on that draft date).',
          tags,
          security,
          params,
        },
      },
      async (request, reply) => {
        const dated = (request.params as { date?: number }).date;
        const { component: c, date } = await loadComponent(db, request.params.id, dated);
        assertDraft(date);
        await db.transaction(async (tx) => {
          if (dated === undefined) await tx.delete(component).where(eq(component.id, c.id));
          else {
            await tx.delete(componentVersion).where(eq(componentVersion.id, c.versionId));
            const rest = await tx
              .select({ id: componentVersion.id })
              .from(componentVersion)
              .where(eq(componentVersion.componentId, c.id))
              .limit(1);
            if (rest.length === 0) await tx.delete(component).where(eq(component.id, c.id));
          }
        });
        reply.status(204);
      },
    );
    router.post(
      `${path}set-state/:state/`,
      {
        config: { access: can('component', 'update') },
        schema: {
          summary: 'Enables or disables a component (on the current or named draft effective date).',
          tags,
          security,
          params: params.extend({ state: z.enum(COMPONENT_STATES) }),
        },
      },
      async (request) => {
        const { component: c, date } = await loadComponent(
          db,
          request.params.id,
          (request.params as { date?: number }).date,
        );
        assertDraft(date);
        await db
          .update(componentVersion)
          .set({ state: request.params.state, updatedBy: user(request), updatedAt: new Date() })
          .where(eq(componentVersion.id, c.versionId));
        return componentView((await loadComponent(db, c.id, date.id)).component);
      },
    );
  }

  router.post(
    '/rules/brl-components/:id/tags/',
    {
      config: { access: can('component', 'update') },
      schema: {
        summary: 'Adds (or re-prioritises) a tag on a component.',
        tags,
        security,
        params: oneParams,
        body: tagSchema,
      },
    },
    async (request) => {
      const { component: c } = await loadComponent(db, request.params.id);
      const t = request.body;
      const next = [...c.tags.filter((x) => !(x.category === t.category && x.value === t.value)), t];
      await db.update(component).set({ tags: next, updatedAt: new Date() }).where(eq(component.id, c.id));
      return componentView((await loadComponent(db, c.id)).component, false);
    },
  );
  router.delete(
    '/rules/brl-components/:id/tags/',
    {
      config: { access: can('component', 'update') },
      schema: {
        summary: 'Removes a tag from a component.',
        tags,
        security,
        params: oneParams,
        body: z.strictObject({
          category: z.string().min(1).max(100),
          value: z.string().min(1).max(200),
          priority: z.number().int().optional(),
        }),
      },
    },
    async (request) => {
      const { component: c } = await loadComponent(db, request.params.id);
      const t = request.body;
      if (!c.tags.some((x) => x.category === t.category && x.value === t.value)) {
        throw notFound(`Component ${c.fullName} has no tag ${t.category}.${t.value}.`);
      }
      const next = c.tags.filter((x) => !(x.category === t.category && x.value === t.value));
      await db.update(component).set({ tags: next, updatedAt: new Date() }).where(eq(component.id, c.id));
      return componentView((await loadComponent(db, c.id)).component, false);
    },
  );

  // ---------------------------------------------------------------- moves, folders, tag values
  const moveComponentBody = z.strictObject({
    package_id: id,
    full_name: z.string().min(1).max(400),
    name: componentName.optional(),
    folder: folder.optional(),
  });
  router.put(
    '/rules/brl-components/move_component/',
    {
      config: { access: can('component', 'update') },
      schema: {
        summary:
          'Moves the component named by full_name into a package of the same project, optionally renamed and into a folder.',
        tags,
        security,
        body: moveComponentBody,
      },
    },
    async (request) => {
      const b = request.body;
      const target = await findPackage(b.package_id);
      const parts = b.full_name.split('.');
      const [row] = await db
        .select({ id: component.id, projectId: rulesPackage.projectId })
        .from(component)
        .innerJoin(rulesPackage, eq(rulesPackage.id, component.packageId))
        .where(
          and(
            eq(rulesPackage.name, parts[0]!),
            eq(component.name, parts[parts.length - 1]!),
            eq(component.folder, parts.slice(1, -1).join('/')),
            eq(rulesPackage.projectId, target.projectId),
          ),
        );
      if (!row) throw notFound(`Component ${b.full_name} not found in the project of package ${target.id}.`);
      await unique(`A component named '${b.name ?? parts[parts.length - 1]}' in package ${target.name}`, () =>
        db
          .update(component)
          .set({
            packageId: target.id,
            ...(b.name !== undefined ? { name: b.name } : {}),
            ...(b.folder !== undefined ? { folder: b.folder } : {}),
            updatedAt: new Date(),
          })
          .where(eq(component.id, row.id)),
      );
      return componentView((await loadComponent(db, row.id)).component, false);
    },
  );

  router.put(
    '/rules/brl-components/move_components/',
    {
      config: { access: can('component', 'update') },
      schema: {
        summary: "Renames a package's folder: every component in from_folder (and below) moves to to_folder.",
        tags,
        security,
        body: z.strictObject({
          package_id: id,
          from_folder: folder.pipe(z.string().min(1, 'Name the folder to move.')),
          to_folder: folder,
        }),
      },
    },
    async (request) => {
      const { package_id: packageId, from_folder: from, to_folder: to } = request.body;
      await findPackage(packageId);
      const rows = await db
        .select({ id: component.id, folder: component.folder })
        .from(component)
        .where(eq(component.packageId, packageId));
      const moving = rows.filter((r) => r.folder === from || r.folder.startsWith(`${from}/`));
      if (moving.length === 0) throw notFound(`Package ${packageId} has no folder '${from}'.`);
      await unique(`A component of the same name in folder '${to}'`, () =>
        db.transaction(async (tx) => {
          for (const r of moving) {
            const rest = r.folder.slice(from.length).replace(/^\//, '');
            const next = [to, rest].filter(Boolean).join('/');
            await tx.update(component).set({ folder: next, updatedAt: new Date() }).where(eq(component.id, r.id));
          }
        }),
      );
      return { moved: moving.length };
    },
  );

  interface FolderNode {
    name: string;
    path: string;
    folders: FolderNode[];
    components: { id: number; name: string; label: string; component_type: string }[];
  }
  router.get(
    '/rules/brl-components/structure/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'The folder tree of every package (or of one with package_id), with the components in each folder.',
        tags,
        security,
        querystring: z.object({ package_id: id.optional() }),
      },
    },
    async (request) => {
      const packages = await db
        .select()
        .from(rulesPackage)
        .where(request.query.package_id ? eq(rulesPackage.id, request.query.package_id) : undefined)
        .orderBy(asc(rulesPackage.name));
      if (request.query.package_id && packages.length === 0)
        throw notFound(`Package ${request.query.package_id} not found.`);
      const results = [];
      for (const p of packages) {
        const rows = await db
          .select({
            id: component.id,
            name: component.name,
            label: component.label,
            folder: component.folder,
            type: component.componentType,
          })
          .from(component)
          .where(eq(component.packageId, p.id))
          .orderBy(asc(component.folder), asc(component.name));
        const root: FolderNode = { name: '', path: '', folders: [], components: [] };
        for (const r of rows) {
          let node = root;
          for (const segment of r.folder.split('/').filter(Boolean)) {
            let child = node.folders.find((f) => f.name === segment);
            if (!child) {
              child = {
                name: segment,
                path: node.path ? `${node.path}/${segment}` : segment,
                folders: [],
                components: [],
              };
              node.folders.push(child);
            }
            node = child;
          }
          node.components.push({ id: r.id, name: r.name, label: r.label, component_type: r.type });
        }
        results.push({ package: packageView(p), structure: root });
      }
      return list(results);
    },
  );

  router.get(
    '/rules/tags/:tag/get_values/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: 'The values a tag category (ComponentUsage, Label …) has on any component.',
        tags,
        security,
        params: z.object({ tag: z.string().min(1).max(100) }),
      },
    },
    async (request) => {
      const rows = await db.select({ tags: component.tags }).from(component);
      const values = new Set<string>();
      for (const r of rows) for (const t of r.tags) if (t.category === request.params.tag) values.add(t.value);
      return list([...values].sort());
    },
  );

  // ---------------------------------------------------------------- formulas
  router.post(
    '/rules/ontology/formula-to-brl/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: "A formula as a BRL condition ('it is true that …'); errors lists what does not parse.",
        tags,
        security,
        body: z.strictObject({ formula: z.string().min(1).max(20_000), package_id: id.optional() }),
      },
    },
    async (request, reply) => {
      try {
        return { brl: formulaToBrl(request.body.formula) };
      } catch (error) {
        if (!(error instanceof FormulaSyntaxError)) throw error;
        reply.status(400);
        return { errors: [{ message: error.message, line: error.position.line, column: error.position.column }] };
      }
    },
  );
  router.post(
    '/rules/ontology/brl-to-formula/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary: "A rule's conditions (or condition lines) as one formula; errors lists what does not parse.",
        tags,
        security,
        body: z.strictObject({ brl: z.string().min(1).max(200_000) }),
      },
    },
    async (request, reply) => {
      try {
        return { formula: brlToFormula(request.body.brl) };
      } catch (error) {
        if (!(error instanceof BrlSyntaxError)) throw error;
        reply.status(400);
        return { errors: [{ message: error.message, line: error.position.line, column: error.position.column }] };
      }
    },
  );

  router.post(
    '/rules/ontology/get-suggestions/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary:
          "What the editor may suggest on an effective date: the ontology of the product version in force (risk types, fields, items) and the date's templates.",
        tags,
        security,
        body: z.strictObject({ project_id: id, effective_date_id: id.optional() }),
      },
    },
    async (request) => {
      const p = await findProject(db, request.body.project_id);
      const date =
        request.body.effective_date_id === undefined
          ? await currentEffectiveDate(db, p.id)
          : await findEffectiveDate(db, p.id, request.body.effective_date_id);
      const ontology = await ontologyFor(db, lines(), p.product, date.effectiveDate);
      const templates: TemplateComponent[] = [];
      for (const c of await componentsAt(db, p.id, date.id)) {
        if (c.componentType !== 'template') continue;
        const { component: tree } = tryParseBrl(c.body);
        if (tree?.kind === 'template') templates.push(tree);
      }
      return {
        suggestions: {
          product: p.product,
          effective_date: date.effectiveDate,
          ontology,
          templates,
        },
      };
    },
  );

  // ---------------------------------------------------------------- execution
  router.post(
    '/rules/execution/ui-controls/',
    {
      config: { access: can('execution', 'execute') },
      schema: {
        summary:
          "Runs the deployed rules in force for a view: each named element's readonly, visible, mandatory, isValid, validationMessage, value and options lists, plus underwriting issues.",
        tags,
        security,
        body: z.strictObject({
          data: z.strictObject({
            actions: z
              .array(z.looseObject({ name: z.string().min(1).max(300) }))
              .max(1000)
              .default([]),
            context: z.strictObject({
              viewId: z.string().max(200).optional(),
              user: z.unknown().optional(),
              viewModel: z.looseObject({
                product: z.string().max(100).optional(),
                project: z.string().max(100).optional(),
                date: day.optional(),
                risk: riskSchema,
              }),
              extra: z.record(z.string(), z.unknown()).optional(),
            }),
          }),
        }),
      },
    },
    async (request) => {
      const { actions, context: ctx } = request.body.data;
      const vm = ctx.viewModel;
      if (!vm.product && !vm.project) {
        throw new ApiError(400, 'The view model names the product (or the rules project) whose rules run.', {
          issues: [
            { detail: 'Give viewModel.product or viewModel.project.', source: { pointer: '/data/context/viewModel' } },
          ],
        });
      }
      const principal = request.principal!;
      const result = await runDeployedRules(
        db,
        db,
        {
          ...(vm.product ? { product: vm.product } : {}),
          ...(vm.project ? { project: vm.project } : {}),
          asOf: vm.date ?? new Date().toISOString().slice(0, 10),
          // Who the caller is comes from the session, never from the body.
          user: {
            username: principal.username,
            roles: principal.effectiveRole ? [principal.effectiveRole] : principal.roles,
          },
          ...(ctx.viewId ? { viewId: ctx.viewId } : {}),
          risk: vm.risk,
          ...(actions.length > 0 ? { elements: actions.map((a) => a.name) } : {}),
          ...(ctx.extra ? { extra: ctx.extra } : {}),
        },
        // The risk and extra were parsed from this request's JSON body: the run reads them in place.
        { plainJson: true },
      );
      return {
        data: {
          actions: result.actions,
          issues: result.issues,
          errors: result.errors,
          project: result.project,
          effective_date: result.effectiveDate,
        },
      };
    },
  );
}
