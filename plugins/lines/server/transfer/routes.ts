import { and, desc, eq } from 'drizzle-orm';
import {
  ApiError,
  notFound,
  z,
  type AtriumRouter,
  type Database,
  type ProblemIssue,
  type ServerPluginContext,
  readUploadedFile,
} from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import {
  findProduct,
  id,
  isUniqueViolation,
  productParams,
  uploadScope,
  versionOf,
  versionQuery,
} from '../rate-tables/route-scope.js';
import { productExport, productImport } from '../tables.js';
import { buildProductDocument, productDocumentSchema, type ProductDocument } from './product-document.js';
import { ImportFailed, importProductDocument } from './product-import.js';

/**
 * Product exports and imports (see docs/lines-rate-tables.md, "Imports and exports").
 *
 * - `POST /lines/products/{p}/exports/?version_id` writes the version's product document (JSON) and
 *   keeps it; `GET …/exports/` lists them; `GET …/exports/{id}/` reads one, `?download=true` the file.
 * - `POST /lines/product-imports/` uploads a product document (multipart/form-data, form key `file`,
 *   or the JSON itself); it is checked at once and kept as `uploaded`.
 * - `POST /lines/product-imports/{id}/import/` (`{ overwrite }`) writes it (product-import.ts) in one
 *   transaction; `GET /lines/product-imports/{id}/` shows the status and the errors.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];

type ExportRow = typeof productExport.$inferSelect;
const exportOut = (row: ExportRow) => ({
  id: row.id,
  product_id: row.productId,
  product_version_id: row.productVersionId,
  version_id: row.productVersionId,
  status: row.status,
  format: row.format,
  file_name: row.fileName,
  errors: row.errors,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
});

type ImportRow = typeof productImport.$inferSelect;
const importOut = (row: ImportRow) => ({
  id: row.id,
  status: row.status,
  file_name: row.fileName,
  product_id: row.productId,
  product_version_id: row.productVersionId,
  overwrite: row.overwrite,
  errors: row.errors,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
});

/** Zod issues of a document as problem issues pointing into it. */
function documentIssues(error: z.ZodError): ProblemIssue[] {
  return error.issues.slice(0, 100).map((issue) => ({
    detail: issue.message,
    source: { pointer: `/${issue.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` },
    code: issue.code,
  }));
}

