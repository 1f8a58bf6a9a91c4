import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  ApiError,
  MAIL_LIMITS,
  mailAddressSchema,
  mailSubjectSchema,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { can } from '../permissions.js';
import { documentView, type DocumentReads } from '../routes.js';
import { productionDocument } from '../tables.js';
import { emailDocument, mailReference } from './email-document.js';
import { mailView, PRINT_MOVES, PRINT_STATES, refusedMove, type PrintState } from './delivery-states.js';

/**
 * Print and e-mail of production documents (docs/documents.md, "Print and e-mail"):
 *
 * POST production-documents/{id}/print-state/  { state }: onto the print queue, printed, off the queue
 * GET  production-documents/{id}/emails/       the document's mails, newest first, with their status
 * POST production-documents/{id}/emails/       e-mails the PDF through the platform mail service
 *
 * Both changes are `production-document` `update` on a document within the caller's read scope
 * (outside it: 404, like a missing one). Mails are the platform's (plugin `documents`, reference
 * `production-document:<id>`); without a mail server they wait in its outbox and say so.
 */
const tags = ['documents'];
const security = [{ bearer: [] }];
const id = z.coerce.number().int().positive();
export function registerDeliveryRoutes(router: AtriumRouter, context: ServerPluginContext, reads: DocumentReads) {
  const { db, mail } = context;

  router.post(
    '/documents/production-documents/:id/print-state/',
    {
      config: { access: can('production-document', 'update') },
      schema: {
        summary: 'Puts a production document on the print queue, marks it printed, or takes it off the queue.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          state: z.enum(PRINT_STATES, { message: "The print state must be 'not_printed', 'queued' or 'printed'." }),
        }),
      },
    },
    async (request) => {
      const documentId = request.params.id;
      const to = request.body.state;
      await reads.findDocument(request, documentId);
      await db.transaction(async (tx) => {
        // Locked, so two people marking the same document at once cannot both move it.
        const [row] = await tx
          .select({ printState: productionDocument.printState })
          .from(productionDocument)
          .where(eq(productionDocument.id, documentId))
          .for('update');
        const from = (row?.printState ?? 'not_printed') as PrintState;
        if (!PRINT_MOVES[from].includes(to)) {
          throw new ApiError(409, refusedMove(documentId, from, to), { code: 'print_state', meta: { from, to } });
        }
        await tx
          .update(productionDocument)
          .set({ printState: to, printStateBy: request.principal.username, printStateAt: new Date() })
          .where(eq(productionDocument.id, documentId));
      });
      const row = await reads.findDocument(request, documentId);
      return documentView(row.doc, row);
    },
  );

  router.get(
    '/documents/production-documents/:id/emails/',
    {
      config: { access: can('production-document', 'read') },
      schema: {
        summary: "A production document's e-mails, newest first, with their delivery status.",
        tags,
        security,
        params: z.object({ id }),
      },
    },
    async (request) => {
      await reads.findDocument(request, request.params.id);
      const mails = await mail.list({ plugin: 'documents', reference: mailReference(request.params.id) });
      return {
        mail_configured: mail.configured,
        count: mails.length,
        results: mails.map(mailView),
      };
    },
  );

  router.post(
    '/documents/production-documents/:id/emails/',
    {
      config: { access: can('production-document', 'update') },
      schema: {
        summary: 'E-mails a production document (its PDF attached) through the platform mail service.',
        tags,
        security,
        params: z.object({ id }),
        body: z.strictObject({
          to: z
            .array(mailAddressSchema)
            .min(1, 'Add at least one recipient.')
            .max(MAIL_LIMITS.recipients, `A mail may have at most ${MAIL_LIMITS.recipients} recipients.`),
          cc: z
            .array(mailAddressSchema)
            .max(MAIL_LIMITS.recipients, `A mail may have at most ${MAIL_LIMITS.recipients} recipients.`)
            .default([]),
          subject: mailSubjectSchema.optional(),
          message: z.string().max(10_000, 'The message is at most 10,000 characters.').optional(),
        }),
      },
    },
    async (request, reply) => {
      const documentId = request.params.id;
      const found = await reads.findDocument(request, documentId);
      const title = documentView(found.doc, found).title;
      const body = request.body;
      const queued = await db.transaction((tx) =>
        emailDocument(context, tx, {
          documentId,
          title,
          pdfBase64: found.doc.pdfBase64,
          to: body.to,
          cc: body.cc,
          subject: body.subject,
          message: body.message,
          createdBy: request.principal.username,
        }),
      );
      reply.code(201);
      return mailView(queued);
    },
  );
}
