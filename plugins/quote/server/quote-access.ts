import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { recordFilterToSql, type Principal, type RecordColumns, type ServerPluginContext } from '@atrium/sdk/server';
import { quote } from './tables.js';

/**
 * Which quotes a caller may see and act on:
 * - the access module's record conditions on `quote:quote` (custom policies may add them), compiled
 *   to SQL over the attributes below;
 * - and the producers' book: an Agent sees the quotes they produce and those of their agency, an
 *   Agency those of the agency (the system policies grant agents `quote:*` without a record
 *   condition, so quote applies the book itself, as the spec's agent area says).
 */
export const quoteAccessColumns: RecordColumns = {
  number: quote.number,
  status: quote.status,
  product_name: quote.productName,
  owner: quote.owner,
  agent_contact_id: quote.agentContactId,
  agency_contact_id: quote.agencyContactId,
};

const PRODUCER_ROLES = new Set(['agent', 'agency']);

export function isProducer(principal: Principal | undefined): boolean {
  return !!principal?.effectiveRole && PRODUCER_ROLES.has(principal.effectiveRole.toLowerCase());
}

export function producerIds(principal: Principal | undefined): { contactId: string | null; agencyId: string | null } {
  const attributes = principal?.attributes ?? {};
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  return { contactId: text(attributes.contact_id), agencyId: text(attributes.agency_id) };
}

/** The producers' book of the caller (undefined: not a producer, every quote). */
export function producerScope(principal: Principal | undefined): SQL | undefined {
  if (!isProducer(principal)) return undefined;
  const { contactId, agencyId } = producerIds(principal);
  const role = principal!.effectiveRole!.toLowerCase();
  const conditions: SQL[] = [];
  if (role === 'agent' && contactId) conditions.push(eq(quote.agentContactId, contactId));
  if (agencyId) conditions.push(eq(quote.agencyContactId, agencyId));
  if (conditions.length === 0) return sql`false`;
  return or(...conditions);
}

/** The SQL condition a quote must meet for the caller to `action` it. */
export async function quoteScope(
  context: ServerPluginContext,
  principal: Principal | undefined,
  action: string,
): Promise<SQL | undefined> {
  const evaluator = context.services.evaluator;
  let filter: SQL | undefined;
  if (principal && evaluator?.recordFilter) {
    const residual = await evaluator.recordFilter(principal, { resource: 'quote:quote', action });
    if (residual !== true) filter = recordFilterToSql(residual, quoteAccessColumns);
  }
  return and(filter, producerScope(principal));
}
