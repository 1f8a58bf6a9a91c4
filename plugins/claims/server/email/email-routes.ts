import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  defineResource,
  MAIL_LIMITS,
  MAIL_NOT_CONFIGURED,
  mailAddressSchema,
  mailSubjectSchema,
  resourceDocument,
  serializeDocument,
  z,
  type AtriumRouter,
  type MailAttachmentInput,
  type MailRecord,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { loadClaimFor } from '../core/claim-access.js';
import { callerOf, security, tags, writeAudit } from '../core/http-kit.js';
import { CONTACT_RECORDS } from '@atrium/plugin-contacts/records';
import { attachment, attachmentFolder, party } from '../core/tables.js';

/**
 * Claim outbound e-mail (the activity sidebar's "Claim Outbound Email"), on the platform mail
 * service (docs/mail.md): mails are stored with plugin `claims` and the claim id as reference.
 *
 * GET  claims/{id}/emails/             the claim's mails, newest first, with delivery status
 * POST claims/{id}/emails/             compose: to/cc/bcc, subject, body, claim attachments by id
 * GET  claims/{id}/emails/recipients/  addresses to suggest: the claim's parties, and contacts
 *                                      matching filter[search] (3 characters or more, spec)
 * GET  claims/{id}/emails/attachments/ the claim's attachments that can be attached
 * POST claims/{id}/emails/{emailId}/send-again/  a mail that failed for good, sent again
 *
 * A claim the caller may not read is a 404 like a missing one; sending lands in the audit log.
 */
const PLUGIN = 'claims';
/** Spec: "Contact email search starts at 3 characters". */
export const CONTACT_SEARCH_MIN_LENGTH = 3;
const idParams = z.strictObject({ id: z.string().max(20) });
const emailParams = z.strictObject({ id: z.string().max(20), emailId: z.string().max(20) });

const emailResource = defineResource<MailRecord>({
  type: 'claim-email',
  id: (mail) => String(mail.id),
  attributes: (mail) => ({
    to: mail.to,
    cc: mail.cc,
    bcc: mail.bcc,
    subject: mail.subject,
    body: mail.text ?? '',
    status: mail.status,
    attempts: mail.attempts,
    last_error: mail.lastError,
    next_attempt_at: mail.nextAttemptAt,
    sent_at: mail.sentAt,
    created_by: mail.createdBy,
    created_at: mail.createdAt,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      content_type: a.contentType,
      size: a.size,
      attachment_id: a.reference?.startsWith('attachment:') ? a.reference.slice('attachment:'.length) : null,
    })),
  }),
});

interface Recipient {
  email: string;
  name: string;
  source: 'party' | 'contact';
  role: string | null;
}
const recipientResource = defineResource<Recipient>({
  type: 'email-recipient',
  id: (r) => `${r.source}:${r.email}`,
  attributes: (r) => ({ email: r.email, name: r.name, source: r.source, role: r.role }),
});

const attachableResource = defineResource<{
  id: number;
  name: string;
  mimeType: string;
  size: number;
  folder: string;
}>({
  type: 'attachment',
  id: (row) => String(row.id),
  attributes: (row) => ({ name: row.name, mime_type: row.mimeType, size: row.size, folder: row.folder }),
});

const addressList = (max: number) => z.array(mailAddressSchema).max(max, `At most ${max} recipients.`);
const composeBody = resourceDocument('claim-email', {
  to: addressList(MAIL_LIMITS.recipients),
  cc: addressList(MAIL_LIMITS.recipients).optional(),
  bcc: addressList(MAIL_LIMITS.recipients).optional(),
  subject: mailSubjectSchema,
  body: z.string().max(MAIL_LIMITS.bodyLength, `The message is longer than ${MAIL_LIMITS.bodyLength} characters.`),
  attachment_ids: z
    .array(z.string().regex(/^[1-9][0-9]{0,9}$/, 'Not an attachment id.'))
    .max(MAIL_LIMITS.attachments, `At most ${MAIL_LIMITS.attachments} attachments.`)
    .optional(),
});

