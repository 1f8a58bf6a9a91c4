import { createHash } from 'node:crypto';
import { asc, eq, like, sql } from 'drizzle-orm';
import { z } from 'zod';
import { conflict, fieldError, notFound, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import { can } from '../permissions.js';
import { asset, component, productionDocument, version } from '../tables.js';

/**
 * Components (reusable template source) and assets (images), docs/documents.md "Components and
 * assets". Plain JSON; an asset's bytes travel base64-encoded and never change once uploaded.
 */
const tags = ['documents'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
const MAX_ASSET_BYTES = 2 * 1024 * 1024;
const componentName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]{0,59}$/, 'A component name is lowercase letters, digits and dashes, such as address-block.');
const assetName = z
  .string()
  .trim()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,78}\.(png|jpe?g|svg)$/,
    'An asset name is lowercase letters, digits, dots and dashes ending in .png, .jpg or .svg, such as logo.png.',
  );
const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', svg: 'image/svg+xml' };

type ComponentRow = typeof component.$inferSelect;
type AssetRow = typeof asset.$inferSelect;
const componentView = (r: ComponentRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  source: r.source,
  import_line: `#import "/components/${r.name}.typ": *`,
  updated_by: r.updatedBy,
  updated_at: r.updatedAt.toISOString(),
});
const assetView = (r: AssetRow) => ({
  id: r.id,
  name: r.name,
  mime_type: r.mimeType,
  sha256: r.sha256,
  byte_size: r.byteSize,
  usage: `#image("/assets/${r.name}")`,
  created_by: r.createdBy,
  created_at: r.createdAt.toISOString(),
});

/** The file's bytes really are the image its name says (a renamed text file is refused). */
function matchesType(bytes: Buffer, mime: string): boolean {
  if (mime === 'image/png')
    return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (mime === 'image/jpeg') return bytes[0] === 0xff && bytes[1] === 0xd8;
  return /<svg[\s>]/.test(bytes.subarray(0, 4096).toString('utf8'));
}

