import { badRequest, z, type AtriumRouter, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_ONTOLOGY, type LinesOntology } from '@atrium/plugin-lines/ontology-service';
import { ontologyFor } from './build.js';
import { impactOf } from './impact.js';
import { can } from './permissions.js';
import { componentsAt, currentEffectiveDate, findEffectiveDate, findProject } from './store.js';
import type { effectiveDate, project } from './tables.js';

export interface SyncReport {
  linesVersion: string;
  effectiveDate: string;
  count: number;
  results: { component: string; message: string }[];
}

/**
 * The sync-with-lines report of one effective date (the GET view and the sync job): null when lines
 * has no published version of the product on that date.
 */
export async function syncWithLines(
  db: Queryable,
  lines: LinesOntology,
  p: typeof project.$inferSelect,
  date: typeof effectiveDate.$inferSelect,
): Promise<SyncReport | null> {
  const version = await lines.versionInForce(db, p.product, date.effectiveDate);
  if (!version) return null;
  const ontology = await ontologyFor(db, lines, p.product, date.effectiveDate);
  const results = impactOf(await componentsAt(db, p.id, date.id), ontology!, false);
  return { linesVersion: version.versionLabel, effectiveDate: date.effectiveDate, count: results.length, results };
}

const id = z.coerce.number().int().positive();

/**
 * Sync with lines: every rule of an effective date (working copy, committed or not) that references a
 * field, item or risk type the product version in force no longer has, or has with another type.
 * Committing refuses the same problems (the commit job validates); this lists them before that.
 */
export function registerImpactRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  router.get(
    '/rules/projects/:id/sync-lines/',
    {
      config: { access: can('project', 'read') },
      schema: {
        summary: 'Lists every rule that no longer matches the lines product version in force (impact check).',
        tags: ['rules'],
        security: [{ bearer: [] }],
        params: z.object({ id }),
        querystring: z.strictObject({ effectiveDate: id.optional() }),
      },
    },
    async (request) => {
      const p = await findProject(db, request.params.id);
      const date = request.query.effectiveDate
        ? await findEffectiveDate(db, p.id, request.query.effectiveDate)
        : await currentEffectiveDate(db, p.id);
      const report = await syncWithLines(db, context.service(LINES_ONTOLOGY), p, date);
      if (!report) throw badRequest(`Lines has no published version of '${p.product}' to check the rules against.`);
      return report;
    },
  );
}
