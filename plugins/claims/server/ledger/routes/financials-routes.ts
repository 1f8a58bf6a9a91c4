import { and, asc, count, eq } from 'drizzle-orm';
import {
  typeOnly,
  ApiError,
  serializeDocument,
  defineResource,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimScope } from '../../core/claim-scope.js';
import { claim, exposure } from '../../core/tables.js';
import { claimsPermission } from '../../permissions.js';
import { totalsOf, type LedgerBalances } from '../balances.js';
import { claimBalances } from '../ledger-store.js';
import { ledgerTransaction } from '../tables.js';
import { idParams, security, tags } from './schemas.js';

/**
 * GET claims/{id}/financials/ and exposures/{id}/financials/: the totals of docs/claims-accounting.md,
 * derived from the posted entries on every request (nothing is cached, so they cannot drift).
 */

interface ExposureInfo {
  id: number;
  number: number;
  exposureName: string;
}

function exposureFinancials(balances: LedgerBalances, e: ExposureInfo, claimNumber: string) {
  const categories = [...(balances.byExposure.get(e.id)?.keys() ?? [])].sort();
  return {
    exposure_id: String(e.id),
    display_number: `${claimNumber}-${e.number}`,
    exposure_name: e.exposureName,
    ...totalsOf(balances.exposure(e.id)),
    categories: categories.map((c) => ({ reserve_category: c, ...totalsOf(balances.category(e.id, c)) })),
  };
}

interface ClaimFinancials {
  claimId: number;
  claimNumber: string;
  pending: number;
  attributes: Record<string, unknown>;
}

const claimFinancialsResource = defineResource<ClaimFinancials>({
  type: 'claim-financials',
  id: (f) => String(f.claimId),
  attributes: (f) => ({ claim_number: f.claimNumber, pending_approval_count: f.pending, ...f.attributes }),
  relationships: { claim: { resource: () => typeOnly('claims'), ids: (f) => String(f.claimId) } },
});

const exposureFinancialsResource = defineResource<ClaimFinancials & { exposureId: number }>({
  type: 'exposure-financials',
  id: (f) => String(f.exposureId),
  attributes: (f) => ({ claim_number: f.claimNumber, pending_approval_count: f.pending, ...f.attributes }),
  relationships: {
    claim: { resource: () => typeOnly('claims'), ids: (f) => String(f.claimId) },
    exposure: { resource: () => typeOnly('exposures'), ids: (f) => String(f.exposureId) },
  },
});

async function pendingCount(context: ServerPluginContext, column: 'claim' | 'exposure', id: number) {
  const [row] = await context.db
    .select({ n: count() })
    .from(ledgerTransaction)
    .where(
      and(
        eq(column === 'claim' ? ledgerTransaction.claimId : ledgerTransaction.exposureId, id),
        eq(ledgerTransaction.status, 'pending_approval'),
      ),
    );
  return row?.n ?? 0;
}

/** Claim totals for other parts of the module (e.g. a claim's total_incurred attribute). */
export async function claimTotals(context: Pick<ServerPluginContext, 'db'>, claimId: number) {
  return totalsOf((await claimBalances(context.db, claimId)).claim(claimId));
}

export function registerFinancialsRoutes(router: AtriumRouter, context: ServerPluginContext) {
  router.get(
    '/claims/:id/financials/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: {
        summary:
          'The claim’s totals (reserve_outstanding, paid, recovered, total_incurred, net_paid, net_incurred), per exposure and category.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const [found] = await context.db
        .select({ id: claim.id, number: claim.number })
        .from(claim)
        // A claim the caller may not read has no financials for them either: 404, as for a missing one.
        .where(and(eq(claim.id, id), await claimScope(context, request, claim.id)));
      if (!found) throw new ApiError(404, `Claim ${id} not found.`);
      const balances = await claimBalances(context.db, id);
      const exposures = await context.db
        .select({ id: exposure.id, number: exposure.number, exposureName: exposure.exposureName })
        .from(exposure)
        .where(eq(exposure.claimId, id))
        .orderBy(asc(exposure.number));
      return serializeDocument(claimFinancialsResource, {
        claimId: id,
        claimNumber: found.number,
        pending: await pendingCount(context, 'claim', id),
        attributes: {
          ...totalsOf(balances.claim(id)),
          exposures: exposures.map((e) => exposureFinancials(balances, e, found.number)),
        },
      });
    },
  );

  router.get(
    '/exposures/:id/financials/',
    {
      config: { jsonapi: true, access: claimsPermission('transaction', 'read') },
      schema: { summary: 'The exposure’s totals, per reserve category.', tags, security, params: idParams },
    },
    async (request) => {
      const id = Number(request.params.id);
      const [found] = await context.db
        .select({
          id: exposure.id,
          number: exposure.number,
          exposureName: exposure.exposureName,
          claimId: exposure.claimId,
          claimNumber: claim.number,
        })
        .from(exposure)
        .innerJoin(claim, eq(claim.id, exposure.claimId))
        .where(and(eq(exposure.id, id), await claimScope(context, request, claim.id)));
      if (!found) throw new ApiError(404, `Exposure ${id} not found.`);
      const balances = await claimBalances(context.db, found.claimId);
      return serializeDocument(exposureFinancialsResource, {
        claimId: found.claimId,
        exposureId: id,
        claimNumber: found.claimNumber,
        pending: await pendingCount(context, 'exposure', id),
        attributes: exposureFinancials(balances, found, found.claimNumber),
      });
    },
  );
}
