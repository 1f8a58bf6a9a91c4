import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { CONTACT_DIRECTORY, type QuotingPermission } from '@atrium/plugin-contacts/directory';
import { ApiError, type Principal, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { isProducer, producerIds, quoteScope } from './quote-access.js';
import type { QuoteRow } from './quote-service.js';
import { quote } from './tables.js';

export type QuotingAction = QuotingPermission['action'];

const VERB: Record<QuotingAction, string> = { quote: 'create', submit: 'submit', bind: 'bind' };

/** The contact whose quoting permissions bind the caller: an Agent's own contact, an Agency's agency. */
export function quotingContact(principal: Principal | undefined): string | null {
  if (!isProducer(principal)) return null;
  const { contactId, agencyId } = producerIds(principal);
  return principal!.effectiveRole!.toLowerCase() === 'agent' ? contactId : agencyId;
}

/** `Personal Auto`, `personal_auto` and `PERSONAL-AUTO` are one product. */
const key = (product: string) => product.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * Whether the permissions allow `action` on the product in the state (docs/quote.md, "Quoting
 * permissions"): the product matches by name or label (any case, spaces and `_` aside); a quote without a state yet
 * needs the action in at least one state.
 */
export function permits(
  grants: QuotingPermission[],
  action: QuotingAction,
  product: { name: string; label: string },
  state: string | null,
): boolean {
  const names = new Set([key(product.name), key(product.label)]);
  // Submitting and binding are decided per state: a quote without one submits and binds nowhere
  // (before, it passed on any state's permission). Starting one needs the product in some state.
  if (state === null && action !== 'quote') return false;
  return grants.some(
    (g) => g.action === action && names.has(key(g.product)) && (state === null || g.state.toUpperCase() === state),
  );
}

/**
 * Refuses (403) a producer's `action` on a quote of the product in the state unless their contact's
 * quoting permissions allow it. Staff (every other role) are not limited. A producer whose contact
 * has no quoting permission at all may do nothing in quoting.
 */
export async function assertQuotingPermission(
  context: ServerPluginContext,
  tx: Queryable,
  principal: Principal | undefined,
  action: QuotingAction,
  product: { name: string; label: string },
  state: string | null,
  /** The producer's permissions when already read (findQuoteWithGrants), not read again. */
  known?: QuotingPermission[],
): Promise<void> {
  if (!isProducer(principal)) return;
  const contactId = quotingContact(principal);
  const grants = known ?? (contactId ? await context.service(CONTACT_DIRECTORY).quotingPermissions(tx, contactId) : []);
  if (permits(grants, action, product, state)) return;
  if (state === null && action !== 'quote') {
    throw new ApiError(409, `Choose the quote's state before you ${VERB[action]} it.`, { code: 'quote_state_missing' });
  }
  const where = state ? ` in ${state}` : '';
  throw new ApiError(403, `You may not ${VERB[action]} ${product.label} quotes${where}.`, {
    code: 'quoting_permission',
  });
}

/** The quoting actions the caller may take on a quote of the product in the state (all for staff). */
export async function quotingActions(
  context: ServerPluginContext,
  tx: Queryable,
  principal: Principal | undefined,
  product: { name: string; label: string },
  state: string | null,
): Promise<Record<QuotingAction, boolean>> {
  if (!isProducer(principal)) return { quote: true, submit: true, bind: true };
  const contactId = quotingContact(principal);
  const grants = contactId ? await context.service(CONTACT_DIRECTORY).quotingPermissions(tx, contactId) : [];
  return {
    quote: permits(grants, 'quote', product, state),
    submit: permits(grants, 'submit', product, state),
    bind: permits(grants, 'bind', product, state),
  };
}

/**
 * The quote the caller may `action` (scope as findQuote's), locked for update, with the producer's
 * quoting permissions read in the same statement (submit and bind check both: one round trip, not
 * two). `grants` is undefined for staff, who are not limited. Null when there is no such quote.
 */
export async function findQuoteWithGrants(
  context: ServerPluginContext,
  tx: Queryable,
  principal: Principal | undefined,
  number: string,
  action: string,
): Promise<{ row: QuoteRow; grants: QuotingPermission[] | undefined } | null> {
  const scope = await quoteScope(context, principal, action);
  const producer = isProducer(principal);
  const contactId = producer ? quotingContact(principal) : null;
  const directory = context.service(CONTACT_DIRECTORY);
  const [found] = await tx
    .select({
      ...getTableColumns(quote),
      grants: contactId ? directory.quotingPermissionsSql(tx, contactId) : sql<unknown>`null::json`,
    })
    .from(quote)
    .where(and(eq(quote.number, number), scope))
    .limit(1)
    .for('update');
  if (!found) return null;
  const { grants, ...row } = found;
  return {
    row: row as QuoteRow,
    grants: producer ? (contactId ? directory.quotingPermissionsFrom(tx, grants) : []) : undefined,
  };
}
