import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { fieldError, notFound, z, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { line, product, productVersion } from '../tables.js';
import { MAX_INT } from './scope.js';

/**
 * Lines of business: `GET/POST lines/lines/`, `GET/PATCH lines/lines/{line}/` ({line}: id or name).
 * Each line shows its latest product (the newest top-level product) with that product's latest version.
 */
const tags = ['lines'];

const lineName = z
  .string()
  .trim()
  .min(1, 'A line needs a name.')
  .max(100)
  .regex(/^[a-z][a-z0-9_-]*$/, "A line name uses lower-case letters, digits, '_' and '-', starting with a letter.");
const createBody = z.strictObject({
  name: lineName,
  label: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
});
const patchBody = z.strictObject({
  name: lineName.optional(),
  label: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  id: z.number().int().optional(),
});
const lineParams = z.strictObject({ line: z.string().trim().min(1).max(200) });
const listQuery = z.strictObject({ search: z.string().max(200).optional(), name: z.string().max(200).optional() });

type LineRow = typeof line.$inferSelect;

async function findLine(db: Queryable, ref: string): Promise<LineRow> {
  const where = /^\d+$/.test(ref)
    ? Number(ref) <= MAX_INT
      ? eq(line.id, Number(ref))
      : sql`false`
    : sql`lower(${line.name}) = lower(${ref})`;
  const [row] = await db.select().from(line).where(where).limit(1);
  if (!row) throw notFound(/^\d+$/.test(ref) ? `Line ${ref} not found.` : `Line '${ref}' not found.`);
  return row;
}

async function toLinesOut(db: Queryable, rows: LineRow[]) {
  if (rows.length === 0) return [];
  const products = await db
    .select({ id: product.id, lineId: product.lineId, name: product.name, label: product.label })
    .from(product)
    .where(
      and(
        inArray(
          product.lineId,
          rows.map((r) => r.id),
        ),
        isNull(product.parentProductId),
      ),
    )
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
    .where(
      inArray(
        product.lineId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(product.lineId);
  return rows.map((row) => {
    const latest = products.find((p) => p.lineId === row.id);
    const latestVersion = latest ? versions.find((v) => v.productId === latest.id) : undefined;
    return {
      id: row.id,
      name: row.name,
      label: row.label,
      description: row.description,
      products_count: counts.find((c) => c.lineId === row.id)?.n ?? 0,
      latest_product: latest
        ? {
            id: latest.id,
            name: latest.name,
            label: latest.label,
            latest_version: latestVersion
              ? {
                  id: latestVersion.id,
                  number: latestVersion.number,
                  label: latestVersion.label,
                  status: latestVersion.status,
                }
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

export function lineRoutes(router: AtriumRouter, db: Database) {
  router.get(
    '/lines/lines/',
    {
      config: { access: LINES_PERMISSIONS.line.read },
      schema: { summary: 'Lists lines (search: name or label contains, any case).', tags, querystring: listQuery },
    },
    async (request) => {
      const search = (request.query.search ?? request.query.name)?.trim();
      const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
      const rows = await db
        .select()
        .from(line)
        .where(pattern ? sql`(${line.name} ilike ${pattern} or ${line.label} ilike ${pattern})` : undefined)
        .orderBy(asc(line.label), asc(line.id));
      return { count: rows.length, results: await toLinesOut(db, rows) };
    },
  );

  router.get(
    '/lines/lines/:line/',
    {
      config: { access: LINES_PERMISSIONS.line.read },
      schema: { summary: 'One line by id or name, with its latest product.', tags, params: lineParams },
    },
    async (request) => (await toLinesOut(db, [await findLine(db, request.params.line)]))[0],
  );

  router.post(
    '/lines/lines/',
    {
      config: { access: LINES_PERMISSIONS.line.create },
      schema: { summary: 'Creates a line.', tags, body: createBody },
    },
    async (request, reply) => {
      const body = request.body;
      await assertNameFree(db, body.name);
      const [row] = await db
        .insert(line)
        .values({ name: body.name, label: body.label ?? body.name, description: body.description ?? '' })
        .returning();
      reply.code(201);
      return (await toLinesOut(db, [row!]))[0];
    },
  );

  router.patch(
    '/lines/lines/:line/',
    {
      config: { access: LINES_PERMISSIONS.line.update },
      schema: { summary: 'Changes a line’s name, label or description.', tags, params: lineParams, body: patchBody },
    },
    async (request) => {
      const existing = await findLine(db, request.params.line);
      const body = request.body;
      if (body.name !== undefined) await assertNameFree(db, body.name, existing.id);
      const [row] = await db
        .update(line)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          updatedAt: new Date(),
        })
        .where(eq(line.id, existing.id))
        .returning();
      return (await toLinesOut(db, [row!]))[0];
    },
  );
}
