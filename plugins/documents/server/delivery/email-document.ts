import { eq } from 'drizzle-orm';
import type { MailRecord, Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { productionDocument } from '../tables.js';

/** The platform mail reference of a production document's mails (`production-document:<id>`). */
export const mailReference = (documentId: number) => `production-document:${documentId}`;

/** A file name for the attachment: the title's words, no path or quote characters. */
export const fileNameOf = (title: string) =>
  `${
    title
      .replace(/[^A-Za-z0-9 ()-]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'document'
  }.pdf`;

/**
 * E-mails a production document through the platform mail service, in the caller's transaction: the
 * mail (plugin `documents`, reference `production-document:<id>`) with the PDF attached, and the
 * document's `last_mail_id`, whose status lists show. The one way documents are e-mailed — from the
 * production documents page and as quote documents alike. Addresses are checked by the caller.
 */
export async function emailDocument(
  context: Pick<ServerPluginContext, 'mail'>,
  tx: Queryable,
  input: {
    documentId: number;
    title: string;
    pdfBase64: string;
    to: string[];
    cc: string[];
    subject?: string;
    message?: string;
    createdBy: string;
  },
): Promise<MailRecord> {
  const message = input.message?.trim() || `Please find attached ${input.title}.\n\nThis message was sent from Atrium.`;
  const created = await context.mail.enqueue(tx, {
    plugin: 'documents',
    reference: mailReference(input.documentId),
    to: input.to,
    cc: input.cc,
    subject: input.subject ?? input.title,
    text: message,
    attachments: [
      {
        filename: fileNameOf(input.title),
        contentType: 'application/pdf',
        content: Buffer.from(input.pdfBase64, 'base64'),
        reference: mailReference(input.documentId),
      },
    ],
    createdBy: input.createdBy,
  });
  await tx
    .update(productionDocument)
    .set({ lastMailId: created.id })
    .where(eq(productionDocument.id, input.documentId));
  return created;
}
