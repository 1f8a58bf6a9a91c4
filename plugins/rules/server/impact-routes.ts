import { badRequest, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_ONTOLOGY } from '@atrium/plugin-lines/ontology-service';
import { ontologyFor } from './build.js';
import { impactOf } from './impact.js';
import { can } from './permissions.js';
import { componentsAt, currentEffectiveDate, findEffectiveDate, findProject } from './store.js';

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
      const version = await context.service(LINES_ONTOLOGY).versionInForce(db, p.product, date.effectiveDate);
      if (!version) throw badRequest(`Lines has no published version of '${p.product}' to check the rules against.`);
      const ontology = await ontologyFor(db, context.service(LINES_ONTOLOGY), p.product, date.effectiveDate);
      const results = impactOf(await componentsAt(db, p.id, date.id), ontology!, false);
      return {
        linesVersion: version.versionLabel,
        effectiveDate: date.effectiveDate,
        count: results.length,
        results,
      };
    },
  );
}