function readDocument(data: Buffer | unknown): ProductDocument {
  let parsed: unknown = data;
  if (Buffer.isBuffer(data)) {
    try {
      parsed = JSON.parse(data.toString('utf8').replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new ApiError(400, `The file is not a product export (JSON): ${(error as Error).message}`, {
        source: { parameter: 'file' },
        code: 'invalid_json',
      });
    }
  }
  const result = productDocumentSchema.safeParse(parsed);
  if (!result.success) {
    const issues = documentIssues(result.error);
    throw new ApiError(
      400,
      `The file is not a valid product export: ${issues[0]!.detail} (at ${(issues[0]!.source as { pointer: string }).pointer})`,
      {
        issues,
        code: 'invalid_document',
      },
    );
  }
  return result.data;
}

export function registerTransferRoutes(router: AtriumRouter, context: ServerPluginContext): Promise<void> {
  const db = context.db;
  registerExports(router, db);
  router.get(
    '/lines/product-imports/:id/',
    {
      config: { access: LINES_PERMISSIONS.import.read },
      schema: { summary: 'Reads a product import: status and errors.', tags, security, params: z.strictObject({ id }) },
    },
    async (request) => {
      const [row] = await db.select().from(productImport).where(eq(productImport.id, request.params.id)).limit(1);
      if (!row) throw notFound(`Product import ${request.params.id} not found.`);
      return importOut(row);
    },
  );

  router.post(
    '/lines/product-imports/:id/import/',
    {
      config: { access: LINES_PERMISSIONS.import.create },
      schema: {
        summary: 'Imports an uploaded product document; with overwrite, a draft of the same product is replaced.',
        tags,
        security,
        params: z.strictObject({ id }),
        querystring: z.object({ overwrite: z.enum(['true', 'false']).optional() }),
        body: z.strictObject({ overwrite: z.boolean().optional() }).optional(),
      },
    },
    async (request) => {
      const [row] = await db.select().from(productImport).where(eq(productImport.id, request.params.id)).limit(1);
      if (!row) throw notFound(`Product import ${request.params.id} not found.`);
      if (row.status === 'imported') {
        throw new ApiError(409, `Product import ${row.id} was already imported (version ${row.productVersionId}).`);
      }
      const overwrite = request.body?.overwrite ?? request.query.overwrite === 'true';
      const doc = readDocument(row.file);
      try {
        const outcome = await db.transaction((tx) => importProductDocument(tx, doc, { overwrite }));
        const [updated] = await db
          .update(productImport)
          .set({
            status: 'imported',
            overwrite,
            productId: outcome.productId,
            productVersionId: outcome.versionId,
            errors: [],
            finishedAt: new Date(),
          })
          .where(eq(productImport.id, row.id))
          .returning();
        return { ...importOut(updated!), created: outcome.created };
      } catch (error) {
        let issues: ProblemIssue[];
        if (error instanceof ImportFailed) issues = error.issues;
        else if (isUniqueViolation(error))
          issues = [{ detail: 'The document names a risk type, field, item, rate table or calculation twice.' }];
        else if (error instanceof ApiError) issues = error.issues;
        else throw error;
        await db
          .update(productImport)
          .set({ status: 'failed', overwrite, errors: issues, finishedAt: new Date() })
          .where(eq(productImport.id, row.id));
        throw new ApiError(400, `Product import ${row.id} failed: ${issues.map((i) => i.detail).join(' ')}`, {
          issues,
          code: 'import_failed',
        });
      }
    },
  );

  return uploadScope(router, (uploads) => {
    uploads.post(
      '/lines/product-imports/',
      {
        config: { access: LINES_PERMISSIONS.import.create },
        schema: {
          summary: 'Uploads a product document (an export) to import.',
          description:
            'multipart/form-data with the file in the form key `file`, or the document as application/json. It is checked at once; a valid one is kept with status `uploaded`.',
          tags,
          security,
        },
      },
      async (request, reply) => {
        const contentType = String(request.headers['content-type'] ?? '');
        let data: unknown = request.body;
        let fileName = 'product.json';
        if (/^multipart\/form-data/i.test(contentType)) {
          const file = await readUploadedFile(request.body as Buffer, contentType);
          if (!file) {
            throw new ApiError(400, "Attach the product export in the form field 'file'.", {
              source: { parameter: 'file' },
              code: 'required',
            });
          }
          data = file.data;
          fileName = file.filename || fileName;
        } else if (!/^application\/json/i.test(contentType)) {
          throw new ApiError(
            415,
            'Upload the product export as multipart/form-data (form key file) or application/json.',
          );
        }
        const doc = readDocument(data);
        const [row] = await db
          .insert(productImport)
          .values({
            fileName,
            contentType: 'application/json',
            file: Buffer.from(JSON.stringify(doc)),
            status: 'uploaded',
            createdBy: request.principal?.username ?? null,
          })
          .returning();
        return reply.code(201).send({ ...importOut(row!), product_name: doc.product.name });
      },
    );
  });
}

function registerExports(router: AtriumRouter, db: Database) {
  router.post(
    '/lines/products/:product/exports/',
    {
      config: { access: LINES_PERMISSIONS.export.create },
      schema: {
        summary: 'Exports a product version as a JSON product document (it can be imported again).',
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
        body: z.strictObject({}).optional(),
      },
    },
    async (request, reply) => {
      const versionId = await versionOf(db, request.params.product, request.query.version_id);
      const doc = await buildProductDocument(db, versionId);
      const fileName = `${doc.product.name}-${doc.version.label}.json`.replace(/[^A-Za-z0-9._-]/g, '_');
      const [row] = await db
        .insert(productExport)
        .values({
          productId: request.params.product,
          productVersionId: versionId,
          status: 'ready',
          format: 'json',
          fileName,
          contentType: 'application/json',
          file: Buffer.from(JSON.stringify(doc, null, 2)),
          createdBy: request.principal?.username ?? null,
          finishedAt: new Date(),
        })
        .returning();
      return reply.code(201).send(exportOut(row!));
    },
  );

  router.get(
    '/lines/products/:product/exports/',
    {
      config: { access: LINES_PERMISSIONS.export.read },
      schema: {
        summary: "Lists a product's exports (of one version with version_id).",
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
      },
    },
    async (request) => {
      const versionId =
        request.query.version_id === undefined
          ? undefined
          : await versionOf(db, request.params.product, request.query.version_id);
      if (versionId === undefined) await findProduct(db, request.params.product);
      const rows = await db
        .select()
        .from(productExport)
        .where(
          and(
            eq(productExport.productId, request.params.product),
            versionId === undefined ? undefined : eq(productExport.productVersionId, versionId),
          ),
        )
        .orderBy(desc(productExport.id));
      return rows.map(exportOut);
    },
  );

  router.get(
    '/lines/products/:product/exports/:exportId/',
    {
      config: { access: LINES_PERMISSIONS.export.read },
      schema: {
        summary: 'Reads an export; with download=true, its file.',
        tags,
        security,
        params: z.strictObject({ product: id, exportId: id }),
        querystring: versionQuery.extend({ download: z.enum(['true', 'false']).optional() }),
      },
    },
    async (request, reply) => {
      const [row] = await db
        .select()
        .from(productExport)
        .where(and(eq(productExport.id, request.params.exportId), eq(productExport.productId, request.params.product)))
        .limit(1);
      if (!row || (request.query.version_id !== undefined && row.productVersionId !== request.query.version_id)) {
        await findProduct(db, request.params.product);
        throw notFound(`Export ${request.params.exportId} of product ${request.params.product} not found.`);
      }
      if (request.query.download !== 'true') return exportOut(row);
      reply.header('content-disposition', `attachment; filename="${row.fileName ?? `export-${row.id}.json`}"`);
      reply.header('cache-control', 'no-store');
      return reply.type('application/json; charset=utf-8').send(row.file);
    },
  );
}
