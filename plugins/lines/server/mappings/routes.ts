import { eq } from 'drizzle-orm';
import { ApiError, z, type AtriumRouter, type ProblemIssue, type ServerPluginContext } from '@atrium/sdk/server';
import { fieldsOf, resolveDefinition, type ResolvedDefinition } from '../catalog/resolve.js';
import { assertDraftVersion } from '../catalog/version-guard.js';
import { previousVersionOf } from '../differences/routes.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { productParams, versionOf, versionQuery } from '../rate-tables/route-scope.js';
import { productMapping } from '../tables.js';

/**
 * `GET` and `PUT /lines/product-mappings/{product}/?version_id` — how answers of the version before
 * this one (see differences: the version it was copied from, else the one numbered below it) carry
 * over into this version: per risk type a `fields` list of entries `{ sources, targets, operation }`.
 * `map` copies the source field(s) into the target field(s); `other` is a conversion done outside
 * the mapping (described in `description`). Sources name fields of the risk type in the previous
 * version or in this one, targets fields of this version; anything else is a 400 pointing at it.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];

const fieldName = z.string().trim().min(1).max(100);
const entry = z.strictObject({
  sources: z.array(fieldName).max(50),
  targets: z.array(fieldName).min(1, 'An entry needs at least one target field.').max(50),
  operation: z.enum(['map', 'other']).default('map'),
  description: z.string().max(2000).optional(),
});
const mappingSchema = z.record(z.string().trim().min(1).max(100), z.strictObject({ fields: z.array(entry).max(5000) }));
export type ProductMapping = z.infer<typeof mappingSchema>;

const namesOf = (definition: ResolvedDefinition | null, riskType: string) =>
  new Set(definition ? fieldsOf(definition, riskType).map((f) => f.row.name.toLowerCase()) : []);

function check(mapping: ProductMapping, current: ResolvedDefinition, previous: ResolvedDefinition | null) {
  const issues: ProblemIssue[] = [];
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  for (const [riskType, { fields }] of Object.entries(mapping)) {
    const pointer = `/mapping/${escape(riskType)}`;
    if (!current.riskTypes.some((t) => t.row.name.toLowerCase() === riskType.toLowerCase())) {
      issues.push({ detail: `'${riskType}' is not a risk type of this version.`, source: { pointer } });
      continue;
    }
    const targets = namesOf(current, riskType);
    const sources = new Set([...targets, ...namesOf(previous, riskType)]);
    fields.forEach((e, i) => {
      if (e.operation === 'map' && e.sources.length === 0) {
        issues.push({
          detail: 'A map entry needs at least one source field.',
          source: { pointer: `${pointer}/fields/${i}/sources` },
        });
      }
      e.sources.forEach((name, j) => {
        if (!sources.has(name.toLowerCase())) {
          issues.push({
            detail: `Source '${name}' is not a field of '${riskType}' in this version or the one before it.`,
            source: { pointer: `${pointer}/fields/${i}/sources/${j}` },
          });
        }
      });
      e.targets.forEach((name, j) => {
        if (!targets.has(name.toLowerCase())) {
          issues.push({
            detail: `Target '${name}' is not a field of '${riskType}' in this version.`,
            source: { pointer: `${pointer}/fields/${i}/targets/${j}` },
          });
        }
      });
    });
  }
  if (issues.length > 0) {
    throw new ApiError(400, issues.map((i) => i.detail).join(' '), { issues, code: 'invalid_mapping' });
  }
}

export function registerMappingRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const out = (versionId: number, compared: number | null, mapping: unknown) => ({
    version_id: versionId,
    compared_version_id: compared,
    mapping: mapping ?? {},
  });

  router.get(
    '/lines/product-mappings/:product/',
    {
      config: { access: LINES_PERMISSIONS.mapping.read },
      schema: {
        summary: "Reads a version's product mapping.",
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
      },
    },
    async (request) => {
      const versionId = await versionOf(db, request.params.product, request.query.version_id);
      const [row] = await db
        .select()
        .from(productMapping)
        .where(eq(productMapping.productVersionId, versionId))
        .limit(1);
      return out(versionId, await previousVersionOf(db, versionId), row?.mapping);
    },
  );

  router.put(
    '/lines/product-mappings/:product/',
    {
      config: { access: LINES_PERMISSIONS.mapping.update },
      schema: {
        summary: "Replaces a draft version's product mapping; every source and target must name a field.",
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
        body: z.strictObject({ mapping: mappingSchema }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const versionId = await versionOf(tx, request.params.product, request.query.version_id);
        await assertDraftVersion(tx, versionId);
        const compared = await previousVersionOf(tx, versionId);
        const current = await resolveDefinition(tx, versionId, { rateRows: false });
        const previous = compared === null ? null : await resolveDefinition(tx, compared, { rateRows: false });
        const mapping = request.body.mapping;
        check(mapping, current, previous);
        await tx
          .insert(productMapping)
          .values({ productId: request.params.product, productVersionId: versionId, mapping })
          .onConflictDoUpdate({ target: productMapping.productVersionId, set: { mapping, updatedAt: new Date() } });
        return out(versionId, compared, mapping);
      }),
  );
}