/** Attaching files also needs claims:attachment read: mailing a file is reading it. */
async function requireAttachmentRead(context: ServerPluginContext, request: FastifyRequest): Promise<void> {
  const evaluator = context.services.evaluator;
  const allowed =
    !!evaluator &&
    !!request.principal &&
    (await evaluator.evaluate(request.principal, claimsPermission('attachment', 'read'))).allowed;
  if (!allowed) throw new ApiError(403, "Forbidden resource can't be accessed.");
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A claim's attachments (the folders of its number), by folder and name, without their bytes. */
export function claimAttachments(db: Queryable, claimNumber: string) {
  return db
    .select({
      id: attachment.id,
      name: attachment.name,
      mimeType: attachment.mimeType,
      size: attachment.size,
      folder: attachmentFolder.name,
      createdAt: attachment.createdAt,
    })
    .from(attachment)
    .innerJoin(attachmentFolder, eq(attachmentFolder.id, attachment.folderId))
    .where(eq(attachmentFolder.referenceId, claimNumber))
    .orderBy(asc(attachmentFolder.name), asc(attachment.name), asc(attachment.id));
}

/** What a claim mail is made of, from the compose screen or the classic gateway's `email_files`. */
export interface ClaimMailInput {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  body?: string;
  attachmentIds?: string[];
}

/**
 * Queues a mail about a claim the caller may read (checked by the caller): validates recipients,
 * subject and body, attaches the claim's own attachments only (folders of its number), and writes
 * the mail and its audit entry in one transaction. Errors name the attribute (`to`, `attachment_ids`).
 */
export async function queueClaimMail(
  context: ServerPluginContext,
  request: FastifyRequest,
  claim: { id: number; number: string },
  a: ClaimMailInput,
): Promise<MailRecord> {
  const { db, mail } = context;
  if (!a.to?.length) throw attributeError('to', 'Add at least one recipient.');
  if (a.subject === undefined) throw attributeError('subject', 'Enter a subject.');
  if (!a.body?.trim()) throw attributeError('body', 'Enter the message.');
  const { to, subject, body } = { to: a.to, subject: a.subject, body: a.body };
  const recipients = a.to.length + (a.cc?.length ?? 0) + (a.bcc?.length ?? 0);
  if (recipients > MAIL_LIMITS.recipients)
    throw attributeError('to', `A mail may have at most ${MAIL_LIMITS.recipients} recipients.`);

  // Only the claim's own attachments (folders referenced by its number) can be sent.
  const ids = [...new Set((a.attachmentIds ?? []).map(Number))];
  if (ids.length) await requireAttachmentRead(context, request);
  const rows = ids.length
    ? await db
        .select({
          id: attachment.id,
          name: attachment.name,
          mimeType: attachment.mimeType,
          size: attachment.size,
          content: attachment.content,
          storageKey: attachment.storageKey,
        })
        .from(attachment)
        .innerJoin(attachmentFolder, eq(attachmentFolder.id, attachment.folderId))
        .where(and(inArray(attachment.id, ids), eq(attachmentFolder.referenceId, claim.number)))
    : [];
  (a.attachmentIds ?? []).forEach((raw, index) => {
    if (!rows.some((r) => r.id === Number(raw)))
      throw new ApiError(400, `Attachment ${raw} is not one of claim ${claim.number}'s attachments.`, {
        source: { pointer: `/data/attributes/attachment_ids/${index}` },
      });
  });
  const total = rows.reduce((sum, r) => sum + r.size, 0);
  if (total > MAIL_LIMITS.attachmentBytes)
    throw attributeError(
      'attachment_ids',
      `The attachments come to more than ${MAIL_LIMITS.attachmentBytes / 1024 / 1024} MB, too large for one mail.`,
    );
  const files: MailAttachmentInput[] = [];
  for (const id of ids) {
    const row = rows.find((r) => r.id === id)!;
    let content = row.content;
    if (!content && row.storageKey) {
      const stored = await context.storage.get(row.storageKey);
      if (!stored) throw new ApiError(409, `The file of attachment ${row.name} is missing from storage.`);
      content = await readAll(stored.body);
    }
    files.push({
      filename: row.name,
      contentType: row.mimeType,
      content: content ?? Buffer.alloc(0),
      reference: `attachment:${row.id}`,
    });
  }

  const username = callerOf(request);
  const queued = await db.transaction(async (tx) => {
    const created = await mail.enqueue(tx, {
      plugin: PLUGIN,
      reference: String(claim.id),
      to,
      cc: a.cc ?? [],
      bcc: a.bcc ?? [],
      subject,
      text: body,
      attachments: files,
      createdBy: username,
    });
    await writeAudit(tx, {
      username,
      action: 'create',
      entityType: 'email',
      entityId: created.id,
      claimId: claim.id,
      after: {
        to: created.to,
        cc: created.cc,
        bcc: created.bcc,
        subject: created.subject,
        attachments: created.attachments.map((f) => f.filename),
        status: created.status,
        ...(created.lastError ? { note: created.lastError } : {}),
      },
    });
    return created;
  });
  return queued;
}

export function emailRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db, mail } = context;
  const meta = () => ({
    mail_configured: mail.configured,
    ...(mail.configured ? {} : { not_configured: MAIL_NOT_CONFIGURED }),
  });

  router.get(
    '/claims/:id/emails/',
    {
      config: { jsonapi: true, access: claimsPermission('email', 'read') },
      schema: {
        summary:
          "The claim's outbound e-mails, newest first, with status (queued, sending, sent, failed), attempts and the last error. meta.mail_configured is false while no SMTP server is configured.",
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const claim = await loadClaimFor(context, request, db, request.params.id, 'read');
      const mails = await mail.list({ plugin: PLUGIN, reference: String(claim.id) });
      return serializeDocument(emailResource, mails, { meta: { ...meta(), count: mails.length } });
    },
  );

  router.get(
    '/claims/:id/emails/recipients/',
    {
      config: { jsonapi: true, access: claimsPermission('email', 'create') },
      schema: {
        summary:
          "Addresses to suggest when composing: the claim's parties with an e-mail, and contacts whose name or e-mail contains filter[search] (from 3 characters).",
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({ 'filter[search]': z.string().trim().max(100).optional() }),
      },
    },
    async (request) => {
      const claim = await loadClaimFor(context, request, db, request.params.id, 'read');
      const search = request.query['filter[search]']?.toLowerCase() ?? '';
      const parties = await db
        .select({ email: party.email, name: party.name, role: party.role })
        .from(party)
        .where(and(eq(party.claimId, claim.id), isNotNull(party.email), ne(party.email, '')))
        .orderBy(asc(party.displayNumber));
      const recipients: Recipient[] = parties
        .filter((p) => !search || p.email!.toLowerCase().includes(search) || p.name.toLowerCase().includes(search))
        .map((p) => ({ email: p.email!, name: p.name, source: 'party', role: p.role }));
      if (search.length >= CONTACT_SEARCH_MIN_LENGTH) {
        // The contact store's contacts the caller may read (contacts.records, docs/contacts.md).
        const contacts = await context.service(CONTACT_RECORDS).suggestEmails(db, request, search, 10);
        for (const c of contacts) {
          if (!recipients.some((r) => r.email.toLowerCase() === c.email.toLowerCase()))
            recipients.push({ email: c.email, name: c.name, source: 'contact', role: null });
        }
      }
      return serializeDocument(recipientResource, recipients);
    },
  );

  router.get(
    '/claims/:id/emails/attachments/',
    {
      config: { jsonapi: true, access: claimsPermission('email', 'create') },
      schema: {
        summary:
          "The claim's attachments (in the folders of its number) that a mail can carry; needs claims:attachment read as well.",
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const claim = await loadClaimFor(context, request, db, request.params.id, 'read');
      await requireAttachmentRead(context, request);
      return serializeDocument(attachableResource, await claimAttachments(db, claim.number));
    },
  );

  router.post(
    '/claims/:id/emails/:emailId/send-again/',
    {
      config: { jsonapi: true, access: claimsPermission('email', 'create') },
      schema: {
        summary:
          "Sends a mail of the claim again that failed and is not retried any more (409 otherwise; 404 for another claim's mail). Written to the claims audit log.",
        tags,
        security,
        params: emailParams,
      },
    },
    async (request) => {
      const claim = await loadClaimFor(context, request, db, request.params.id, 'read');
      const notFound = new ApiError(404, `E-mail ${request.params.emailId} of claim ${claim.number} not found.`);
      const emailId = /^[1-9][0-9]{0,9}$/.test(request.params.emailId) ? Number(request.params.emailId) : 0;
      const existing = emailId && emailId <= 2147483647 ? await mail.get(emailId) : null;
      if (!existing || existing.plugin !== PLUGIN || existing.reference !== String(claim.id)) throw notFound;
      const username = callerOf(request);
      const again = await db.transaction(async (tx) => {
        const queued = await mail.retry(tx, emailId);
        if (!queued) throw notFound;
        await writeAudit(tx, {
          username,
          action: 'update',
          entityType: 'email',
          entityId: emailId,
          claimId: claim.id,
          before: { status: existing.status, attempts: existing.attempts, last_error: existing.lastError },
          after: { status: queued.status },
          reason: 'Sent again',
        });
        return queued;
      });
      return serializeDocument(emailResource, again, { meta: meta() });
    },
  );

  router.post(
    '/claims/:id/emails/',
    {
      config: { jsonapi: true, access: claimsPermission('email', 'create') },
      schema: {
        summary:
          "Sends an e-mail about the claim: to (required), cc, bcc, subject, body, and attachment_ids of the claim's attachments. 201 with the mail queued; a job sends it. Written to the claims audit log.",
        tags,
        security,
        params: idParams,
        body: composeBody,
      },
    },
    async (request, reply) => {
      // Record check before the transaction (see loadClaimFor).
      const claim = await loadClaimFor(context, request, db, request.params.id, 'read');
      const a = request.body.data.attributes ?? ({} as NonNullable<typeof request.body.data.attributes>);
      const queued = await queueClaimMail(context, request, claim, {
        to: a.to,
        cc: a.cc,
        bcc: a.bcc,
        subject: a.subject,
        body: a.body,
        attachmentIds: a.attachment_ids,
      });
      reply.status(201);
      return serializeDocument(emailResource, queued, { meta: meta() });
    },
  );
}
