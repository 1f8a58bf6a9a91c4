import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  defineResource,
  resourceDocument,
  serializeDocument,
  z,
  type AtriumRouter,
  type Database,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { callerOf, numericId, security, tags, writeAudit } from '../core/http-kit.js';
import { attachment, attachmentFolder } from '../core/tables.js';

/**
 * The attachments integration: folders (a tree per reference, e.g. a claim number) holding files.
 * File bytes live in the database (bytea, at most MAX_ATTACHMENT_BYTES each) for now; moving them to
 * object storage is a follow-up. Uploads are JSON:API documents with the bytes base64-encoded.
 *
 * GET  integrations/attachments/{folderId}/           the folder's attachments (list_view=true: also
 *                                                     its subfolders; reference_id must match if given)
 * POST integrations/attachments/                      an attachment (type attachment) or a folder
 *                                                     (type attachment-folder)
 * PATCH / DELETE integrations/attachments/{id}        rename / describe / delete an attachment
 * GET  integrations/attachments/{folderId}/folder-tree/   the folder and everything below it
 * PATCH integrations/attachments/{folderId}/move-attachments/  moves attachments into that folder
 * GET  integrations/attachments/{id}/content/         the file itself
 */
const BASE = '/integrations/attachments';
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
const FAILED = 'Failed to get attachments.';

type AttachmentRow = Omit<typeof attachment.$inferSelect, 'content'>;
type FolderRow = typeof attachmentFolder.$inferSelect;
type TreeNode = FolderRow & { children: TreeNode[] };

const attachmentResource = defineResource<AttachmentRow>({
  type: 'attachment',
  id: (row) => String(row.id),
  attributes: (row) => ({
    name: row.name,
    mime_type: row.mimeType,
    size: row.size,
    description: row.description,
    folder_id: row.folderId,
    uploaded_by: row.uploadedBy,
    created_at: row.createdAt,
  }),
});
const folderResource = defineResource<FolderRow>({
  type: 'attachment-folder',
  id: (row) => String(row.id),
  attributes: (row) => ({ name: row.name, parent_id: row.parentId, reference_id: row.referenceId }),
});
const treeResource = defineResource<TreeNode>({
  type: 'attachment-folder',
  id: (row) => String(row.id),
  attributes: (row) => ({
    name: row.name,
    parent_id: row.parentId,
    reference_id: row.referenceId,
    children: row.children.map(asTree),
  }),
});
function asTree(node: TreeNode): Record<string, unknown> {
  return { id: String(node.id), name: node.name, children: node.children.map(asTree) };
}

const { content: _content, ...listColumns } = getTableColumns(attachment);
void _content;
const idParams = z.strictObject({ id: z.string().max(20) });
const base64 = z
  .string()
  .max(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 8, 'The file is larger than 5 MB.')
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Send the file base64-encoded.');

