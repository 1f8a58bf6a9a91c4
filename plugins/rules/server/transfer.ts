import { asc, eq, inArray } from 'drizzle-orm';
import { newObjectKey, z, type ObjectStorage, type Queryable } from '@atrium/sdk/server';
import type { LinesOntology } from '@atrium/plugin-lines/ontology-service';
import { componentsAt, findProject, packageTagHash, treeOf } from './store.js';
import {
  COMPONENT_STATES,
  COMPONENT_TYPES,
  EFFECTIVE_DATE_STATUSES,
  component,
  componentVersion,
  effectiveDate,
  packageDependency,
  packageTag,
  project,
  rulesPackage,
  type JobResult,
} from './tables.js';

/**
 * Export and import of rules projects (docs/rules.md, "Export and import"): one JSON file with the
 * project, its effective dates, and per package its dependencies and components with their text on
 * every effective date. Exports are written to object storage under `rules/exports/`; imports are
 * read from a direct upload under `rules/imports/`.
 */
export const EXPORT_PREFIX = 'rules/exports';
export const IMPORT_PREFIX = 'rules/imports';
/** The largest import file accepted (and the upload ticket's limit). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

const name = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A name is letters, digits and underscores.');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.');

export const exportFileSchema = z.strictObject({
  format: z.literal('atrium-rules-export'),
  version: z.literal(1),
  project: z.strictObject({
    name,
    label: z.string().min(1).max(200),
    product: z.string().min(1).max(100),
    description: z.string().max(2000),
  }),
  effective_dates: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(200),
        effective_date: day,
        description: z.string().max(2000),
        status: z.enum(EFFECTIVE_DATE_STATUSES),
      }),
    )
    .min(1)
    .max(500),
  packages: z
    .array(
      z.strictObject({
        name,
        /** The packages (in this file) this one depends on, each pinned at one of its tags. */
        dependencies: z.array(z.strictObject({ package: name, tag: z.string().min(1).max(100).nullable() })).max(200),
        /** Package tags: components frozen on an effective date. */
        tags: z
          .array(
            z.strictObject({
              name: z
                .string()
                .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'A tag name is letters, digits, dots, dashes and underscores.')
                .max(100),
              effective_date: day,
              components: z
                .array(
                  z.strictObject({
                    name,
                    folder: z.string().max(200),
                    component_type: z.enum(COMPONENT_TYPES),
                    state: z.enum(COMPONENT_STATES),
                    body: z.string().max(200_000),
                  }),
                )
                .max(20_000),
            }),
          )
          .max(500),
        components: z
          .array(
            z.strictObject({
              name,
              label: z.string().max(200),
              folder: z.string().regex(/^([A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*)?$/, 'A folder is names separated by /.'),
              component_type: z.enum(COMPONENT_TYPES),
              tags: z
                .array(
                  z.strictObject({ category: z.string().min(1), value: z.string().min(1), priority: z.number().int() }),
                )
                .max(50),
              versions: z
                .array(
                  z.strictObject({
                    effective_date: day,
                    body: z.string().max(200_000),
                    state: z.enum(COMPONENT_STATES),
                  }),
                )
                .min(1),
            }),
          )
          .max(20_000),
      }),
    )
    .min(1)
    .max(500),
});
export type RulesExportFile = z.infer<typeof exportFileSchema>;

type Counts = NonNullable<JobResult['counts']>;
const countsOf = (file: RulesExportFile): Counts => ({
  effective_dates: file.effective_dates.length,
  packages: file.packages.length,
  components: file.packages.reduce((n, p) => n + p.components.length, 0),
  versions: file.packages.reduce((n, p) => n + p.components.reduce((m, c) => m + c.versions.length, 0), 0),
});

/** The package ids of a project each package depends on. */
async function dependenciesOf(
  db: Queryable,
  packageIds: number[],
): Promise<Map<number, { to: number; tag: string | null }[]>> {
  const out = new Map<number, { to: number; tag: string | null }[]>();
  if (!packageIds.length) return out;
  const rows = await db
    .select({ from: packageDependency.packageId, to: packageDependency.dependsOnId, tag: packageTag.name })
    .from(packageDependency)
    .leftJoin(packageTag, eq(packageTag.id, packageDependency.tagId))
    .where(inArray(packageDependency.packageId, packageIds));
  for (const r of rows) out.set(r.from, [...(out.get(r.from) ?? []), { to: r.to, tag: r.tag }]);
  return out;
}

/**
 * The export file of a project, or of one of its packages (with `includeDependencies`, also every
 * package it depends on, transitively — dependencies are always within the project).
 */
