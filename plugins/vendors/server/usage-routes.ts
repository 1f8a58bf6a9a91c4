import { desc, eq } from 'drizzle-orm';
import { ApiError, conflict, notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { DocuSignError, type SignatureClient } from './docusign/docusign-client.js';
import { NotConnected, type VendorConnections } from './oauth/connections.js';
import { can } from './permissions.js';
import type { InvoiceSync } from './quickbooks/invoice-sync.js';
import { docusignEnvelope, quickbooksInvoice } from './tables.js';

const tags = ['vendors'];
const security = [{ bearer: [] as string[] }];

/** The file types an envelope takes, by extension (DocuSign converts them to PDF to sign). */
const DOCUMENT_EXTENSIONS = ['pdf', 'docx', 'doc', 'txt', 'html'];
/** DocuSign's own limit per document is 25 MB; base64 is a third larger. */
const MAX_DOCUMENT_BASE64 = Math.ceil((25 * 1024 * 1024 * 4) / 3);

const envelopeBody = z
  .object({
    quote_number: z.string().trim().min(1, 'This field is required.').max(50),
    document_name: z
      .string()
      .trim()
      .min(1, 'This field is required.')
      .max(200)
      .refine(
        (name) => DOCUMENT_EXTENSIONS.includes(name.split('.').pop()?.toLowerCase() ?? ''),
        `The document must be a ${DOCUMENT_EXTENSIONS.join(', ')} file.`,
      ),
    document_base64: z
      .string()
      .min(1, 'This field is required.')
      .max(MAX_DOCUMENT_BASE64, 'The document is larger than 25 MB.')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The document must be base64.'),
    signer_name: z.string().trim().min(1, 'This field is required.').max(100),
    signer_email: z.email({ error: 'Enter a valid e-mail address.' }).max(100),
  })
  .strict();

const presentInvoice = (row: typeof quickbooksInvoice.$inferSelect) => ({
  id: row.id,
  policy_id: row.policyId,
  policy_number: row.policyNumber,
  customer_name: row.customerName,
  amount: row.amount,
  environment: row.environment,
  status: row.status,
  customer_id: row.customerId,
  invoice_id: row.invoiceId,
  invoice_doc_number: row.invoiceDocNumber,
  attempts: row.attempts,
  last_error: row.lastError,
  request: row.request,
  created_at: row.createdAt.toISOString(),
  sent_at: row.sentAt?.toISOString() ?? null,
});

const presentEnvelope = (row: typeof docusignEnvelope.$inferSelect) => ({
  id: row.id,
  quote_number: row.quoteNumber,
  document_name: row.documentName,
  signer_name: row.signerName,
  signer_email: row.signerEmail,
  environment: row.environment,
  status: row.status,
  envelope_id: row.envelopeId,
  last_error: row.lastError,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  sent_at: row.sentAt?.toISOString() ?? null,
});

/**
 * What the connections are for: QuickBooks invoices for issued policies (our record of each, a sync
 * now, a retry) and DocuSign envelopes for quote documents.
 *
 * No module offers a service that hands over a quote document's bytes (documents renders templates
 * behind its own routes, quote keeps attachments in object storage behind its own), so the caller
 * sends the document with the request; `quote_number` ties the envelope to its quote.
 */
export function usageRoutes(
  router: AtriumRouter,
  db: Database,
  connections: VendorConnections,
  sync: InvoiceSync,
  signatures: () => SignatureClient,
): void {
  router.get(
    '/vendors/quickbooks/invoices/',
    {
      config: { access: can('invoice', 'read') },
      schema: { summary: 'Invoices sent (or to send) to QuickBooks, newest first.', tags, security },
    },
    async () => {
      const rows = await db.select().from(quickbooksInvoice).orderBy(desc(quickbooksInvoice.id)).limit(100);
      return { results: rows.map(presentInvoice) };
    },
  );
  router.post(
    '/vendors/quickbooks/sync',
    {
      config: { access: can('invoice', 'update') },
      schema: { summary: 'Sends the invoices due now instead of at the next poll.', tags, security },
    },
    async () => {
      const row = await connections.row('quickbooks');
      if (!row.accessTokenSealed) throw conflict('QuickBooks Online is not connected.');
      return sync.run();
    },
  );
  router.post(
    '/vendors/quickbooks/invoices/:id/retry',
    {
      config: { access: can('invoice', 'update') },
      schema: {
        summary: 'Sends a failed invoice again, with the same request ids.',
        tags,
        security,
        params: z.object({ id: z.coerce.number().int().positive({ error: 'Not an invoice id.' }) }),
      },
    },
    async (request) => {
      const [row] = await db.select().from(quickbooksInvoice).where(eq(quickbooksInvoice.id, request.params.id));
      if (!row) throw notFound(`invoice ${request.params.id} not found.`);
      if (row.status === 'sent') throw conflict('This invoice was sent already.');
      await sync.run([row.id]);
      const [after] = await db.select().from(quickbooksInvoice).where(eq(quickbooksInvoice.id, row.id));
      return presentInvoice(after!);
    },
  );

  router.get(
    '/vendors/docusign/envelopes/',
    {
      config: { access: can('envelope', 'read') },
      schema: { summary: 'Envelopes sent through DocuSign, newest first.', tags, security },
    },
    async () => {
      const rows = await db.select().from(docusignEnvelope).orderBy(desc(docusignEnvelope.id)).limit(100);
      return { results: rows.map(presentEnvelope) };
    },
  );
  router.post(
    '/vendors/docusign/envelopes/',
    {
      config: { access: can('envelope', 'create') },
      schema: {
        summary: 'Sends a quote document to one signer through DocuSign.',
        tags,
        security,
        body: envelopeBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const account = await connections.row('docusign');
      if (!account.accessTokenSealed || !account.accountId) throw conflict('DocuSign is not connected.');
      const [row] = await db
        .insert(docusignEnvelope)
        .values({
          quoteNumber: body.quote_number,
          documentName: body.document_name,
          signerName: body.signer_name,
          signerEmail: body.signer_email,
          accountId: account.accountId,
          environment: account.environment,
          createdBy: request.principal.username,
        })
        .returning();
      try {
        const sent = await signatures().sendEnvelope({
          emailSubject: `Please sign ${body.document_name} for quote ${body.quote_number}`,
          documentName: body.document_name,
          fileExtension: body.document_name.split('.').pop()!.toLowerCase(),
          documentBase64: body.document_base64,
          signerName: body.signer_name,
          signerEmail: body.signer_email,
        });
        const [updated] = await db
          .update(docusignEnvelope)
          .set({ status: sent.status, envelopeId: sent.envelopeId, sentAt: new Date() })
          .where(eq(docusignEnvelope.id, row!.id))
          .returning();
        await connections.recordSync('docusign');
        return reply.code(201).send(presentEnvelope(updated!));
      } catch (error) {
        if (!(error instanceof DocuSignError || error instanceof NotConnected)) throw error;
        await db
          .update(docusignEnvelope)
          .set({ status: 'failed', lastError: error.message })
          .where(eq(docusignEnvelope.id, row!.id));
        await connections.recordError('docusign', `Envelope for quote ${body.quote_number}: ${error.message}`);
        // The vendor, not the request, failed: a gateway error naming what DocuSign said.
        throw new ApiError(502, error.message);
      }
    },
  );
}
