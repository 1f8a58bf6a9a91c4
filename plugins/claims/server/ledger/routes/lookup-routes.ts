import { asc, count, eq } from 'drizzle-orm';
import {
  defineResource,
  pageQuerySchema,
  paginationLinks,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../../permissions.js';
import { RESERVE_CATEGORIES } from '../ledger-entry.js';
import { toLedgerEntry } from '../ledger-store.js';
import { formatMoney } from '../money.js';
import { LEDGER_BASE } from '../resources.js';
import { ledgerEntry } from '../tables.js';
import { PAYMENT_METHODS } from './schemas.js';

/**
 * The ledger's fixed lookups (reserve-categories/, payment-methods/) and the read-only list of
 * posted entries (ledger-entries/), from which every balance can be recomputed.
 */
const tags = ['claims', 'claims-ledger'];
const security = [{ bearer: [] }];

const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
const lookupResource = (type: string) =>
  defineResource<string>({
    type,
    id: (name) => name,
    attributes: (name) => ({ name, label: name === 'ach' ? 'ACH' : label(name) }),
  });

type EntryRow = typeof ledgerEntry.$inferSelect;
const transactionRef = defineResource<unknown>({ type: 'transactions', id: () => '', attributes: () => ({}) });
const entryResource = defineResource<EntryRow>({
  type: 'ledger-entries',
  id: (r) => String(r.id),
  attributes: (r) => ({
    kind: r.kind,
    amount: formatMoney(toLedgerEntry(r).amount),
    reserve_category: r.reserveCategory,
    claim_id: String(r.claimId),
    exposure_id: String(r.exposureId),
    reverses_entry_id: r.reversesEntryId === null ? null : String(r.reversesEntryId),
    posted_at: r.postedAt.toISOString(),
  }),
  relationships: { transaction: { resource: () => transactionRef, ids: (r) => String(r.transactionId) } },
});

export function registerLookupRoutes(router: AtriumRouter, context: ServerPluginContext) {
  for (const [path, values] of [
    ['reserve-categories', RESERVE_CATEGORIES],
    ['payment-methods', PAYMENT_METHODS],
  ] as const) {
    const resource = lookupResource(path);
    router.get(
      `/${path}/`,
      {
        config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
        schema: { summary: `The ${path.replace('-', ' ')} the ledger accepts.`, tags, security },
      },
      async () => serializeDocument(resource, [...values]),
    );
  }

  router.get(
    '/ledger-entries/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: {
        summary: 'Posted ledger entries of a claim in posting order (filter[claim] required); 250 a page.',
        tags,
        security,
        querystring: z.strictObject({ ...pageQuerySchema(250), 'filter[claim]': z.coerce.number().int().positive() }),
      },
    },
    async (request) => {
      const query = request.query;
      const page = toPageRequest(query);
      const where = eq(ledgerEntry.claimId, query['filter[claim]']);
      const [total] = await context.db.select({ n: count() }).from(ledgerEntry).where(where);
      const rows = await context.db
        .select()
        .from(ledgerEntry)
        .where(where)
        .orderBy(asc(ledgerEntry.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${LEDGER_BASE}/ledger-entries/`, query, page, total?.n ?? 0);
      return serializeDocument(entryResource, rows, { links, meta });
    },
  );
}
