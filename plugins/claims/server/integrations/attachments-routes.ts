import type { FastifyRequest } from 'fastify';
import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import {
  isUniqueViolation,
  ApiError,
  attributeError,
  defineResource,
  formatBytes,
  newObjectKey,
  resourceDocument,
  serializeDocument,
  z,
  type AtriumRouter,
  type ServerPluginContext,
  type StoredObject,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { callerOf, numericId, security, tags, writeAudit } from '../core/http-kit.js';
import { claimAccessFilter } from '../core/claim-access.js';
import { claimNumberScope } from '../core/claim-scope.js';
import { attachment, attachmentFolder, claim } from '../core/tables.js';
import { ATTACHMENT_KEY_PREFIX, REGISTER_WITHIN_MS, scheduleOrphanSweep } from './attachment-orphans-job.js';

/**
 * The attachments integration: folders (a tree per reference, e.g. a claim number) holding files.
 * File bytes live in the platform object storage (docs/storage.md) under `claims/attachments/…`;
 * the row keeps the name, type, size, SHA-256 and storage key. Rows from before object storage keep
 * their bytes in `content` and are still served from there.
 *
 * GET  integrations/attachments/{folderId}/           the folder's attachments (list_view=true: also
 *                                                     its subfolders; reference_id must match if given)
 * POST integrations/attachments/upload-tickets/       a direct-upload ticket (url + fields) for a file
 * POST integrations/attachments/                      an attachment (type attachment: storage_key of
 *                                                     an uploaded ticket, or content base64) or a
 *                                                     folder (type attachment-folder)
 * PATCH / DELETE integrations/attachments/{id}        rename / describe / delete an attachment
 * GET  integrations/attachments/{folderId}/folder-tree/   the folder and everything below it
 * PATCH integrations/attachments/{folderId}/move-attachments/  moves attachments into that folder
 * GET  integrations/attachments/{id}/content/         the file itself
 *
 * An upload that is never registered is deleted by the orphan sweep (attachment-orphans-job.ts).
 */
const BASE = '/integrations/attachments';
export { ATTACHMENT_KEY_PREFIX };
const FAILED = 'Failed to get attachments.';
const NOT_FOUND = 'Attachment not found.';

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
    sha256: row.sha256,
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

/**
 * A MIME type such as `application/pdf` or `text/plain; charset=utf-8` (RFC 9110 tokens; the SDK's
 * mimeType rule, security issue 14): what an upload declares is later a Content-Type header, so CR,
 * LF or any other control character is refused at upload. Rows stored before that are served as
 * application/octet-stream.
 */
const MIME_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}(\s*;\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\u0000-\u001f\u007f]*"|[A-Za-z0-9!#$&^_.+-]+))*$/;
const mimeTypeField = z.string().min(1).max(100).regex(MIME_TYPE, 'Use a MIME type such as application/pdf.');
export const safeContentType = (mimeType: string) => (MIME_TYPE.test(mimeType) ? mimeType : 'application/octet-stream');

const { content: _content, ...listColumns } = getTableColumns(attachment);
void _content;
const idParams = z.strictObject({ id: z.string().max(20) });
const folderIdField = z.number().int().min(1).max(2147483647);