// Hand-written, not a resource declaration: asset bytes travel base64 in and raw out, and a component or asset still imported by a template or rendered into a production document cannot be deleted.
export function registerLibraryRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  const findComponent = async (componentId: number) => {
    const [row] = await db.select().from(component).where(eq(component.id, componentId));
    if (!row) throw notFound(`Component ${componentId} not found.`);
    return row;
  };
  const findAsset = async (assetId: number) => {
    const [row] = await db.select().from(asset).where(eq(asset.id, assetId));
    if (!row) throw notFound(`Asset ${assetId} not found.`);
    return row;
  };
  /** A template version or component whose source names this path still uses it. */
  const usedIn = async (path: string) => {
    const needle = `%"${path}"%`;
    const [v] = await db.select({ id: version.id }).from(version).where(like(version.source, needle)).limit(1);
    if (v) return true;
    const [c] = await db.select({ id: component.id }).from(component).where(like(component.source, needle)).limit(1);
    return Boolean(c);
  };

  router.get(
    '/documents/components/',
    { config: { access: can('template', 'read') }, schema: { summary: 'Lists components by name.', tags, security } },
    async () => {
      const rows = await db.select().from(component).orderBy(asc(component.name));
      return { count: rows.length, results: rows.map(componentView) };
    },
  );
  router.post(
    '/documents/components/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Creates a component (templates import it as "/components/<name>.typ").',
        tags,
        security,
        body: z.strictObject({
          name: componentName,
          description: z.string().max(2000).default(''),
          source: z.string().min(1, 'A component source is required.').max(100_000),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const [clash] = await db.select({ id: component.id }).from(component).where(eq(component.name, body.name));
      if (clash) throw conflict(`A component named "${body.name}" already exists.`);
      const [row] = await db
        .insert(component)
        .values({ ...body, updatedBy: request.principal.username })
        .returning();
      reply.code(201);
      return componentView(row!);
    },
  );
  router.get(
    '/documents/components/:id/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: 'Reads a component.', tags, security, params: z.object({ id }) },
    },
    async (request) => componentView(await findComponent(request.params.id)),
  );
  router.patch(
    '/documents/components/:id/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: "Changes a component's description or source (its name is fixed: templates import it by name).",
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          description: z.string().max(2000).optional(),
          source: z.string().min(1, 'A component source is required.').max(100_000).optional(),
        }),
      },
    },
    async (request) => {
      await findComponent(request.params.id);
      const [row] = await db
        .update(component)
        .set({
          ...(request.body.description !== undefined && { description: request.body.description }),
          ...(request.body.source !== undefined && { source: request.body.source }),
          updatedBy: request.principal.username,
          updatedAt: new Date(),
        })
        .where(eq(component.id, request.params.id))
        .returning();
      return componentView(row!);
    },
  );
  router.delete(
    '/documents/components/:id/',
    {
      config: { access: can('template', 'author') },
      schema: { summary: 'Deletes a component no template imports.', tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      const row = await findComponent(request.params.id);
      if (await usedIn(`/components/${row.name}.typ`)) {
        throw conflict(`A template or component imports "${row.name}"; remove the import first.`);
      }
      await db.delete(component).where(eq(component.id, row.id));
      reply.code(204);
      return null;
    },
  );

  router.get(
    '/documents/assets/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: 'Lists assets by name, without their bytes.', tags, security },
    },
    async () => {
      const rows = await db.select().from(asset).orderBy(asc(asset.name));
      return { count: rows.length, results: rows.map(assetView) };
    },
  );
  router.post(
    '/documents/assets/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Uploads an image (PNG, JPEG or SVG, at most 2 MB, base64); templates show it as "/assets/<name>".',
        tags,
        security,
        body: z.strictObject({
          name: assetName,
          content_base64: z
            .string()
            .min(1, 'Choose an image file.')
            .max(Math.ceil((MAX_ASSET_BYTES * 4) / 3) + 4, 'An asset is at most 2 MB.')
            .regex(/^[A-Za-z0-9+/=\s]+$/, 'The file content must be base64.'),
        }),
      },
    },
    async (request, reply) => {
      const { name, content_base64 } = request.body;
      const bytes = Buffer.from(content_base64, 'base64');
      const mime = MIME[name.split('.').pop()!]!;
      if (!matchesType(bytes, mime)) {
        throw fieldError(
          'content_base64',
          `The file is not the ${mime.replace('image/', '').toUpperCase()} image its name says.`,
          422,
        );
      }
      const [clash] = await db.select({ id: asset.id }).from(asset).where(eq(asset.name, name));
      if (clash) throw conflict(`An asset named "${name}" already exists; upload the new image under a new name.`);
      const [row] = await db
        .insert(asset)
        .values({
          name,
          mimeType: mime,
          contentBase64: bytes.toString('base64'),
          sha256: createHash('sha256').update(bytes).digest('hex'),
          byteSize: bytes.length,
          createdBy: request.principal.username,
        })
        .returning();
      reply.code(201);
      return assetView(row!);
    },
  );
  router.get(
    '/documents/assets/:id/content/',
    {
      config: { access: can('template', 'read') },
      schema: { summary: "An asset's bytes.", tags, security, params: z.object({ id }) },
    },
    async (request, reply) => {
      const row = await findAsset(request.params.id);
      reply.header('content-type', row.mimeType);
      // An SVG opened directly must not run scripts in the app's origin.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      return Buffer.from(row.contentBase64, 'base64');
    },
  );
  router.delete(
    '/documents/assets/:id/',
    {
      config: { access: can('template', 'author') },
      schema: {
        summary: 'Deletes an asset no template shows and no production document was rendered with.',
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request, reply) => {
      const row = await findAsset(request.params.id);
      const [rendered] = await db
        .select({ id: productionDocument.id })
        .from(productionDocument)
        .where(sql`${productionDocument.inputs} -> 'assets' ? ${row.name}`)
        .limit(1);
      if (rendered || (await usedIn(`/assets/${row.name}`))) {
        throw conflict(`"${row.name}" is used by a template or a production document and cannot be deleted.`);
      }
      await db.delete(asset).where(eq(asset.id, row.id));
      reply.code(204);
      return null;
    },
  );
}