export function attachmentsRoutes(router: AtriumRouter, db: Database): void {
  const loadFolder = async (raw: string) => {
    const id = numericId(raw, FAILED);
    const [row] = await db.select().from(attachmentFolder).where(eq(attachmentFolder.id, id)).limit(1);
    if (!row) throw new ApiError(404, FAILED);
    return row;
  };
  const subtree = async (root: FolderRow): Promise<TreeNode> => {
    const all = await db
      .select()
      .from(attachmentFolder)
      .where(eq(attachmentFolder.referenceId, root.referenceId))
      .orderBy(asc(attachmentFolder.name));
    const build = (folder: FolderRow): TreeNode => ({
      ...folder,
      children: all.filter((f) => f.parentId === folder.id).map(build),
    });
    return build(root);
  };

  router.get(
    `${BASE}/:id/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'read') },
      schema: {
        summary:
          "A folder's attachments; list_view=true also lists its subfolders. 404 'Failed to get attachments.' for an unknown folder.",
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({
          list_view: z.enum(['true', 'false']).optional(),
          reference_id: z.string().max(100).optional(),
        }),
      },
    },
    async (request) => {
      const folder = await loadFolder(request.params.id);
      if (request.query.reference_id && request.query.reference_id !== folder.referenceId)
        throw new ApiError(404, FAILED);
      const files = await db
        .select(listColumns)
        .from(attachment)
        .where(eq(attachment.folderId, folder.id))
        .orderBy(asc(attachment.name));
      const document = await serializeDocument(attachmentResource, files);
      if (request.query.list_view === 'true') {
        const folders = await db
          .select()
          .from(attachmentFolder)
          .where(eq(attachmentFolder.parentId, folder.id))
          .orderBy(asc(attachmentFolder.name));
        document.included = (await serializeDocument(folderResource, folders)).data as never;
      }
      document.meta = { folder: { id: folder.id, name: folder.name, reference_id: folder.referenceId } };
      return document;
    },
  );

  router.get(
    `${BASE}/:id/folder-tree/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'read') },
      schema: {
        summary: 'The folder and all folders below it, as a tree (children).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => serializeDocument(treeResource, await subtree(await loadFolder(request.params.id))),
  );

  router.get(
    `${BASE}/:id/content/`,
    {
      config: { access: claimsPermission('attachment', 'read') },
      schema: { summary: 'The bytes of an attachment.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const id = numericId(request.params.id, 'Attachment not found.');
      const [row] = await db.select().from(attachment).where(eq(attachment.id, id)).limit(1);
      if (!row) throw new ApiError(404, 'Attachment not found.');
      return reply
        .header('content-type', row.mimeType)
        .header('content-disposition', `attachment; filename="${row.name.replace(/["\\\r\n]/g, '_')}"`)
        .send(Buffer.from(row.content));
    },
  );

  router.post(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'create') },
      bodyLimit: MAX_ATTACHMENT_BYTES * 2,
      schema: {
        summary:
          'Uploads an attachment into a folder (type attachment, content base64, at most 5 MB) or creates a folder (type attachment-folder).',
        tags,
        security,
        body: z.union([
          resourceDocument('attachment', {
            name: z.string().trim().min(1).max(255),
            mime_type: z.string().trim().min(1).max(100),
            content: base64,
            description: z.string().max(2000).optional(),
            folder_id: z.number().int().min(1).max(2147483647),
          }),
          resourceDocument('attachment-folder', {
            name: z.string().trim().min(1).max(255),
            parent_id: z.number().int().min(1).max(2147483647).nullable().optional(),
            reference_id: z.string().trim().min(1).max(100),
          }),
        ]),
      },
    },
    async (request, reply) => {
      const data = request.body.data;
      const username = callerOf(request);
      if (data.type === 'attachment-folder') {
        const a = data.attributes as { name: string; parent_id?: number | null; reference_id: string } | undefined;
        if (!a?.name) throw attributeError('name', 'This field is required.');
        if (!a.reference_id) throw attributeError('reference_id', 'This field is required.');
        if (a.parent_id) {
          const [parent] = await db
            .select()
            .from(attachmentFolder)
            .where(eq(attachmentFolder.id, a.parent_id))
            .limit(1);
          if (!parent || parent.referenceId !== a.reference_id)
            throw attributeError('parent_id', 'The parent folder does not exist under this reference.');
        }
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(attachmentFolder)
            .values({ name: a.name, parentId: a.parent_id ?? null, referenceId: a.reference_id })
            .returning();
          await writeAudit(tx, {
            username,
            action: 'create',
            entityType: 'attachment-folder',
            entityId: created!.id,
            after: created,
          });
          return created!;
        });
        reply.status(201);
        return serializeDocument(folderResource, row);
      }
      const a = data.attributes as
        { name: string; mime_type: string; content: string; folder_id: number; description?: string } | undefined;
      for (const field of ['name', 'mime_type', 'content', 'folder_id'] as const) {
        if (a?.[field] === undefined) throw attributeError(field, 'This field is required.');
      }
      const bytes = Buffer.from(a!.content, 'base64');
      if (bytes.length > MAX_ATTACHMENT_BYTES) throw attributeError('content', 'The file is larger than 5 MB.');
      const [folder] = await db.select().from(attachmentFolder).where(eq(attachmentFolder.id, a!.folder_id)).limit(1);
      if (!folder) throw attributeError('folder_id', 'The folder does not exist.');
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(attachment)
          .values({
            folderId: folder.id,
            name: a!.name,
            mimeType: a!.mime_type,
            size: bytes.length,
            content: bytes,
            description: a!.description ?? '',
            uploadedBy: username,
          })
          .returning(listColumns);
        await writeAudit(tx, {
          username,
          action: 'create',
          entityType: 'attachment',
          entityId: created!.id,
          after: created,
        });
        return created!;
      });
      reply.status(201);
      return serializeDocument(attachmentResource, row);
    },
  );

  for (const path of [`${BASE}/:id`, `${BASE}/:id/`]) {
    router.patch(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('attachment', 'update') },
        schema: {
          summary: 'Renames or describes an attachment.',
          tags,
          security,
          params: idParams,
          body: resourceDocument(
            'attachment',
            { name: z.string().trim().min(1).max(255).optional(), description: z.string().max(2000).optional() },
            { id: 'required' },
          ),
        },
      },
      async (request) => {
        const id = numericId(request.params.id, 'Attachment not found.');
        if (request.body.data.id !== request.params.id) {
          throw new ApiError(409, 'The id in the document is not the id in the URL.', {
            source: { pointer: '/data/id' },
          });
        }
        const row = await db.transaction(async (tx) => {
          const [before] = await tx.select(listColumns).from(attachment).where(eq(attachment.id, id)).limit(1);
          if (!before) throw new ApiError(404, 'Attachment not found.');
          const [after] = await tx
            .update(attachment)
            .set(request.body.data.attributes ?? {})
            .where(eq(attachment.id, id))
            .returning(listColumns);
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'update',
            entityType: 'attachment',
            entityId: id,
            before,
            after,
          });
          return after!;
        });
        return serializeDocument(attachmentResource, row);
      },
    );
    router.delete(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('attachment', 'delete') },
        schema: { summary: 'Deletes an attachment.', tags, security, params: idParams },
      },
      async (request, reply) => {
        const id = numericId(request.params.id, 'Attachment not found.');
        await db.transaction(async (tx) => {
          const [before] = await tx.delete(attachment).where(eq(attachment.id, id)).returning(listColumns);
          if (!before) throw new ApiError(404, 'Attachment not found.');
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'delete',
            entityType: 'attachment',
            entityId: id,
            before,
          });
        });
        return reply.status(204).send();
      },
    );
  }

  router.patch(
    `${BASE}/:id/move-attachments/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'update') },
      schema: {
        summary: 'Moves attachments (ids) into this folder; every one must be under the same reference.',
        tags,
        security,
        params: idParams,
        body: z.strictObject({
          data: z
            .array(z.strictObject({ type: z.literal('attachment'), id: z.string().min(1).max(20) }))
            .min(1)
            .max(500),
        }),
      },
    },
    async (request) => {
      const target = await loadFolder(request.params.id);
      const ids = request.body.data.map((d) => (/^\d{1,9}$/.test(d.id) ? Number(d.id) : 0));
      const rows = await db.transaction(async (tx) => {
        const found = await tx
          .select({ id: attachment.id, folderId: attachment.folderId, referenceId: attachmentFolder.referenceId })
          .from(attachment)
          .innerJoin(attachmentFolder, eq(attachmentFolder.id, attachment.folderId))
          .where(inArray(attachment.id, ids));
        const index = ids.findIndex((id) => !found.some((f) => f.id === id && f.referenceId === target.referenceId));
        if (index >= 0)
          throw new ApiError(400, `Attachment ${request.body.data[index]!.id} cannot be moved here.`, {
            source: { pointer: `/data/${index}/id` },
          });
        const moved = await tx
          .update(attachment)
          .set({ folderId: target.id })
          .where(and(inArray(attachment.id, ids)))
          .returning(listColumns);
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'move',
          entityType: 'attachment-folder',
          entityId: target.id,
          before: found,
          after: { folder_id: target.id, ids },
        });
        return moved;
      });
      return serializeDocument(attachmentResource, rows);
    },
  );
}
