import { and, asc, count, eq } from 'drizzle-orm';
import { conflict, notFound, z, type AtriumRouter, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { can } from './permissions.js';
import { assertDraft, componentView, list, loadComponent, unique } from './routes.js';
import {
  componentsAt,
  currentEffectiveDate,
  findEffectiveDate,
  findProject,
  fullNameOf,
  packageTagHash,
  treeOf,
} from './store.js';
import {
  component,
  componentVersion,
  packageDependency,
  packageTag,
  rulesPackage,
  type PackageTagEntry,
} from './tables.js';

const tags = ['rules'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const tagName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'A tag name is letters, digits, dots, dashes and underscores.')
  .max(100);

type PackageRow = typeof rulesPackage.$inferSelect;
type TagRow = typeof packageTag.$inferSelect;

/** One name of a package's master namespace, with its text (`body`) on the date or tag it comes from. */
export interface NamespaceEntry {
  full_name: string;
  name: string;
  folder: string;
  component_type: PackageTagEntry['componentType'];
  state: PackageTagEntry['state'];
  package: string;
  /** null: the package's own component (current effective date); else the dependency's pinned tag. */
  tag: string | null;
  body: string;
}

/**
 * A package's master namespace: what its components can name — its own components on the
 * project's current effective date, then each dependency's components as frozen in the pinned tag.
 */
export async function masterNamespace(
  db: Queryable,
  p: PackageRow,
): Promise<{ effectiveDateId: number; components: NamespaceEntry[] }> {
  const date = await currentEffectiveDate(db, p.projectId);
  const own = (await componentsAt(db, p.projectId, date.id))
    .filter((c) => c.packageId === p.id)
    .map((c): NamespaceEntry => ({
      full_name: c.fullName,
      name: c.name,
      folder: c.folder,
      component_type: c.componentType,
      state: c.state,
      package: p.name,
      tag: null,
      body: c.body,
    }));
  const pinned = await db
    .select({ to: rulesPackage, tag: packageTag })
    .from(packageDependency)
    .innerJoin(rulesPackage, eq(rulesPackage.id, packageDependency.dependsOnId))
    .innerJoin(packageTag, eq(packageTag.id, packageDependency.tagId))
    .where(eq(packageDependency.packageId, p.id))
    .orderBy(asc(rulesPackage.name));
  const fromDependencies = pinned.flatMap(({ to, tag }) =>
    tag.components.map((e): NamespaceEntry => ({
      full_name: fullNameOf(to.name, e.folder, e.name),
      name: e.name,
      folder: e.folder,
      component_type: e.componentType,
      state: e.state,
      package: to.name,
      tag: tag.name,
      body: e.body,
    })),
  );
  return { effectiveDateId: date.id, components: [...own, ...fromDependencies] };
}

export async function findPackage(db: Queryable, packageId: number): Promise<PackageRow> {
  const [p] = await db.select().from(rulesPackage).where(eq(rulesPackage.id, packageId));
  if (!p) throw notFound(`Package ${packageId} not found.`);
  return p;
}

async function findTag(db: Queryable, tagId: number): Promise<TagRow> {
  const [t] = await db.select().from(packageTag).where(eq(packageTag.id, tagId));
  if (!t) throw notFound(`Package tag ${tagId} not found.`);
  return t;
}

const byType = (entries: { componentType: string }[]) => {
  const out: Record<string, number> = {};
  for (const e of entries) out[e.componentType] = (out[e.componentType] ?? 0) + 1;
  return out;
};

function tagView(t: TagRow, p: PackageRow) {
  return {
    id: t.id,
    name: t.name,
    package: t.packageId,
    package_name: p.name,
    effective_date: t.effectiveDateId,
    hash: t.hash,
    components: t.components.length,
    created_by: t.createdBy,
    date_added: t.createdAt.toISOString(),
  };
}

/** The packages `packageId` depends on, transitively (for cycle checks). */
async function reachable(db: Queryable, packageId: number): Promise<Set<number>> {
  const seen = new Set<number>();
  const queue = [packageId];
  while (queue.length) {
    const rows = await db
      .select({ to: packageDependency.dependsOnId })
      .from(packageDependency)
      .where(eq(packageDependency.packageId, queue.shift()!));
    for (const r of rows) {
      if (seen.has(r.to)) continue;
      seen.add(r.to);
      queue.push(r.to);
    }
  }
  return seen;
}

/**
 * Package dependencies, package tags and namespaces (docs/rules.md, "Packages, dependencies and
 * tags"). A package tag freezes a package's components on an effective date under a name; a
 * dependency pins a package of the same project at one of its tags; a package's `master`
 * namespace is what its components can name: its own working copy and its dependencies as pinned.
 */
export function registerPackageRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const user = (request: { principal?: { username: string } | null }) => request.principal?.username ?? 'system';

  // ---------------------------------------------------------------- packages
  router.post(
    '/rules/package/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: 'Creates a package (a namespace of components) in a project.',
        tags,
        security,
        body: z.strictObject({
          project_id: id,
          name: z
            .string()
            .trim()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A name is letters, digits and underscores, starting with a letter.')
            .max(100),
        }),
      },
    },
    async (request, reply) => {
      const p = await findProject(db, request.body.project_id);
      const [created] = await unique(`A package named '${request.body.name}' in this project`, () =>
        db.insert(rulesPackage).values({ projectId: p.id, name: request.body.name }).returning(),
      );
      reply.status(201);
      return { id: created!.id, name: created!.name, project: created!.projectId };
    },
  );

  // ---------------------------------------------------------------- dependencies
  const dependencyList = async (p: PackageRow) => {
    const rows = await db
      .select({ to: rulesPackage, tag: packageTag })
      .from(packageDependency)
      .innerJoin(rulesPackage, eq(rulesPackage.id, packageDependency.dependsOnId))
      .leftJoin(packageTag, eq(packageTag.id, packageDependency.tagId))
      .where(eq(packageDependency.packageId, p.id))
      .orderBy(asc(rulesPackage.name));
    return rows.map((r) => ({
      package: { id: r.to.id, name: r.to.name, project: r.to.projectId },
      tag: r.tag ? { id: r.tag.id, name: r.tag.name } : null,
    }));
  };

  router.get(
    '/rules/package/:id/dependencies/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'The packages a package depends on, each with the tag it is pinned at.',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => list(await dependencyList(await findPackage(db, request.params.id))),
  );

  const dependencyParams = z.object({ id, a: id, b: id });
  router.post(
    '/rules/package/:id/dependency/:a/:b/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: 'Makes package id depend on package a, pinned at its tag b (again: re-pins).',
        tags,
        security,
        params: dependencyParams,
      },
    },
    async (request, reply) => {
      const { id: packageId, a, b } = request.params;
      const p = await findPackage(db, packageId);
      const target = await findPackage(db, a);
      const tag = await findTag(db, b);
      if (tag.packageId !== target.id) throw notFound(`Package tag ${b} is not a tag of package '${target.name}'.`);
      if (target.projectId !== p.projectId) throw conflict('A package can depend only on packages of its own project.');
      if (target.id === p.id) throw conflict(`Package '${p.name}' cannot depend on itself.`);
      if ((await reachable(db, target.id)).has(p.id))
        throw conflict(
          `Package '${target.name}' already depends on '${p.name}'; dependencies cannot go round in a circle.`,
        );
      await db
        .insert(packageDependency)
        .values({ packageId: p.id, dependsOnId: target.id, tagId: tag.id })
        .onConflictDoUpdate({
          target: [packageDependency.packageId, packageDependency.dependsOnId],
          set: { tagId: tag.id },
        });
      reply.status(201);
      return list(await dependencyList(p));
    },
  );

  router.delete(
    '/rules/package/:id/dependency/:a/:b/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: 'Removes the dependency of package id on package a pinned at tag b.',
        tags,
        security,
        params: dependencyParams,
      },
    },
    async (request, reply) => {
      const { id: packageId, a, b } = request.params;
      const removed = await db
        .delete(packageDependency)
        .where(
          and(
            eq(packageDependency.packageId, packageId),
            eq(packageDependency.dependsOnId, a),
            eq(packageDependency.tagId, b),
          ),
        )
        .returning({ packageId: packageDependency.packageId });
      if (!removed.length) throw notFound(`Package ${packageId} does not depend on package ${a} at tag ${b}.`);
      reply.status(204);
    },
  );

  // ---------------------------------------------------------------- namespaces
  router.get(
    '/rules/package/:id/namespaces/master/',
    {
      config: { access: can('component', 'read') },
      schema: {
        summary:
          "A package's master namespace: the names its components can use — its own (current effective date) and its dependencies' as pinned.",
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      const p = await findPackage(db, request.params.id);
      const { effectiveDateId, components } = await masterNamespace(db, p);
      return {
        package: { id: p.id, name: p.name, project: p.projectId },
        namespace: 'master',
        effective_date: effectiveDateId,
        components: components.map(({ body: _body, folder: _folder, ...entry }) => entry),
      };
    },
  );

  // ---------------------------------------------------------------- add a component
  router.post(
    '/rules/package/:id/component/:componentId/',
    {
      config: { access: can('component', 'create') },
      schema: {
        summary:
          "Adds a copy of a component (its text on the project's current draft effective date) to a package of the same project.",
        tags,
        security,
        params: z.object({ id, componentId: id }),
      },
    },
    async (request, reply) => {
      const p = await findPackage(db, request.params.id);
      const source = await loadComponent(db, request.params.componentId);
      if (source.projectId !== p.projectId)
        throw conflict('A component can be added only to a package of its own project.');
      assertDraft(source.date);
      const c = source.component;
      const created = await unique(`A component named '${c.name}' in package '${p.name}'`, () =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(component)
            .values({
              packageId: p.id,
              name: c.name,
              label: c.label,
              folder: c.folder,
              componentType: c.componentType,
              tags: c.tags,
            })
            .returning({ id: component.id });
          await tx.insert(componentVersion).values({
            componentId: row!.id,
            effectiveDateId: source.date.id,
            body: c.body,
            tree: treeOf(c.componentType, c.body),
            state: c.state,
            updatedBy: user(request),
          });
          return row!.id;
        }),
      );
      reply.status(201);
      return componentView((await loadComponent(db, created, source.date.id)).component);
    },
  );

  // ---------------------------------------------------------------- package tags
  router.get(
    '/rules/package-tag/summary/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'Lists package tags (of one package with packageId).',
        tags,
        security,
        querystring: z.strictObject({ packageId: id.optional() }),
      },
    },
    async (request) => {
      const rows = await db
        .select({ t: packageTag, p: rulesPackage })
        .from(packageTag)
        .innerJoin(rulesPackage, eq(rulesPackage.id, packageTag.packageId))
        .where(request.query.packageId ? eq(packageTag.packageId, request.query.packageId) : undefined)
        .orderBy(asc(rulesPackage.name), asc(packageTag.createdAt), asc(packageTag.id));
      return list(rows.map(({ t, p }) => tagView(t, p)));
    },
  );

  router.get(
    '/rules/package-tag/:id/',
    {
      config: { access: can('component', 'read') },
      schema: { summary: 'A package tag with its frozen components.', tags, security, params: z.object({ id }) },
    },
    async (request) => {
      const t = await findTag(db, request.params.id);
      const p = await findPackage(db, t.packageId);
      return {
        ...tagView(t, p),
        components: t.components.map((e) => ({
          full_name: fullNameOf(p.name, e.folder, e.name),
          name: e.name,
          folder: e.folder,
          component_type: e.componentType,
          state: e.state,
          body: e.body,
        })),
      };
    },
  );

  router.get(
    '/rules/package-tag/:id/summary/',
    {
      config: { access: can('project', 'read') },
      schema: { summary: "Counts a package tag's components by type.", tags, security, params: z.object({ id }) },
    },
    async (request) => {
      const t = await findTag(db, request.params.id);
      const p = await findPackage(db, t.packageId);
      const [pins] = await db.select({ n: count() }).from(packageDependency).where(eq(packageDependency.tagId, t.id));
      return { ...tagView(t, p), by_type: byType(t.components), pinned_by: pins?.n ?? 0 };
    },
  );

  router.post(
    '/rules/package-tag/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary:
          "Tags a package: freezes its components on the effective date (default: the project's current one) under a name.",
        tags,
        security,
        body: z.strictObject({ package_id: id, effective_date_id: id.optional(), name: tagName.optional() }),
      },
    },
    async (request, reply) => {
      const p = await findPackage(db, request.body.package_id);
      const dateId = request.body.effective_date_id;
      const date = dateId
        ? await findEffectiveDate(db, p.projectId, dateId)
        : await currentEffectiveDate(db, p.projectId);
      const entries: PackageTagEntry[] = (await componentsAt(db, p.projectId, date.id))
        .filter((c) => c.packageId === p.id)
        .map((c) => ({ name: c.name, folder: c.folder, componentType: c.componentType, state: c.state, body: c.body }));
      const [existing] = await db.select({ n: count() }).from(packageTag).where(eq(packageTag.packageId, p.id));
      const name = request.body.name ?? `v${(existing?.n ?? 0) + 1}`;
      const hash = packageTagHash(entries);
      const [t] = await unique(`A tag named '${name}' of package '${p.name}'`, () =>
        db
          .insert(packageTag)
          .values({
            packageId: p.id,
            name,
            effectiveDateId: date.id,
            hash,
            components: entries,
            createdBy: user(request),
          })
          .returning(),
      );
      reply.status(201);
      return tagView(t!, p);
    },
  );

  router.put(
    '/rules/package-tag/:id/set-name/:name/',
    {
      config: { access: can('project', 'update') },
      schema: {
        summary: 'Renames a package tag.',
        tags,
        security,
        params: z.object({ id, name: tagName }),
      },
    },
    async (request) => {
      const t = await findTag(db, request.params.id);
      const p = await findPackage(db, t.packageId);
      const [renamed] = await unique(`A tag named '${request.params.name}' of package '${p.name}'`, () =>
        db.update(packageTag).set({ name: request.params.name }).where(eq(packageTag.id, t.id)).returning(),
      );
      return tagView(renamed!, p);
    },
  );

  router.delete(
    '/rules/package-tag/:id/',
    {
      config: { access: can('project', 'update') },
      schema: { summary: 'Deletes a package tag no dependency pins.', tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      const t = await findTag(db, request.params.id);
      const pins = await db
        .select({ name: rulesPackage.name })
        .from(packageDependency)
        .innerJoin(rulesPackage, eq(rulesPackage.id, packageDependency.packageId))
        .where(eq(packageDependency.tagId, t.id));
      if (pins.length)
        throw conflict(
          `Package tag '${t.name}' is pinned by ${pins.map((x) => `'${x.name}'`).join(', ')}; remove that dependency first.`,
        );
      await db.delete(packageTag).where(eq(packageTag.id, t.id));
      reply.status(204);
    },
  );
}
