import { and, desc, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  declareResource,
  fieldError,
  registerResource,
  z,
  type AtriumRouter,
  type Queryable,
  type ResourceRow,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { lineShape } from '../../shared/line-shape.js';
import { line, product, productVersion } from '../tables.js';

/**
 * Lines of business: `GET/POST lines/lines/`, `GET/PATCH lines/lines/{line}/` ({line}: id or name),
 * declared once (the SDK's resource declaration). Each line shows how many products it has and its
 * latest product (the newest top-level product) with that product's latest version.
 */

/** Adds each line's product count and latest product (with its latest version) to a page of lines. */
async function withLatestProduct(db: Queryable, rows: ResourceRow[]): Promise<ResourceRow[]> {
  const ids = rows.map((r) => r.id as number);
  const products = await db
    .select({ id: product.id, lineId: product.lineId, name: product.name, label: product.label })
    .from(product)
    .where(and(inArray(product.lineId, ids), isNull(product.parentProductId)))
    .orderBy(desc(product.id));
  const versions = products.length
    ? await db
        .select({
          id: productVersion.id,
          productId: productVersion.productId,
          number: productVersion.number,
          label: productVersion.label,
          status: productVersion.status,
        })
        .from(productVersion)
        .where(
          inArray(
            productVersion.productId,
            products.map((p) => p.id),
          ),
        )
        .orderBy(desc(productVersion.number))
    : [];
  const counts = await db
    .select({ lineId: product.lineId, n: sql<number>`count(*)::int` })
    .from(product)
    .where(inArray(product.lineId, ids))
    .groupBy(product.lineId);
  return rows.map((row) => {
    const latest = products.find((p) => p.lineId === row.id);
    const version = latest ? versions.find((v) => v.productId === latest.id) : undefined;
    return {
      ...row,
      productsCount: counts.find((c) => c.lineId === row.id)?.n ?? 0,
      latestProduct: latest
        ? {
            id: latest.id,
            name: latest.name,
            label: latest.label,
            latest_version: version
              ? { id: version.id, number: version.number, label: version.label, status: version.status }
              : null,
          }
        : null,
    };
  });
}

async function assertNameFree(db: Queryable, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: line.id })
    .from(line)
    .where(and(sql`lower(${line.name}) = lower(${name})`, exceptId === undefined ? undefined : ne(line.id, exceptId)))
    .limit(1);
  if (taken) throw fieldError('name', `A line named '${name}' already exists.`);
}

export const lines = declareResource({
  shape: lineShape,
  table: line,
  id: { column: 'id', kind: 'integer', param: 'line', alternate: 'name', maxLength: 200, trim: true },
  permission: { resource: 'lines:line' },
  // Lines are never deleted through the API; a name taken by a racing writer is the module's 409.
  without: ['delete'],
  databaseErrors: 'router',
  updateAttributes: {
    ...Object.fromEntries(Object.entries(lineShape.attributes).map(([key, schema]) => [key, schema.optional()])),
    id: z.number().int().optional(),
  },
  toColumns: ({ id: _id, ...given }, action) =>
    action === 'create'
      ? { name: given.name, label: given.label ?? given.name, description: given.description ?? '' }
      : { ...given, updatedAt: new Date() },
  present: (row) => ({
    name: row.name,
    label: row.label,
    description: row.description,
    products_count: row.productsCount,
    latest_product: row.latestProduct,
  }),
  hooks: {
    expand: (rows, call) => withLatestProduct(call.db, rows),
    async validate(values, call) {
      if (values.name === undefined) return;
      const except = call.action === 'update' ? ((await call.before())!.id as number) : undefined;
      await assertNameFree(call.context.db, values.name as string, except);
    },
  },
  messages: { notFound: (ref) => (/^\d+$/.test(ref) ? `Line ${ref} not found.` : `Line '${ref}' not found.`) },
  openapi: {
    summary: 'lines',
    tags: ['lines'],
    summaries: {
      list: 'Lists lines (search: name or label contains, any case).',
      find: 'One line by id or name, with its latest product.',
      create: 'Creates a line.',
      update: 'Changes a line’s name, label or description.',
    },
  },
});

export function lineRoutes(router: AtriumRouter, context: ServerPluginContext) {
  registerResource(router, context, lines);
}
