import { and, desc, eq, sql } from 'drizzle-orm';
import { notFound, z, type AtriumRouter, type Permission, type Queryable } from '@atrium/sdk/server';
import { product, productVersion } from '../tables.js';

/** Shared pieces of the catalog routes: path parameters, the `version_id` query, product lookups. */

export const MAX_INT = 2147483647;
export const id = z.coerce.number().int().min(1).max(MAX_INT);

/** `{product}` in a path: its id or its name. */
export const productParam = z.string().trim().min(1).max(200);

/** The spec's `version_id` query; optional: reads default to the product's latest version. */
export const versionQuery = z.strictObject({ version_id: id.optional() });

/** Names a formula can use: a letter or `_`, then letters, digits and `_`. */
export const identifier = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `A ${what} needs a name.`)
    .max(100)
    .regex(
      /^[A-Za-z_][A-Za-z0-9_]*$/,
      `A ${what} name starts with a letter or '_' and holds only letters, digits and '_'.`,
    );
export const label = z.string().trim().min(1, 'A label cannot be empty.').max(200);
export const isoDate = z.iso.date('Use a date as YYYY-MM-DD.');
/** A decimal as text or number, kept as text (never a float). */
export const decimalText = z
  .union([z.string().trim(), z.number()])
  .transform((value) => String(value))
  .refine((value) => /^-?\d+(\.\d+)?$/.test(value), 'Use a decimal number such as 1000 or 0.85.');

export type ProductRow = typeof product.$inferSelect;
export type VersionDbRow = typeof productVersion.$inferSelect;

/** A product by id or name, or 404 'Product 99 not found.' */
export async function findProduct(db: Queryable, ref: string | number): Promise<ProductRow> {
  const text = String(ref).trim();
  const where = /^\d+$/.test(text)
    ? Number(text) <= MAX_INT
      ? eq(product.id, Number(text))
      : sql`false`
    : sql`lower(${product.name}) = lower(${text})`;
  const [row] = await db.select().from(product).where(where).limit(1);
  if (!row) throw notFound(/^\d+$/.test(text) ? `Product ${text} not found.` : `Product '${text}' not found.`);
  return row;
}

/**
 * The version of a product a request is about: `version_id` when given (404 when it is not one of
 * the product's versions), otherwise the product's latest version (highest number).
 */
export async function versionOf(db: Queryable, productRow: ProductRow, versionId?: number): Promise<VersionDbRow> {
  if (versionId !== undefined) {
    const [row] = await db
      .select()
      .from(productVersion)
      .where(and(eq(productVersion.id, versionId), eq(productVersion.productId, productRow.id)))
      .limit(1);
    if (!row) throw notFound(`Version ${versionId} of ${productRow.label} not found.`);
    return row;
  }
  const [latest] = await db
    .select()
    .from(productVersion)
    .where(eq(productVersion.productId, productRow.id))
    .orderBy(desc(productVersion.number))
    .limit(1);
  if (!latest) throw notFound(`${productRow.label} has no versions.`);
  return latest;
}

/** Product and version of a request in one call. */
export async function productScope(db: Queryable, ref: string | number, versionId?: number) {
  const productRow = await findProduct(db, ref);
  const version = await versionOf(db, productRow, versionId);
  return { product: productRow, version };
}

/**
 * Registers a change of a product version's row under PUT and PATCH alike (the spec's clients use
 * both), with the `version_id` query.
 */
export function putAndPatch<Params extends z.ZodType, Body extends z.ZodType>(
  router: AtriumRouter,
  path: string,
  route: { access: Permission; summary: string; params: Params; body: Body },
  handler: (request: {
    params: z.infer<Params>;
    query: z.infer<typeof versionQuery>;
    body: z.infer<Body>;
  }) => Promise<unknown>,
): void {
  const schema = { summary: route.summary, tags: ['lines'], params: route.params, querystring: versionQuery };
  for (const method of ['put', 'patch'] as const) {
    // The handler's request is typed by the same schemas, which the router cannot see through the generics.
    router[method](
      path,
      { config: { access: route.access }, schema: { ...schema, body: route.body } },
      handler as never,
    );
  }
}