export async function buildExport(
  db: Queryable,
  projectId: number,
  options: { packageId?: number; includeDependencies?: boolean },
): Promise<RulesExportFile> {
  const p = await findProject(db, projectId);
  const packages = await db
    .select()
    .from(rulesPackage)
    .where(eq(rulesPackage.projectId, projectId))
    .orderBy(asc(rulesPackage.name));
  const deps = await dependenciesOf(
    db,
    packages.map((x) => x.id),
  );
  let chosen = new Set(packages.map((x) => x.id));
  if (options.packageId !== undefined) {
    chosen = new Set([options.packageId]);
    const queue = [options.packageId];
    while (options.includeDependencies && queue.length) {
      for (const { to } of deps.get(queue.shift()!) ?? []) {
        if (chosen.has(to)) continue;
        chosen.add(to);
        queue.push(to);
      }
    }
  }
  const byId = new Map(packages.map((x) => [x.id, x]));
  const dates = await db
    .select()
    .from(effectiveDate)
    .where(eq(effectiveDate.projectId, projectId))
    .orderBy(asc(effectiveDate.effectiveDate));
  const dateOf = new Map(dates.map((d) => [d.id, d.effectiveDate]));
  const tagRows = new Map<number, (typeof packageTag.$inferSelect)[]>();
  const allTags = packages.length
    ? await db
        .select()
        .from(packageTag)
        .where(inArray(packageTag.packageId, [...chosen]))
        .orderBy(asc(packageTag.createdAt), asc(packageTag.id))
    : [];
  for (const t of allTags) tagRows.set(t.packageId, [...(tagRows.get(t.packageId) ?? []), t]);
  type Exported = RulesExportFile['packages'][number]['components'][number];
  const components = new Map<number, Exported & { packageId: number }>();
  for (const d of dates) {
    for (const c of await componentsAt(db, projectId, d.id)) {
      if (!chosen.has(c.packageId)) continue;
      let entry = components.get(c.id);
      if (!entry) {
        entry = {
          packageId: c.packageId,
          name: c.name,
          label: c.label,
          folder: c.folder,
          component_type: c.componentType,
          tags: c.tags,
          versions: [],
        };
        components.set(c.id, entry);
      }
      entry.versions.push({ effective_date: d.effectiveDate, body: c.body, state: c.state });
    }
  }
  const all = [...components.values()].sort((a, b) => (`${a.folder}/${a.name}` < `${b.folder}/${b.name}` ? -1 : 1));
  return {
    format: 'atrium-rules-export',
    version: 1,
    project: { name: p.name, label: p.label, product: p.product, description: p.description },
    effective_dates: dates.map((d) => ({
      name: d.name,
      effective_date: d.effectiveDate,
      description: d.description,
      status: d.status,
    })),
    packages: packages
      .filter((x) => chosen.has(x.id))
      .map((x) => ({
        name: x.name,
        dependencies: (deps.get(x.id) ?? [])
          .filter((d) => chosen.has(d.to))
          .map((d) => ({ package: byId.get(d.to)!.name, tag: d.tag }))
          .sort((a, b) => (a.package < b.package ? -1 : 1)),
        tags: (tagRows.get(x.id) ?? []).map((t) => ({
          name: t.name,
          effective_date: dateOf.get(t.effectiveDateId)!,
          components: t.components.map((e) => ({
            name: e.name,
            folder: e.folder,
            component_type: e.componentType,
            state: e.state,
            body: e.body,
          })),
        })),
        components: all.filter((c) => c.packageId === x.id).map(({ packageId: _, ...c }) => c),
      })),
  };
}

/** Writes the export of a project (or package) to object storage: the export job's work. */
export async function exportProject(
  db: Queryable,
  storage: ObjectStorage,
  projectId: number,
  options: { packageId?: number; includeDependencies?: boolean },
): Promise<JobResult> {
  const file = await buildExport(db, projectId, options);
  const bytes = Buffer.from(`${JSON.stringify(file, null, 2)}\n`, 'utf8');
  const stored = await storage.put(`${newObjectKey(EXPORT_PREFIX)}.json`, bytes, {
    contentType: 'application/json',
    maxBytes: Math.max(bytes.length, 1),
  });
  const base = options.packageId === undefined ? file.project.name : file.packages[0]!.name;
  return {
    file: { key: stored.key, name: `${base}-rules-export.json`, size: stored.size, sha256: stored.sha256 },
    counts: countsOf(file),
  };
}

/** The import job's refusals: the message goes to the job's result. */
export class ImportRefused extends Error {}

