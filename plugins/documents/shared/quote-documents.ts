import { createServiceRef, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * The documents module's quote documents (docs/documents.md, "Quote documents"), for the quote
 * module's `GET` and `POST /quote/{number}/documents/`. A quote document is a template written for
 * a quote (subject `quote`, e.g. "Quote summary"); documents renders it with the quote's data, asked
 * of the quote module's `quote.lookup` (documents never reads quote's tables), stores the production
 * document (record `quote`, the quote's book) and e-mails it through the platform mail service.
 * The quote module checks its own permission on the quote first; documents trusts that check.
 */
export interface QuoteDocument {
  templateId: number;
  /** The template's name: what `POST …/documents/` names (`name`). */
  name: string;
  description: string;
  /** The latest production document of this template for the quote, with its last e-mail; null before the first. */
  document: {
    id: number;
    title: string;
    pageCount: number;
    documentDate: string;
    createdAt: string;
    createdBy: string;
    /** Where the PDF is read (the documents module's route; reads follow the quote's scope). */
    pdfUrl: string;
    emailState: 'queued' | 'sending' | 'sent' | 'failed' | null;
    emailNote: string | null;
    emailedTo: string[];
    emailedAt: string | null;
  } | null;
}

export interface QuoteDocumentsList {
  /** false: no mail server is configured; mails wait in the outbox (say so on screen). */
  mailConfigured: boolean;
  /** The first named insured's e-mail, when the insured is a contact with one (the dialog's default). */
  insuredEmail: string | null;
  documents: QuoteDocument[];
}

export type QuoteDocuments = {
  /** The quote documents that can be made (templates for quotes with a published version) and the latest of each. */
  listFor(tx: Queryable, input: { quoteNumber: string; caller: { principal: unknown } }): Promise<QuoteDocumentsList>;
  /**
   * Renders the quote document `name` for the quote now (the version effective on the quote's
   * effective date) and, with `email`, e-mails it; answers the document as listed. 422 in words when
   * there is no such quote document, no version in effect, or the quote cannot be read.
   */
  produce(
    /** The caller's transaction: the production document and its mail are written in it (both or neither). */
    tx: Queryable,
    input: {
      quoteNumber: string;
      name: string;
      email: string | null;
      caller: { principal: unknown };
      createdBy: string;
    },
  ): Promise<QuoteDocument>;
};

export const DOCUMENT_QUOTE_DOCUMENTS: ServiceRef<QuoteDocuments> =
  createServiceRef<QuoteDocuments>('documents.quote-documents');
