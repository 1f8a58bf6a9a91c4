import { createServiceRef, type Queryable, type ServiceRef } from '@atrium/sdk/server';

/**
 * What other modules may read of quotes (the quote module owns their tables): the documents module's
 * test-data picker and quote documents. Every method takes the caller (`{ principal }`, a request)
 * and applies their record scope — the access module's conditions on `quote:quote` `read` and a
 * producer's book — so a quote the caller may not read is never answered.
 */
export interface QuoteSummary {
  number: string;
  productLabel: string;
  status: string;
  namedInsured: string | null;
}

export interface QuoteDocumentSource {
  number: string;
  /** The quote's effective date: the document's own date (it picks the template version). */
  effectiveDate: string;
  /** The first named insured's first e-mail, when the insured is a contact with one. */
  insuredEmail: string | null;
  /** The book reads of the document follow (the quote's own producers). */
  agentContactId: string | null;
  agencyContactId: string | null;
  /** The quote in the documents data-point catalogue's shape (`quote`, `agency`). */
  data: Record<string, unknown>;
}

export type QuoteLookup = {
  /** Quotes whose number or named insured contains the text, newest first, within the caller's scope. */
  searchQuotes(
    tx: Queryable,
    query: { search: string; limit: number },
    caller: { principal: unknown },
  ): Promise<QuoteSummary[]>;
  /** One quote as documents print it, or null when there is none the caller may read. */
  quoteDocumentSource(
    tx: Queryable,
    number: string,
    caller: { principal: unknown },
  ): Promise<QuoteDocumentSource | null>;
};

export const QUOTE_LOOKUP: ServiceRef<QuoteLookup> = createServiceRef<QuoteLookup>('quote.lookup');
