import { isUniqueViolation } from '@atrium/sdk/server';
import { and, desc, eq } from 'drizzle-orm';
import { ApiError, notFound, z, type AtriumRouter, type Queryable } from '@atrium/sdk/server';
import { resolveDefinition, type ResolvedDefinition, type ResolvedRiskType } from '../catalog/resolve.js';
import { product, productVersion } from '../tables.js';

/**
 * Where a definition route points: the product in the path, the version in `version_id` (without it,
 * the product's draft, else its highest-numbered version), and optionally a risk type of that
 * version. Shared by the rate-table, calculation, transfer, difference and mapping routes.
 */
export const id = z.coerce.number().int().min(1).max(2147483647);
export const versionQuery = z.object({ version_id: id.optional() });
export const productParams = z.strictObject({ product: id });
export const riskTypeParams = z.strictObject({ product: id, riskType: id });

export interface ProductRow {
  id: number;
  name: string;
  label: string;
  lineId: number;
  parentProductId: number | null;
}

export async function findProduct(db: Queryable, productId: number): Promise<ProductRow> {
  const [row] = await db
    .select({
      id: product.id,
      name: product.name,
      label: product.label,
      lineId: product.lineId,
      parentProductId: product.parentProductId,
    })
    .from(product)
    .where(eq(product.id, productId))
    .limit(1);
  if (!row) throw notFound(`Product ${productId} not found.`);
  return row;
}

/** The version a request means: `version_id` (which must be one of the product's), else the draft, else the latest. */
export async function versionOf(db: Queryable, productId: number, versionId: number | undefined): Promise<number> {
  await findProduct(db, productId);
  if (versionId !== undefined) {
    const [row] = await db
      .select({ id: productVersion.id })
      .from(productVersion)
      .where(and(eq(productVersion.id, versionId), eq(productVersion.productId, productId)))
      .limit(1);
    if (!row) throw notFound(`Version ${versionId} of product ${productId} not found.`);
    return row.id;
  }
  const rows = await db
    .select({ id: productVersion.id, status: productVersion.status })
    .from(productVersion)
    .where(eq(productVersion.productId, productId))
    .orderBy(desc(productVersion.number));
  const chosen = rows.find((r) => r.status === 'draft') ?? rows[0];
  if (!chosen) throw notFound(`Product ${productId} has no version.`);
  return chosen.id;
}

/** A risk type the version sees (its own or inherited), by the id in the path. */
export function riskTypeIn(definition: ResolvedDefinition, riskTypeId: number): ResolvedRiskType {
  const byId = definition.riskTypes.find((t) => t.row.id === riskTypeId);
  if (byId) return byId;
  // An overridden ancestor row: the id names a risk type that the version sees under the same name.
  const row = definition.riskTypeRowsById.get(riskTypeId);
  const byName = row && definition.riskTypes.find((t) => t.row.name.toLowerCase() === row.name.toLowerCase());
  if (byName) return byName;
  throw notFound(`Risk type ${riskTypeId} not found in version ${definition.chain[0]!.id}.`);
}

export async function definitionOf(db: Queryable, versionId: number, rateRows = false): Promise<ResolvedDefinition> {
  return resolveDefinition(db, versionId, { rateRows });
}

// The SDK's: this module's callers import it from here.
export { isUniqueViolation };

export async function withUniqueCheck<T>(write: () => Promise<T>, duplicate: () => ApiError): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate();
    throw error;
  }
}

export const UPLOAD_LIMIT = 10 * 1024 * 1024;

/**
 * A child scope of the lines router that reads multipart/form-data (and CSV/TSV/XLSX bodies) as a
 * Buffer, so upload routes of this module do not clash with another part's parsers.
 */
export async function uploadScope(router: AtriumRouter, register: (scope: AtriumRouter) => void): Promise<void> {
  await router.register(async (scope) => {
    scope.addContentTypeParser(
      [
        'multipart/form-data',
        'text/csv',
        'text/tab-separated-values',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/octet-stream',
      ],
      { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT },
      (_request, body, done) => done(null, body),
    );
    register(scope as unknown as AtriumRouter);
  });
}
