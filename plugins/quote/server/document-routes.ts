import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  mailAddressSchema,
  notFound,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { DOCUMENT_QUOTE_DOCUMENTS, type QuoteDocument } from '@atrium/plugin-documents/quote-documents';
import { can } from './permissions.js';
import { quoteScope } from './quote-access.js';
import { quoteNumberParams } from './schemas.js';
import { quote } from './tables.js';

const tags = ['quote'];
const security = [{ bearer: [] as string[] }];
const TYPE = 'quote-document';

/** A quote document as JSON:API answers it (id: the template's; the spec's attributes are `name` and `email`). */
function resource(doc: QuoteDocument) {
  const d = doc.document;
  return {
    type: TYPE,
    id: String(doc.templateId),
    attributes: {
      name: doc.name,
      description: doc.description,
      document: d && {
        id: d.id,
        title: d.title,
        page_count: d.pageCount,
        document_date: d.documentDate,
        created_at: d.createdAt,
        created_by: d.createdBy,
        pdf_url: d.pdfUrl,
        email_state: d.emailState,
        email_note: d.emailNote,
        emailed_to: d.emailedTo,
        emailed_at: d.emailedAt,
      },
    },
  };
}

/**
 * Quote documents (spec: POST /quote/{number}/documents/ with attributes name and email; the GET
 * listing is Atrium's, docs/quote.md "Documents"): the documents module makes them (a template written
 * for a quote, rendered with the quote's data) and e-mails them through the platform mail service.
 * Quote checks its own permission on the quote in the caller's book — `read` to list, `update` to
 * make and e-mail (agents, agencies and underwriters) — and calls documents' typed service.
 */
export function quoteDocumentRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;

  const documents = () => {
    const service = context.optionalService(DOCUMENT_QUOTE_DOCUMENTS);
    if (!service) throw new ApiError(422, 'The documents module is not installed; quotes have no documents.');
    return service;
  };

  const findQuote = async (request: FastifyRequest, number: string, action: 'read' | 'update') => {
    const [row] = await db
      .select({ number: quote.number })
      .from(quote)
      .where(and(eq(quote.number, number), await quoteScope(context, request.principal, action)))
      .limit(1);
    if (!row) throw notFound(`Quote ${number} not found.`);
    return row;
  };

  router.get(
    '/quote/:number/documents/',
    {
      config: { access: can('quote', 'read'), jsonapi: true },
      schema: {
        summary: "The quote's documents: each quote document that can be made, with its latest PDF and e-mail.",
        tags,
        security,
        params: quoteNumberParams,
      },
    },
    async (request) => {
      const row = await findQuote(request, request.params.number, 'read');
      const list = await documents().listFor(db, { quoteNumber: row.number, caller: request });
      return {
        data: list.documents.map(resource),
        meta: { mail_configured: list.mailConfigured, insured_email: list.insuredEmail },
      };
    },
  );

  router.post(
    '/quote/:number/documents/',
    {
      config: { access: can('quote', 'update'), jsonapi: true },
      schema: {
        summary:
          'Makes the quote document `name` from the quote as it is now and, with `email`, e-mails it (JSON:API; the mail waits in the outbox without a mail server).',
        tags,
        security,
        params: quoteNumberParams,
        body: z.strictObject({
          data: z.strictObject({
            type: z.literal(TYPE, { message: `The type must be '${TYPE}'.` }),
            attributes: z.strictObject({
              name: z.string().trim().min(1, 'Name the quote document, such as Quote summary.').max(120),
              email: mailAddressSchema.nullable().optional(),
            }),
          }),
        }),
      },
    },
    async (request, reply) => {
      const row = await findQuote(request, request.params.number, 'update');
      const { name, email } = request.body.data.attributes;
      const service = documents();
      // The document and its mail in one transaction: both or neither.
      const made = await db.transaction((tx) =>
        service.produce(tx, {
          quoteNumber: row.number,
          name,
          email: email ?? null,
          caller: request,
          createdBy: request.principal.username,
        }),
      );
      reply.code(201);
      return { data: resource(made) };
    },
  );
}
