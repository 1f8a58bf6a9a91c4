import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  badRequest,
  formatBytes,
  newObjectKey,
  notFound,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { can } from './permissions.js';
import { quoteScope } from './quote-access.js';
import { attachment, quote } from './tables.js';
import { idParam } from './schemas.js';

const tags = ['quote'];
const security = [{ bearer: [] as string[] }];

export const ATTACHMENT_KEY_PREFIX = 'quote/attachments';
/** At most this much per file (and never more than the store's own ceiling). */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;

/** The types a quote takes (documents, pictures, spreadsheets), with a reader's name. */
export const ATTACHMENT_TYPES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/tiff': 'TIFF',
  'image/heic': 'HEIC',
  'text/plain': 'text',
  'text/csv': 'CSV',
  'application/msword': 'Word',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.ms-excel': 'Excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
};

const typeNames = [...new Set(Object.values(ATTACHMENT_TYPES))].join(', ');

type AttachmentRow = typeof attachment.$inferSelect;

/** `attachment; filename*=` with the name encoded (no header injection, any script). */
const disposition = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * Quote attachments (spec: POST and GET /quote/{number}/attachments/ {name, content_type, size,
 * source}, then a form upload to the returned url with its fields and the file; DELETE
 * attachments/{id}/). The bytes go to the platform's object storage by a direct upload ticket; the
 * row keeps name, type, size and key, and counts as uploaded once the store has the object.
 */
export function attachmentRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  const storage = context.storage;
  const maxBytes = Math.min(ATTACHMENT_MAX_BYTES, storage.maxUploadBytes);

  const findQuote = async (tx: Queryable, request: FastifyRequest, number: string, action: string) => {
    const [row] = await tx
      .select({ id: quote.id, number: quote.number })
      .from(quote)
      .where(and(eq(quote.number, number), await quoteScope(context, request.principal, action)))
      .limit(1);
    if (!row) throw notFound(`Quote ${number} not found.`);
    return row;
  };

  const present = (number: string, a: AttachmentRow) => ({
    id: a.id,
    name: a.name,
    content_type: a.contentType,
    size: a.size,
    source: a.source,
    uploaded: a.uploaded,
    url: a.uploaded ? `/api/quote/${encodeURIComponent(number)}/attachments/${a.id}/content/` : null,
    created_by: a.createdBy,
    created_at: a.createdAt.toISOString(),
  });

  /** A row still waiting for its bytes counts as uploaded once the store has them. */
  const confirm = async (a: AttachmentRow): Promise<AttachmentRow> => {
    if (a.uploaded) return a;
    const stored = await storage.head(a.storageKey);
    if (!stored) return a;
    const [updated] = await db
      .update(attachment)
      .set({ uploaded: true, size: stored.size })
      .where(eq(attachment.id, a.id))
      .returning();
    return updated ?? a;
  };

  const params = z.strictObject({ number: z.string().trim().min(1).max(40) });
  const oneParams = z.strictObject({ number: z.string().trim().min(1).max(40), id: idParam });

  router.post(
    '/quote/:number/attachments/',
    {
      config: { access: can('quote', 'update') },
      schema: {
        summary:
          'Announces an attachment (name, content_type, size, source) and answers it with an upload: POST multipart/form-data to upload.url with every upload.fields entry, then the file (part file).',
        tags,
        security,
        params,
        body: z.strictObject({
          name: z.string().trim().min(1).max(255),
          content_type: z.string().trim().toLowerCase().max(200),
          size: z.number().int().min(1).max(2_147_483_647),
          source: z.string().trim().min(1).max(50).optional(),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await findQuote(db, request, request.params.number, 'update');
      if (!ATTACHMENT_TYPES[body.content_type]) {
        throw badRequest(`Files of type ${body.content_type} cannot be attached: attach ${typeNames} files.`, {
          source: { pointer: '/content_type' },
        });
      }
      if (body.size > maxBytes) {
        throw badRequest(`The file is larger than ${formatBytes(maxBytes)}.`, { source: { pointer: '/size' } });
      }
      const ticket = await storage.createUploadTicket({
        key: newObjectKey(ATTACHMENT_KEY_PREFIX),
        contentType: body.content_type,
        maxBytes: body.size,
      });
      const [created] = await db
        .insert(attachment)
        .values({
          quoteId: row.id,
          name: body.name,
          contentType: body.content_type,
          size: body.size,
          source: body.source ?? 'upload',
          storageKey: ticket.key,
          createdBy: request.principal?.username ?? 'system',
        })
        .returning();
      reply.code(201);
      return {
        ...present(row.number, created!),
        upload: { url: ticket.url, fields: ticket.fields, max_bytes: ticket.maxBytes, expires_at: ticket.expiresAt },
      };
    },
  );

  router.get(
    '/quote/:number/attachments/',
    {
      config: { access: can('quote', 'read') },
      schema: { summary: 'The quote’s attachments, oldest first.', tags, security, params },
    },
    async (request) => {
      const row = await findQuote(db, request, request.params.number, 'read');
      const rows = await db.select().from(attachment).where(eq(attachment.quoteId, row.id)).orderBy(asc(attachment.id));
      const confirmed = await Promise.all(rows.map(confirm));
      return { results: confirmed.map((a) => present(row.number, a)) };
    },
  );

  const findAttachment = async (request: FastifyRequest, number: string, id: number, action: string) => {
    const row = await findQuote(db, request, number, action);
    const [found] = await db
      .select()
      .from(attachment)
      .where(and(eq(attachment.id, id), eq(attachment.quoteId, row.id)))
      .limit(1);
    if (!found) throw notFound(`Attachment ${id} not found.`);
    return { row, found };
  };

  router.get(
    '/quote/:number/attachments/:id/content/',
    {
      config: { access: can('quote', 'read') },
      schema: { summary: 'The bytes of an uploaded attachment.', tags, security, params: oneParams },
    },
    async (request, reply) => {
      const { found } = await findAttachment(request, request.params.number, request.params.id, 'read');
      const stored = await storage.get(found.storageKey);
      if (!stored) throw notFound(`Attachment ${found.id} has not been uploaded.`);
      if (!found.uploaded) await confirm(found);
      return reply
        .header('content-type', found.contentType)
        .header('content-disposition', disposition(found.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-length', String(stored.size))
        .send(stored.body);
    },
  );

  router.delete(
    '/quote/:number/attachments/:id/',
    {
      config: { access: can('quote', 'update') },
      schema: { summary: 'Removes an attachment and its file.', tags, security, params: oneParams },
    },
    async (request, reply) => {
      const { found } = await findAttachment(request, request.params.number, request.params.id, 'update');
      await db.delete(attachment).where(eq(attachment.id, found.id));
      await storage.delete(found.storageKey).catch((error: unknown) => {
        context.log.warn({ err: error, key: found.storageKey }, 'quote attachment file not removed');
      });
      reply.code(204);
    },
  );
}
