import { asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import { product, productVersion } from '../tables.js';
import type { ProductRow, VersionDbRow } from './scope.js';

/** Which statuses a version may move to with PATCH …/status/ (retired versions come back with reinstate). */
export const NEXT_STATUSES: Record<VersionDbRow['status'], VersionDbRow['status'][]> = {
  draft: ['published'],
  published: ['retired'],
  retired: [],
};

export function versionOut(row: VersionDbRow) {
  return {
    id: row.id,
    product_id: row.productId,
    number: row.number,
    label: row.label,
    status: row.status,
    effective_date: row.effectiveDate,
    editable: row.status === 'draft',
    allowed_statuses: NEXT_STATUSES[row.status],
    can_reinstate: row.status === 'retired',
    parent_version_id: row.parentVersionId,
    copied_from_version_id: row.copiedFromVersionId,
    premium_rounding: { places: row.premiumRoundingPlaces, mode: row.premiumRoundingMode },
    published_at: row.publishedAt?.toISOString() ?? null,
    retired_at: row.retiredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ProductOut {
  id: number;
  name: string;
  label: string;
  description: string;
  line_id: number;
  parent_product_id: number | null;
  depth: number;
  settings: ProductRow['settings'];
  versions: ReturnType<typeof versionOut>[];
  children: ProductOut[];
}

/**
 * Products with their versions and their child products nested (up to the 3 levels products have).
 * `rows` are the products to present; their descendants are loaded here.
 */
export async function productsOut(db: Queryable, rows: ProductRow[]): Promise<ProductOut[]> {
  if (rows.length === 0) return [];
  // Load the descendants level by level (at most two more levels).
  const all = new Map(rows.map((row) => [row.id, row]));
  let frontier = rows.map((row) => row.id);
  for (let level = 0; level < 3 && frontier.length > 0; level++) {
    const children = await db.select().from(product).where(inArray(product.parentProductId, frontier));
    frontier = children.filter((child) => !all.has(child.id)).map((child) => child.id);
    for (const child of children) all.set(child.id, child);
  }
  const versions = await db
    .select()
    .from(productVersion)
    .where(inArray(productVersion.productId, [...all.keys()]))
    .orderBy(asc(productVersion.number));
  const build = (row: ProductRow, depth: number): ProductOut => ({
    id: row.id,
    name: row.name,
    label: row.label,
    description: row.description,
    line_id: row.lineId,
    parent_product_id: row.parentProductId,
    depth: row.depth,
    settings: row.settings,
    versions: versions.filter((v) => v.productId === row.id).map(versionOut),
    children:
      depth >= 3
        ? []
        : [...all.values()]
            .filter((child) => child.parentProductId === row.id)
            .sort((a, b) => a.id - b.id)
            .map((child) => build(child, depth + 1)),
  });
  return rows.map((row) => build(row, row.depth));
}

export async function productOut(db: Queryable, productId: number): Promise<ProductOut> {
  const [row] = await db.select().from(product).where(eq(product.id, productId));
  return (await productsOut(db, [row!]))[0]!;
}