/**
 * A download's Content-Disposition: an ASCII fallback name (quotes, backslashes, controls and
 * non-ASCII replaced) and the exact name in RFC 5987 `filename*`.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_').slice(0, 200) || 'attachment';
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

// Hand-written, not a resource declaration: attachments are a folder tree whose bytes live in object storage (upload tickets, content downloads, moves between folders), not rows of one table.
export function attachmentsRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db, storage, log } = context;
  const maxBytes = storage.maxUploadBytes;
  const tooLarge = `The file is larger than ${formatBytes(maxBytes)}.`;
  const base64 = z
    .string()
    .max(Math.ceil((maxBytes * 4) / 3) + 8, tooLarge)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Send the file base64-encoded.');
  /** After the row is gone (committed), its object goes; a failure leaves an orphan, logged. */
  const removeObject = async (key: string | null) => {
    if (!key) return;
    try {
      await storage.delete(key);
    } catch (error) {
      log.warn({ err: error, storageKey: key }, 'attachment object not deleted; it is an orphan now');
    }
  };
  // A claim's folders name it by number (reference_id): folders, and so their files, of claims the
  // caller may not read are not there for them — 404 or 'does not exist', as if missing
  // (claim-scope.ts). Asked before any transaction opens: the evaluator may read the database.
  const folderScope = (request: FastifyRequest) => claimNumberScope(context, request, attachmentFolder.referenceId);
  const inVisibleFolders = async (request: FastifyRequest) => {
    const scope = await folderScope(request);
    return scope
      ? inArray(attachment.folderId, db.select({ id: attachmentFolder.id }).from(attachmentFolder).where(scope))
      : undefined;
  };
  /** A new folder's reference may not name a claim the caller cannot read. */
  const requireVisibleReference = async (request: FastifyRequest, referenceId: string) => {
    const filter = await claimAccessFilter(context, request, 'read');
    if (!filter) return;
    const named = await db.select({ id: claim.id }).from(claim).where(eq(claim.number, referenceId)).limit(1);
    if (named.length === 0) return;
    const readable = await db
      .select({ id: claim.id })
      .from(claim)
      .where(and(eq(claim.number, referenceId), filter))
      .limit(1);
    if (readable.length === 0) throw attributeError('reference_id', `Claim ${referenceId} not found.`);
  };
  const loadFolder = async (raw: string, request: FastifyRequest) => {
    const id = numericId(raw, FAILED);
    const [row] = await db
      .select()
      .from(attachmentFolder)
      .where(and(eq(attachmentFolder.id, id), await folderScope(request)))
      .limit(1);
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
      const folder = await loadFolder(request.params.id, request);
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
    async (request) => serializeDocument(treeResource, await subtree(await loadFolder(request.params.id, request))),
  );

  router.get(
    `${BASE}/:id/content/`,
    {
      config: { access: claimsPermission('attachment', 'read') },
      schema: {
        summary:
          'The bytes of an attachment, streamed, with its content type, length and a safe file name. 404 when the attachment or its stored file is gone.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      const id = numericId(request.params.id, NOT_FOUND);
      const [row] = await db
        .select()
        .from(attachment)
        .where(and(eq(attachment.id, id), await inVisibleFolders(request)))
        .limit(1);
      if (!row) throw new ApiError(404, NOT_FOUND);
      reply
        .header('content-type', safeContentType(row.mimeType))
        .header('content-disposition', contentDisposition(row.name))
        // Uploaded bytes are never rendered as something else than their declared type.
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store');
      if (row.storageKey) {
        const stored = await storage.get(row.storageKey);
        if (!stored) throw new ApiError(404, 'The file of this attachment is missing from storage.');
        if (row.sha256) reply.header('etag', `"${row.sha256}"`);
        return reply.header('content-length', String(stored.size)).send(stored.body);
      }
      // Rows from before object storage keep their bytes in the database.
      const bytes = Buffer.from(row.content ?? new Uint8Array());
      return reply.header('content-length', String(bytes.length)).send(bytes);
    },
  );

  router.post(
    `${BASE}/upload-tickets/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'create') },
      schema: {
        summary:
          'A direct-upload ticket for one file: POST multipart/form-data to url with fields, then the file (part file), without the Authorization header; then POST integrations/attachments/ with the storage_key.',
        tags,
        security,
        body: resourceDocument('attachment-upload', {
          name: z.string().trim().min(1).max(255),
          mime_type: mimeTypeField,
          size: z.number().int().min(0).max(2147483647),
          folder_id: folderIdField,
        }),
      },
    },
    async (request, reply) => {
      const a = request.body.data.attributes;
      for (const field of ['name', 'mime_type', 'size', 'folder_id'] as const) {
        if (a?.[field] === undefined) throw attributeError(field, 'This field is required.');
      }
      if (a!.size > maxBytes) throw attributeError('size', tooLarge, 413);
      const [folder] = await db
        .select()
        .from(attachmentFolder)
        .where(and(eq(attachmentFolder.id, a!.folder_id), await folderScope(request)))
        .limit(1);
      if (!folder) throw attributeError('folder_id', 'The folder does not exist.');
      const ticket = await storage.createUploadTicket({
        key: newObjectKey(ATTACHMENT_KEY_PREFIX),
        contentType: a!.mime_type,
        // The ticket takes exactly the file announced (at least one byte, so an empty file uploads).
        maxBytes: Math.max(a!.size, 1),
      });
      await scheduleOrphanSweep(context, new Date(ticket.expiresAt));
      reply.status(201);
      return {
        data: {
          type: 'attachment-upload',
          id: ticket.key,
          attributes: {
            url: ticket.url,
            fields: ticket.fields,
            storage_key: ticket.key,
            max_bytes: ticket.maxBytes,
            expires_at: ticket.expiresAt,
          },
        },
      };
    },
  );

  router.post(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('attachment', 'create') },
      // Room for the largest file base64-encoded in a JSON document.
      bodyLimit: Math.ceil((maxBytes * 4) / 3) + 64 * 1024,
      schema: {
        summary:
          'Creates an attachment in a folder (type attachment: storage_key of a file uploaded with an upload ticket, or content base64 up to the upload limit) or a folder (type attachment-folder).',
        tags,
        security,
        body: z.union([
          resourceDocument('attachment', {
            name: z.string().trim().min(1).max(255),
            mime_type: mimeTypeField.optional(),
            content: base64.optional(),
            storage_key: z.string().min(1).max(300).optional(),
            description: z.string().max(2000).optional(),
            folder_id: folderIdField,
          }),
          resourceDocument('attachment-folder', {
            name: z.string().trim().min(1).max(255),
            parent_id: folderIdField.nullable().optional(),
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
        await requireVisibleReference(request, a.reference_id);
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
        | {
            name: string;
            mime_type?: string;
            content?: string;
            storage_key?: string;
            folder_id: number;
            description?: string;
          }
        | undefined;
      for (const field of ['name', 'folder_id'] as const) {
        if (a?.[field] === undefined) throw attributeError(field, 'This field is required.');
      }
      if ((a!.content === undefined) === (a!.storage_key === undefined)) {
        throw attributeError('storage_key', 'Send either the storage_key of an uploaded file or the content.');
      }
      if (a!.content !== undefined && !a!.mime_type) throw attributeError('mime_type', 'This field is required.');
      const [folder] = await db
        .select()
        .from(attachmentFolder)
        .where(and(eq(attachmentFolder.id, a!.folder_id), await folderScope(request)))
        .limit(1);
      if (!folder) throw attributeError('folder_id', 'The folder does not exist.');

      let stored: StoredObject;
      // Only an object this request stored is removed again when the row cannot be written.
      let storedHere = false;
      if (a!.storage_key !== undefined) {
        const key = a!.storage_key;
        const found = key.startsWith(`${ATTACHMENT_KEY_PREFIX}/`) ? await storage.head(key).catch(() => null) : null;
        if (!found) throw attributeError('storage_key', 'No file has been uploaded under this storage_key.');
        // The orphan sweep may delete it soon; registering it now could leave a row without its file.
        if (Date.now() - found.createdAt.getTime() > REGISTER_WITHIN_MS)
          throw attributeError('storage_key', 'This upload is too old to attach; upload the file again.');
        const [taken] = await db
          .select({ id: attachment.id })
          .from(attachment)
          .where(eq(attachment.storageKey, key))
          .limit(1);
        if (taken) throw attributeError('storage_key', 'This file is already attached.', 409);
        stored = found;
      } else {
        const bytes = Buffer.from(a!.content!, 'base64');
        if (bytes.length > maxBytes) throw attributeError('content', tooLarge, 413);
        stored = await storage.put(newObjectKey(ATTACHMENT_KEY_PREFIX), bytes, {
          contentType: a!.mime_type!,
          maxBytes,
        });
        storedHere = true;
      }
      try {
        const row = await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(attachment)
            .values({
              folderId: folder.id,
              name: a!.name,
              mimeType: a!.mime_type ?? stored.contentType,
              size: stored.size,
              storageKey: stored.key,
              sha256: stored.sha256,
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
      } catch (error) {
        if (storedHere) await removeObject(stored.key);
        if (isUniqueViolation(error)) throw attributeError('storage_key', 'This file is already attached.', 409);
        throw error;
      }
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
        const visible = await inVisibleFolders(request);
        const row = await db.transaction(async (tx) => {
          const [before] = await tx
            .select(listColumns)
            .from(attachment)
            .where(and(eq(attachment.id, id), visible))
            .limit(1);
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
        const id = numericId(request.params.id, NOT_FOUND);
        const visible = await inVisibleFolders(request);
        const removed = await db.transaction(async (tx) => {
          const [before] = await tx
            .delete(attachment)
            .where(and(eq(attachment.id, id), visible))
            .returning(listColumns);
          if (!before) throw new ApiError(404, NOT_FOUND);
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'delete',
            entityType: 'attachment',
            entityId: id,
            before,
          });
          return before;
        });
        // Only after the commit: a rolled-back delete must still find its file.
        await removeObject(removed.storageKey);
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
      const target = await loadFolder(request.params.id, request);
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
