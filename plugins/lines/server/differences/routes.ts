import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { z, type AtriumRouter, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { productParams, versionOf, versionQuery } from '../rate-tables/route-scope.js';
import { product, productVersion } from '../tables.js';
import { buildProductDocument } from '../transfer/product-document.js';
import { diffRiskTypes } from './product-differences.js';

/**
 * `GET /lines/products/{product}/differences/?version_id&include_descendants` — what a version
 * changed, per risk type (see product-differences.ts), against the version before it: the version it
 * was copied from when it has one, else the product's highest-numbered version below it. A first
 * version is compared with nothing (everything is added). With `include_descendants=true` the child
 * products (and theirs) are compared too: each child's latest version built on this version against
 * the version before it.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];

export async function previousVersionOf(db: Queryable, versionId: number): Promise<number | null> {
  const [version] = await db.select().from(productVersion).where(eq(productVersion.id, versionId)).limit(1);
  if (!version) return null;
  if (version.copiedFromVersionId !== null) {
    const [copied] = await db
      .select({ id: productVersion.id, productId: productVersion.productId })
      .from(productVersion)
      .where(eq(productVersion.id, version.copiedFromVersionId))
      .limit(1);
    if (copied && copied.productId === version.productId) return copied.id;
  }
  const [before] = await db
    .select({ id: productVersion.id })
    .from(productVersion)
    .where(and(eq(productVersion.productId, version.productId), lt(productVersion.number, version.number)))
    .orderBy(desc(productVersion.number))
    .limit(1);
  return before?.id ?? null;
}

async function differencesOf(db: Queryable, productRow: { id: number; name: string }, versionId: number) {
  const compared = await previousVersionOf(db, versionId);
  const after = await buildProductDocument(db, versionId);
  const before = compared === null ? null : await buildProductDocument(db, compared);
  return diffRiskTypes(before?.risk_types ?? [], after.risk_types).map((d) => ({
    product: productRow.name,
    product_id: productRow.id,
    version_id: versionId,
    compared_version_id: compared,
    ...d,
  }));
}

export function registerDifferenceRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  router.get(
    '/lines/products/:product/differences/',
    {
      config: { access: LINES_PERMISSIONS.version.read },
      schema: {
        summary:
          'What a version changed against the version before it: per risk type the added, removed and changed fields and items.',
        tags,
        security,
        params: productParams,
        querystring: versionQuery.extend({
          include_descendants: z.enum(['true', 'false', '1', '0']).optional(),
        }),
      },
    },
    async (request) => {
      const versionId = await versionOf(db, request.params.product, request.query.version_id);
      const [root] = await db
        .select({ id: product.id, name: product.name })
        .from(product)
        .where(eq(product.id, request.params.product));
      const differences = await differencesOf(db, root!, versionId);
      const compared = await previousVersionOf(db, versionId);
      if (request.query.include_descendants === 'true' || request.query.include_descendants === '1') {
        // Child products nest at most 3 levels: walk down level by level from this version.
        let level: { productId: number; versionId: number }[] = [{ productId: root!.id, versionId }];
        for (let depth = 0; depth < 3 && level.length > 0; depth++) {
          const children = await db
            .select({ id: product.id, name: product.name, parent: product.parentProductId })
            .from(product)
            .where(
              inArray(
                product.parentProductId,
                level.map((l) => l.productId),
              ),
            );
          const next: typeof level = [];
          for (const child of children) {
            const parentVersion = level.find((l) => l.productId === child.parent)!.versionId;
            const [built] = await db
              .select({ id: productVersion.id })
              .from(productVersion)
              .where(and(eq(productVersion.productId, child.id), eq(productVersion.parentVersionId, parentVersion)))
              .orderBy(desc(productVersion.number))
              .limit(1);
            if (!built) continue;
            differences.push(...(await differencesOf(db, child, built.id)));
            next.push({ productId: child.id, versionId: built.id });
          }
          level = next;
        }
      }
      return {
        product: root!.name,
        product_id: root!.id,
        version_id: versionId,
        compared_version_id: compared,
        differences,
      };
    },
  );
}
