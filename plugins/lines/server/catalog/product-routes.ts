import { and, asc, eq, ne, sql } from 'drizzle-orm';
import {
  badRequest,
  fieldError,
  notFound,
  z,
  type AtriumRouter,
  type Database,
  type Queryable,
} from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { loadProductDefinition } from '../product-definition.js';
import { line, product, productVersion } from '../tables.js';
import { productOut, productsOut, versionOut } from './product-out.js';
import { resolveDefinition } from './resolve.js';
import { findProduct, id, isoDate, productParam, versionOf, versionQuery } from './scope.js';

/**
 * Products: `GET/POST products/`, `GET/PATCH/DELETE products/{product}/` ({product}: id or name),
 * `GET products/{product}/template/` (the version's definition as the rating engine reads it).
 * A product created under a parent is a child product (at most 3 levels); its first version builds
 * on the parent's latest version and inherits everything it does not override.
 */
const tags = ['lines'];
export const MAX_PRODUCT_DEPTH = 3;

const productName = z
  .string()
  .trim()
  .min(1, 'A product needs a name.')
  .max(100)
  .regex(/^[a-z][a-z0-9_-]*$/, "A product name uses lower-case letters, digits, '_' and '-', starting with a letter.");
const settings = z
  .strictObject({
    renumberAt: z.string().trim().min(1).max(50).optional(),
    terms: z.array(z.number().int().min(1).max(120)).max(12).optional(),
    baseTerm: z.number().int().min(1).max(120).optional(),
  })
  .refine(
    (value) => value.baseTerm === undefined || value.terms === undefined || value.terms.includes(value.baseTerm),
    { message: 'The base term must be one of the terms.', path: ['baseTerm'] },
  );
const createBody = z.strictObject({
  name: productName,
  label: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  line_id: id.optional(),
  parent_product_id: id.nullable().optional(),
  settings: settings.optional(),
  effective_date: isoDate.optional(),
  version_label: z.string().trim().min(1).max(50).optional(),
});
const patchBody = z.strictObject({
  id: z.number().int().optional(),
  name: productName.optional(),
  label: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  settings: settings.optional(),
});
const params = z.strictObject({ product: productParam });
const listQuery = z.strictObject({
  line_id: id.optional(),
  name: z.string().max(200).optional(),
  parent_product_id: id.optional(),
});

async function assertNameFree(db: Queryable, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: product.id })
    .from(product)
    .where(
      and(sql`lower(${product.name}) = lower(${name})`, exceptId === undefined ? undefined : ne(product.id, exceptId)),
    )
    .limit(1);
  if (taken) throw fieldError('name', `A product named '${name}' already exists.`);
}

const today = () => new Date().toISOString().slice(0, 10);