/** Reads an uploaded export file. */
export async function readImportFile(storage: ObjectStorage, key: string): Promise<RulesExportFile> {
  const object = await storage.get(key);
  if (!object) throw new ImportRefused('The uploaded file was not found; upload it again.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of object.body) {
    size += (chunk as Buffer).length;
    if (size > IMPORT_MAX_BYTES) throw new ImportRefused('The file is too large to import.');
    chunks.push(chunk as Buffer);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ImportRefused('The file is not a rules export: it is not JSON.');
  }
  const parsed = exportFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ImportRefused(`The file is not a rules export: ${issue.path.join('.') || 'file'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Creates a project from an export file, in `tx`: every effective date as a draft (commits and
 * deployments are not carried over), packages with their dependencies, components with their text
 * per date (parsed into trees as on save). `name`/`label` override the file's.
 */
export async function importProject(
  tx: Queryable,
  lines: LinesOntology,
  file: RulesExportFile,
  options: { name?: string; label?: string; username: string },
): Promise<JobResult> {
  const projectName = options.name ?? file.project.name;
  if (!(await lines.products(tx)).some((x) => x.name === file.project.product))
    throw new ImportRefused(`'${file.project.product}' is not a lines product.`);
  const [taken] = await tx.select({ id: project.id }).from(project).where(eq(project.name, projectName));
  if (taken) throw new ImportRefused(`A rules project named '${projectName}' already exists.`);
  const dates = new Set<string>();
  for (const d of file.effective_dates) {
    if (dates.has(d.effective_date)) throw new ImportRefused(`Effective date ${d.effective_date} appears twice.`);
    dates.add(d.effective_date);
  }
  const packageNames = new Set(file.packages.map((x) => x.name));
  if (packageNames.size !== file.packages.length) throw new ImportRefused('A package name appears twice.');
  for (const x of file.packages) {
    for (const t of x.tags)
      if (!dates.has(t.effective_date))
        throw new ImportRefused(
          `Tag '${t.name}' of package '${x.name}' is on ${t.effective_date}, which is not an effective date of the file.`,
        );
    for (const d of x.dependencies) {
      const to = file.packages.find((y) => y.name === d.package);
      if (!to) throw new ImportRefused(`Package '${x.name}' depends on '${d.package}', which is not in the file.`);
      if (d.tag !== null && !to.tags.some((t) => t.name === d.tag))
        throw new ImportRefused(
          `Package '${x.name}' depends on '${d.package}' at tag '${d.tag}', which is not in the file.`,
        );
    }
    const names = new Set<string>();
    for (const c of x.components) {
      if (names.has(c.name)) throw new ImportRefused(`Component '${x.name}.${c.name}' appears twice.`);
      names.add(c.name);
      for (const v of c.versions)
        if (!dates.has(v.effective_date))
          throw new ImportRefused(
            `Component '${x.name}.${c.name}' has a version on ${v.effective_date}, which is not an effective date of the file.`,
          );
    }
  }

  const [p] = await tx
    .insert(project)
    .values({
      name: projectName,
      label: options.label ?? file.project.label,
      product: file.project.product,
      description: file.project.description,
    })
    .returning();
  const dateIds = new Map<string, number>();
  for (const d of file.effective_dates) {
    const [row] = await tx
      .insert(effectiveDate)
      .values({ projectId: p!.id, name: d.name, effectiveDate: d.effective_date, description: d.description })
      .returning({ id: effectiveDate.id });
    dateIds.set(d.effective_date, row!.id);
  }
  const packageIds = new Map<string, number>();
  for (const x of file.packages) {
    const [row] = await tx
      .insert(rulesPackage)
      .values({ projectId: p!.id, name: x.name })
      .returning({ id: rulesPackage.id });
    packageIds.set(x.name, row!.id);
  }
  const tagIds = new Map<string, number>();
  for (const x of file.packages) {
    for (const t of x.tags) {
      const components = t.components.map((e) => ({
        name: e.name,
        folder: e.folder,
        componentType: e.component_type,
        state: e.state,
        body: e.body,
      }));
      const [row] = await tx
        .insert(packageTag)
        .values({
          packageId: packageIds.get(x.name)!,
          name: t.name,
          effectiveDateId: dateIds.get(t.effective_date)!,
          hash: packageTagHash(components),
          components,
          createdBy: options.username,
        })
        .returning({ id: packageTag.id });
      tagIds.set(`${x.name}\t${t.name}`, row!.id);
    }
  }
  for (const x of file.packages) {
    for (const d of x.dependencies)
      await tx.insert(packageDependency).values({
        packageId: packageIds.get(x.name)!,
        dependsOnId: packageIds.get(d.package)!,
        tagId: d.tag === null ? null : tagIds.get(`${d.package}\t${d.tag}`)!,
      });
    for (const c of x.components) {
      const [row] = await tx
        .insert(component)
        .values({
          packageId: packageIds.get(x.name)!,
          name: c.name,
          label: c.label,
          folder: c.folder,
          componentType: c.component_type,
          tags: c.tags,
        })
        .returning({ id: component.id });
      await tx.insert(componentVersion).values(
        c.versions.map((v) => ({
          componentId: row!.id,
          effectiveDateId: dateIds.get(v.effective_date)!,
          body: v.body,
          tree: treeOf(c.component_type, v.body),
          state: v.state,
          updatedBy: options.username,
        })),
      );
    }
  }
  return { projectId: p!.id, counts: countsOf(file), message: `Imported as '${projectName}'.` };
}
