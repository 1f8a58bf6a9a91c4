import { sql } from 'drizzle-orm';
import { notFound, type Queryable } from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { product } from '../tables.js';

/**
 * `{p}` in a scenario path may be the product's id or, as in the catalog routes, its name. This
 * runs before the path is validated and puts the id in place of a name (404 for an unknown name),
 * so the handlers only ever see ids.
 */
export function productNameToId(db: Queryable) {
  return async (request: FastifyRequest) => {
    const params = request.params as { productId?: string };
    const ref = params.productId === undefined ? undefined : decodeURIComponent(params.productId).trim();
    if (ref === undefined || /^\d+$/.test(ref) || ref.length > 200) return;
    const [row] = await db
      .select({ id: product.id })
      .from(product)
      .where(sql`lower(${product.name}) = lower(${ref})`)
      .limit(1);
    if (!row) throw notFound(`Product '${ref}' not found.`);
    params.productId = String(row.id);
  };
}
