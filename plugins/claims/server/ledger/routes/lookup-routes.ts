import { asc, eq } from 'drizzle-orm';
import {
  pageOfRows,
  typeOnly,
  defineResource,
  pageQuerySchema,
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
import { registerPaymentLookupRoutes } from './payment-lookup-routes.js';
import { security, tags } from './schemas.js';

/**
 * The ledger's lookups — reserve-categories/ (fixed), payment-methods/ and pay-codes/ (maintained,
 * payment-lookup-routes.ts) — and the read-only list of posted entries (ledger-entries/), from which
 * every balance can be recomputed.
 */

type EntryRow = typeof ledgerEntry.$inferSelect;
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
  relationships: { transaction: { resource: () => typeOnly('transactions'), ids: (r) => String(r.transactionId) } },
});

const label = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');
const reserveCategoryResource = defineResource<string>({
  type: 'reserve-categories',
  id: (name) => name,
  attributes: (name) => ({ name, label: label(name) }),
});

export function registerLookupRoutes(router: AtriumRouter, context: ServerPluginContext) {
  router.get(
    '/reserve-categories/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: { summary: 'The reserve categories the ledger accepts (fixed).', tags, security },
    },
    async () => serializeDocument(reserveCategoryResource, [...RESERVE_CATEGORIES]),
  );
  registerPaymentLookupRoutes(router, context);

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
      const { rows, links, meta } = await pageOfRows(context.db, ledgerEntry, {
        where,
        orderBy: [asc(ledgerEntry.id)],
        page,
        path: `${LEDGER_BASE}/ledger-entries/`,
        query,
      });
      return serializeDocument(entryResource, rows, { links, meta });
    },
  );
}
