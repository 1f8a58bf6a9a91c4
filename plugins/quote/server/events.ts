import type { SQL } from 'drizzle-orm';
import { defineEvent, emitEvent, eventStatement, z, type Queryable } from '@atrium/sdk/server';

/**
 * The events quote emits (docs/quote.md, "Events"), each written to the outbox in the transaction
 * of the change: a quote started, every status change (submitted for review, approved, declined,
 * abandoned, back in progress), and a bind (with the policy it issued).
 */
const quoteData = z.object({
  quote_number: z.string(),
  product_name: z.string(),
  state: z.string().nullable(),
  status: z.string(),
  /** The status before a change; null when the quote was just created. */
  from_status: z.string().nullable(),
  /** What caused it: create, submit, referral, edit, abandon, bind … */
  trigger: z.string(),
  reason: z.string().nullable(),
  policy_number: z.string().nullable(),
  agent_contact_id: z.string().nullable(),
  agency_contact_id: z.string().nullable(),
  changed_by: z.string(),
});

export const quoteCreated = defineEvent({
  topic: 'quote.quote.created',
  schemaId: 'quote.quote',
  version: '1.0.0',
  description: 'A quote was started.',
  data: quoteData,
});

export const quoteStatusChanged = defineEvent({
  topic: 'quote.quote.status-changed',
  schemaId: 'quote.quote',
  version: '1.0.0',
  description: "A quote's status changed (In Review, Approved, Declined, Abandoned, back to In Progress).",
  data: quoteData,
});

export const quoteBound = defineEvent({
  topic: 'quote.quote.bound',
  schemaId: 'quote.quote',
  version: '1.0.0',
  description: 'A quote was bound and its policy issued (`policy_number`).',
  data: quoteData,
});

export const QUOTE_EVENTS = [quoteCreated, quoteStatusChanged, quoteBound];

interface QuoteFacts {
  number: string;
  productName: string;
  state: string | null;
  status: string;
  agentContactId: string | null;
  agencyContactId: string | null;
  policyNumber?: string | null;
}

/** Writes one of the quote events for `row` in the caller's transaction. */
export function emitQuoteEvent(
  tx: Queryable,
  event: typeof quoteCreated,
  row: QuoteFacts,
  change: { from: string | null; trigger: string; reason?: string | null; by: string },
) {
  return emitEvent(tx, event, quoteEventData(row, change), { triggeringUser: change.by });
}

/**
 * One of the quote events for `row` as an outbox insert, for the caller to run inside a statement
 * of its own change (one round trip for both; checked as emitQuoteEvent checks it).
 */
export function quoteEventStatement(
  event: typeof quoteCreated,
  row: QuoteFacts,
  change: { from: string | null; trigger: string; reason?: string | null; by: string },
): SQL {
  return eventStatement(event, quoteEventData(row, change), { triggeringUser: change.by }).statement;
}

function quoteEventData(
  row: QuoteFacts,
  change: { from: string | null; trigger: string; reason?: string | null; by: string },
) {
  return {
    quote_number: row.number,
    product_name: row.productName,
    state: row.state,
    status: row.status,
    from_status: change.from,
    trigger: change.trigger,
    reason: change.reason ?? null,
    policy_number: row.policyNumber ?? null,
    agent_contact_id: row.agentContactId,
    agency_contact_id: row.agencyContactId,
    changed_by: change.by,
  };
}
