import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { ApiError, type MailRecord, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { QUOTE_LOOKUP } from '@atrium/plugin-quote/lookup';
import type { QuoteDocument, QuoteDocuments } from '../../shared/quote-documents.js';
import { emailStateOf, mailStates } from '../delivery/delivery-states.js';
import { emailDocument } from '../delivery/email-document.js';
import { gatherInputs } from '../library/inputs.js';
import { rendererVersion } from '../render/pool.js';
import { poolFor, renderOn } from '../render/shared-pool.js';
import { productionDocument, template, version } from '../tables.js';
import { noVersionInForce, versionInForce } from '../version-in-force.js';

/** What quote documents are stored as: one production document per render, this purpose, record `quote`. */
export const QUOTE_DOCUMENT_PURPOSE = 'quote-document';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * DOCUMENT_QUOTE_DOCUMENTS (shared/quote-documents.ts): the quote documents (templates written for a
 * quote, with a published version) and their latest production document per quote; producing one
 * renders it with the quote's data from the quote module's QUOTE_LOOKUP and, with an address,
 * e-mails it exactly as a production document is e-mailed (delivery/email-document.ts).
 */
export function quoteDocumentsService(context: ServerPluginContext): QuoteDocuments {
  const { db } = context;

  const lookup = () => {
    const service = context.optionalService(QUOTE_LOOKUP);
    if (!service) throw new ApiError(422, 'The quote module is not installed.');
    return service;
  };

  /** Templates written for a quote that have a published version, by name. */
  async function quoteTemplates(tx: Queryable) {
    return tx
      .select({ id: template.id, name: template.name, description: template.description })
      .from(template)
      .where(
        and(
          eq(template.subject, 'quote'),
          inArray(
            template.id,
            tx.select({ id: version.templateId }).from(version).where(eq(version.status, 'published')),
          ),
        ),
      )
      .orderBy(asc(template.name));
  }

  async function latestDocuments(tx: Queryable, quoteNumber: string, templateIds: number[]) {
    if (templateIds.length === 0) return new Map<number, typeof productionDocument.$inferSelect>();
    const rows = await tx
      .select()
      .from(productionDocument)
      .where(
        and(
          eq(productionDocument.recordType, 'quote'),
          eq(productionDocument.recordId, quoteNumber),
          inArray(productionDocument.templateId, templateIds),
        ),
      )
      .orderBy(desc(productionDocument.id))
      .limit(200);
    const latest = new Map<number, (typeof rows)[number]>();
    for (const row of rows) if (!latest.has(row.templateId)) latest.set(row.templateId, row);
    return latest;
  }

  /** A template and its latest document, with that document's last mail (`mails`: by mail id). */
  function view(
    tpl: { id: number; name: string; description: string },
    doc: typeof productionDocument.$inferSelect | undefined,
    mails: Map<number, MailRecord>,
  ): QuoteDocument {
    if (!doc) return { templateId: tpl.id, name: tpl.name, description: tpl.description, document: null };
    const mail = emailStateOf(mails, doc.lastMailId);
    return {
      templateId: tpl.id,
      name: tpl.name,
      description: tpl.description,
      document: {
        id: doc.id,
        title: `${tpl.name} (${doc.documentDate})`,
        pageCount: doc.pageCount,
        documentDate: doc.documentDate,
        createdAt: doc.createdAt.toISOString(),
        createdBy: doc.createdBy,
        pdfUrl: `/api/documents/production-documents/${doc.id}/pdf/`,
        emailState: mail.email_state,
        emailNote: mail.email_note,
        emailedTo: mail.emailed_to,
        emailedAt: mail.emailed_at,
      },
    };
  }

  return {
    async listFor(tx, { quoteNumber, caller }) {
      const source = await lookup().quoteDocumentSource(tx, quoteNumber, caller);
      if (!source) throw new ApiError(404, `Quote ${quoteNumber} not found.`);
      const templates = await quoteTemplates(tx);
      const latest = await latestDocuments(
        tx,
        quoteNumber,
        templates.map((t) => t.id),
      );
      const mails = await mailStates(
        context,
        [...latest.values()].map((d) => d.lastMailId),
      );
      return {
        mailConfigured: context.mail.configured,
        insuredEmail: source.insuredEmail,
        documents: templates.map((t) => view(t, latest.get(t.id), mails)),
      };
    },

    async produce(tx, { quoteNumber, name, email, caller, createdBy }) {
      const source = await lookup().quoteDocumentSource(tx, quoteNumber, caller);
      if (!source) throw new ApiError(404, `Quote ${quoteNumber} not found.`);
      const tpl = (await quoteTemplates(tx)).find((t) => t.name === name);
      if (!tpl) {
        throw new ApiError(422, `There is no quote document named "${name}".`, {
          source: { pointer: '/data/attributes/name' },
        });
      }
      const chosen = await versionInForce(tx, tpl.id, source.effectiveDate);
      if (!chosen) {
        throw new ApiError(422, noVersionInForce(tpl.name, source.effectiveDate), {
          source: { pointer: '/data/attributes/name' },
        });
      }
      const { inputs, files } = await gatherInputs(tx, chosen.source);
      const result = await renderOn(poolFor(db), {
        source: chosen.source,
        data: source.data,
        format: 'pdf',
        date: source.effectiveDate,
        files,
      });
      const pdf = result.pdf!;
      const [inserted] = await tx
        .insert(productionDocument)
        .values({
          templateId: tpl.id,
          versionId: chosen.id,
          documentDate: source.effectiveDate,
          data: source.data,
          rendererVersion: rendererVersion(),
          sha256: sha256(pdf),
          pageCount: result.pageCount,
          pdfBase64: pdf.toString('base64'),
          recordType: 'quote',
          recordId: source.number,
          agentContactId: source.agentContactId,
          agencyContactId: source.agencyContactId,
          createdBy,
          purpose: QUOTE_DOCUMENT_PURPOSE,
          inputs,
        })
        .returning();
      if (!email) return view(tpl, inserted!, new Map());
      const mail = await emailDocument(context, tx, {
        documentId: inserted!.id,
        title: `${tpl.name} (${inserted!.documentDate})`,
        pdfBase64: inserted!.pdfBase64,
        to: [email],
        cc: [],
        createdBy,
      });
      return view(tpl, { ...inserted!, lastMailId: mail.id }, new Map([[mail.id, mail]]));
    },
  };
}