// Hand-written, not a resource declaration: a product is created with its first draft version in one transaction (a child's builds on its parent's), read at a chosen version with its resolved risk types, and deleted only while every version is a draft — more than one table's rows.
export function productRoutes(router: AtriumRouter, db: Database) {
  router.get(
    '/lines/products/',
    {
      config: { access: LINES_PERMISSIONS.product.read },
      schema: {
        summary: 'Lists products (filters: line_id, parent_product_id, name contains) with versions and children.',
        tags,
        querystring: listQuery,
      },
    },
    async (request) => {
      const q = request.query;
      const rows = await db
        .select()
        .from(product)
        .where(
          and(
            q.line_id ? eq(product.lineId, q.line_id) : undefined,
            q.parent_product_id ? eq(product.parentProductId, q.parent_product_id) : undefined,
            q.name ? sql`${product.name} ilike ${`%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined,
          ),
        )
        .orderBy(asc(product.depth), asc(product.id));
      return { count: rows.length, results: await productsOut(db, rows) };
    },
  );

  router.get(
    '/lines/products/:product/',
    {
      config: { access: LINES_PERMISSIONS.product.read },
      schema: {
        summary: 'One product with its versions, child products, the chosen version and its risk types.',
        tags,
        params,
        querystring: versionQuery,
      },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.query.version_id);
      const definition = await resolveDefinition(db, version.id, { rateRows: false });
      return {
        ...(await productOut(db, row.id)),
        version: versionOut(version),
        risk_types: definition.riskTypes.map((t) => ({
          id: t.row.id,
          name: t.row.name,
          label: t.row.label,
          sequence: t.row.sequence,
          depth: t.depth,
          parent_risk_type: t.parentName,
          parent_risk_type_id: t.row.parentRiskTypeId,
          inheritance_status: t.inheritanceStatus,
          product_id: t.productId,
        })),
      };
    },
  );

  router.post(
    '/lines/products/',
    {
      config: { access: LINES_PERMISSIONS.product.create },
      schema: {
        summary: 'Creates a product (or a child product under parent_product_id) with a draft version 1.',
        tags,
        body: createBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await db.transaction(async (tx) => {
        await assertNameFree(tx, body.name);
        let lineId = body.line_id;
        let depth = 1;
        let parentVersionId: number | null = null;
        let effectiveDate = body.effective_date ?? today();
        if (body.parent_product_id) {
          const [parent] = await tx.select().from(product).where(eq(product.id, body.parent_product_id));
          if (!parent) throw fieldError('parent_product_id', `Product ${body.parent_product_id} not found.`);
          if (parent.depth >= MAX_PRODUCT_DEPTH) {
            throw fieldError(
              'parent_product_id',
              `Products nest at most ${MAX_PRODUCT_DEPTH} levels; ${parent.label} is already at level ${parent.depth}.`,
            );
          }
          if (lineId !== undefined && lineId !== parent.lineId) {
            throw fieldError('line_id', `A child product belongs to its parent's line (${parent.lineId}).`);
          }
          lineId = parent.lineId;
          depth = parent.depth + 1;
          const parentVersion = await versionOf(tx, parent);
          parentVersionId = parentVersion.id;
          effectiveDate = body.effective_date ?? parentVersion.effectiveDate;
        }
        if (lineId === undefined) throw fieldError('line_id', 'A product needs a line_id (or a parent_product_id).');
        const [lineRow] = await tx.select({ id: line.id }).from(line).where(eq(line.id, lineId));
        if (!lineRow) throw fieldError('line_id', `Line ${lineId} not found.`);
        const [row] = await tx
          .insert(product)
          .values({
            lineId,
            parentProductId: body.parent_product_id ?? null,
            depth,
            name: body.name,
            label: body.label ?? body.name,
            description: body.description ?? '',
            settings: body.settings ?? { terms: [12], baseTerm: 12 },
          })
          .returning();
        await tx.insert(productVersion).values({
          productId: row!.id,
          parentVersionId,
          number: 1,
          label: body.version_label ?? '1',
          status: 'draft',
          effectiveDate,
        });
        return row!;
      });
      reply.code(201);
      return productOut(db, created.id);
    },
  );

  router.patch(
    '/lines/products/:product/',
    {
      config: { access: LINES_PERMISSIONS.product.update },
      schema: { summary: 'Changes a product’s name, label, description or settings.', tags, params, body: patchBody },
    },
    async (request) => {
      const row = await findProduct(db, request.params.product);
      const body = request.body;
      if (body.name !== undefined) await assertNameFree(db, body.name, row.id);
      await db
        .update(product)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.settings !== undefined ? { settings: { ...row.settings, ...body.settings } } : {}),
          updatedAt: new Date(),
        })
        .where(eq(product.id, row.id));
      return productOut(db, row.id);
    },
  );

  router.delete(
    '/lines/products/:product/',
    {
      config: { access: LINES_PERMISSIONS.product.delete },
      schema: {
        summary: 'Deletes a product whose versions are all drafts and that has no child products.',
        tags,
        params,
      },
    },
    async (request, reply) => {
      const row = await findProduct(db, request.params.product);
      const [child] = await db
        .select({ label: product.label })
        .from(product)
        .where(eq(product.parentProductId, row.id))
        .limit(1);
      if (child) throw badRequest(`${row.label} has child products (${child.label}); delete them first.`);
      const [kept] = await db
        .select({ number: productVersion.number, status: productVersion.status })
        .from(productVersion)
        .where(and(eq(productVersion.productId, row.id), ne(productVersion.status, 'draft')))
        .limit(1);
      if (kept) {
        throw badRequest(
          `Version ${kept.number} of ${row.label} is ${kept.status}; only a product whose versions are all drafts can be deleted.`,
        );
      }
      await db.delete(product).where(eq(product.id, row.id));
      reply.code(204);
    },
  );

  router.get(
    '/lines/products/:product/template/',
    {
      config: { access: LINES_PERMISSIONS.product.read },
      schema: {
        summary: 'Template export: the version’s whole definition (inheritance resolved) as JSON.',
        tags,
        params,
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      const row = await findProduct(db, request.params.product);
      const version = await versionOf(db, row, request.query.version_id);
      if (!version) throw notFound();
      const definition = await loadProductDefinition(db, row.id, version.id);
      reply.header('content-disposition', `attachment; filename="${row.name}-v${version.number}.json"`);
      return { product: { id: row.id, name: row.name, label: row.label }, version: versionOut(version), definition };
    },
  );
}
