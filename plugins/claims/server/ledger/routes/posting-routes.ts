import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import {
  pageOfRows,
  ApiError,
  pageQuerySchema,
  resourceDocument,
  serializeDocument,
  toManyRelationship,
  toOneRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../../permissions.js';
import { idempotencyKeyOf, withIdempotency } from '../idempotency.js';
import { parseMoney } from '../money.js';
import {
  accessRecord,
  requestTransaction,
  RESOURCE_OF_TYPE,
  voidTransaction,
  type Actor,
  type TransactionRequest,
} from '../posting-service.js';
import { claimScope } from '../../core/claim-scope.js';
import { exposure, party } from '../../core/tables.js';
import { exposureNotFound } from '../ledger-store.js';
import type { TransactionType } from '../ledger-entry.js';
import {
  LEDGER_BASE,
  paymentResource,
  recoveryResource,
  reserveResource,
  withLedgerContext,
  type TransactionView,
} from '../resources.js';
import { ledgerTransaction, payee, payor } from '../tables.js';
import { requireActivePaymentMethod } from './payment-lookup-routes.js';
import {
  actorOf,
  dateText,
  exposureIdOf,
  idParams,
  ledgerListQuery,
  moneyText,
  RECOVERY_TYPES,
  reserveCategory,
  transactionNotFound,
  security,
  tags,
} from './schemas.js';

/**
 * POST/GET reserves/, payments/, recoveries/ and GET …/{id}/; POST payments/{id}/void/ and
 * recoveries/{id}/void/. Creation answers 201 when posted, 202 when it waits for approval; it takes
 * an Idempotency-Key. The list of payments is also answered at claims/payments/ (the spec's path).
 */
// Hand-written, not a resource declaration: postings go through the ledger engine (202 while awaiting approval, Idempotency-Key, voids), never as plain row writes.
const PAGE_SIZE = 250;

const text = (max: number) => z.string().max(max);

const reserveBody = resourceDocument(
  'reserves',
  {
    new_amount: moneyText('New amount').optional(),
    amount: moneyText('Amount', { signed: true }).optional(),
    reserve_category: reserveCategory,
    comments: text(2000).optional(),
  },
  { relationships: { exposure: toOneRelationship('exposures', false) } },
);

const paymentBody = resourceDocument(
  'payments',
  {
    amount: moneyText('Amount', { min: '0.01' }),
    reserve_category: reserveCategory,
    final_payment: z.boolean().optional(),
    comments: text(2000).optional(),
    due_date: dateText('Due date').optional(),
    in_payment_of: text(500).optional(),
    from_date: dateText('From date').optional(),
    through_date: dateText('Through date').optional(),
    billed_amount: moneyText('Billed amount').optional(),
    invoice_number: text(100).optional(),
    invoice_date: dateText('Invoice date').optional(),
    pay_code: text(50).optional(),
    // One of the active payment methods (maintained at payment-methods/), checked in the route.
    payment_method: text(50).optional(),
    payment_type: text(50).optional(),
    deductible_amount_before_adjustments: moneyText('Deductible amount before adjustments').optional(),
    deductible_amount_to_pay: moneyText('Deductible amount to pay').optional(),
  },
  {
    relationships: { exposure: toOneRelationship('exposures', false), payees: toManyRelationship('payees').optional() },
  },
);

const recoveryBody = resourceDocument(
  'recoveries',
  {
    amount: moneyText('Amount', { min: '0.01' }),
    reserve_category: reserveCategory,
    recovery_type: z.enum(RECOVERY_TYPES, { error: `Recovery type must be one of ${RECOVERY_TYPES.join(', ')}.` }),
    received_date: dateText('Received date').optional(),
    comments: text(2000).optional(),
    pay_code: text(50).optional(),
  },
  {
    relationships: {
      exposure: toOneRelationship('exposures', false),
      payor: toOneRelationship('payors').optional(),
      party: toOneRelationship('parties').optional(),
    },
  },
);

const voidBody = z.strictObject({
  data: z.strictObject({
    type: z.string(),
    id: z.string().optional(),
    attributes: z.strictObject({
      void_reason: z.string().trim().min(1, 'This field is required.').max(2000),
    }),
  }),
});

type Kind = 'reserve' | 'payment' | 'recovery';
const RESOURCE = { reserve: reserveResource, payment: paymentResource, recovery: recoveryResource };
const LABEL = { reserve: 'Reserve', payment: 'Payment', recovery: 'Recovery' };
const PATH = { reserve: 'reserves', payment: 'payments', recovery: 'recoveries' };

/** Ids named in a to-many relationship must exist: 400 at the first one that does not. */
async function requireIds(
  context: ServerPluginContext,
  table: typeof payee | typeof payor,
  ids: string[],
  pointer: (index: number) => string,
  label: string,
): Promise<number[]> {
  const numbers = ids.map((id) => (/^[1-9]\d{0,9}$/.test(id) ? Number(id) : -1));
  const found =
    numbers.length === 0
      ? []
      : (
          await context.db
            .select({ id: table.id })
            .from(table)
            .where(
              inArray(
                table.id,
                numbers.filter((n) => n > 0),
              ),
            )
        ).map((r) => r.id);
  const missing = numbers.findIndex((n) => !found.includes(n));
  if (missing >= 0) {
    throw new ApiError(400, `${label} ${ids[missing]} not found.`, { source: { pointer: pointer(missing) } });
  }
  return numbers;
}

/**
 * A recovery's party (who paid it back: a third party's carrier, a salvage buyer) is one of the
 * parties on the exposure's own claim; a party of another claim is refused like a missing one.
 */
async function requirePartyOnClaimOf(context: ServerPluginContext, partyId: string, exposureId: number) {
  const pointer = { pointer: '/data/relationships/party/data/id' };
  const id = /^[1-9]\d{0,9}$/.test(partyId) ? Number(partyId) : null;
  const [row] =
    id === null
      ? []
      : await context.db
          .select({ id: party.id })
          .from(party)
          .innerJoin(exposure, eq(exposure.claimId, party.claimId))
          .where(and(eq(party.id, id), eq(exposure.id, exposureId)));
  if (!row) throw new ApiError(400, `Party ${partyId} is not a party on this claim.`, { source: pointer });
  return row.id;
}

/**
 * One transaction. `scope` (claimScope on ledgerTransaction.claimId) hides the transactions of claims
 * the caller cannot read: they are answered 404 like missing ones.
 */
export async function loadTransaction(
  context: ServerPluginContext,
  kind: Kind | null,
  id: number,
  scope?: SQL,
): Promise<TransactionView> {
  const [row] = await context.db
    .select()
    .from(ledgerTransaction)
    .where(and(eq(ledgerTransaction.id, id), scope));
  if (!row || (kind !== null && row.type !== kind)) throw transactionNotFound(kind ? LABEL[kind] : 'Transaction', id);
  return (await withLedgerContext(context.db, [row]))[0]!;
}

export function registerListAndGet(router: AtriumRouter, context: ServerPluginContext, kind: Kind, paths: string[]) {
  const resource = RESOURCE[kind];
  for (const path of paths) {
    router.get(
      path,
      {
        config: { jsonapi: true, access: claimsPermission(kind, 'read') },
        schema: {
          summary: `Lists ${PATH[kind]} (pending, posted and rejected) of the claims the caller may read, oldest first; 250 a page.`,
          tags,
          security,
          querystring: z.strictObject({ ...pageQuerySchema(PAGE_SIZE), ...ledgerListQuery }),
        },
      },
      async (request) => {
        const query = request.query;
        const page = toPageRequest(query);
        const conditions: SQL[] = [eq(ledgerTransaction.type, kind)];
        if (query['filter[claim]']) conditions.push(eq(ledgerTransaction.claimId, query['filter[claim]']));
        if (query['filter[exposure]']) conditions.push(eq(ledgerTransaction.exposureId, query['filter[exposure]']));
        if (query['filter[transaction_status]']) {
          conditions.push(eq(ledgerTransaction.status, query['filter[transaction_status]']));
        }
        // Only the transactions of claims the caller may read (record conditions of claims:claim read).
        const scope = await claimScope(context, request, ledgerTransaction.claimId);
        if (scope) conditions.push(scope);
        const where = and(...conditions);
        const { rows, links, meta } = await pageOfRows(context.db, ledgerTransaction, {
          where,
          orderBy: [asc(ledgerTransaction.id)],
          page,
          path: `${LEDGER_BASE}${path}`,
          query,
        });
        return serializeDocument(resource, await withLedgerContext(context.db, rows), { links, meta });
      },
    );
  }
  router.get(
    `/${PATH[kind]}/:id/`,
    {
      config: { jsonapi: true, access: claimsPermission(kind, 'read') },
      schema: { summary: `One ${kind}.`, tags, security, params: idParams },
    },
    async (request) => {
      const scope = await claimScope(context, request, ledgerTransaction.claimId);
      return serializeDocument(resource, await loadTransaction(context, kind, Number(request.params.id), scope));
    },
  );
}

/** What the access policy says about the caller doing `action` on this record (see accessRecord). */
export async function policyAllows(
  context: ServerPluginContext,
  actor: Actor,
  type: TransactionType,
  action: string,
  record: Record<string, unknown>,
): Promise<boolean> {
  const evaluation = await context.services.evaluator!.evaluate(actor.principal!, {
    resource: RESOURCE_OF_TYPE[type],
    action,
    record,
  });
  return evaluation.allowed;
}

/** The exposure's claim, read before the posting transaction (the access record names it). */
async function claimOfExposure(context: ServerPluginContext, exposureId: number): Promise<number> {
  const [found] = await context.db
    .select({ claimId: exposure.claimId })
    .from(exposure)
    .where(eq(exposure.id, exposureId));
  if (!found) throw exposureNotFound(exposureId);
  return found.claimId;
}

/**
 * Runs a creation under its Idempotency-Key and answers 201 (posted) or 202 (pending approval).
 * The access policy is asked first, with the amount the request names, outside the transaction.
 */
async function create(
  context: ServerPluginContext,
  request: { headers: Record<string, string | string[] | undefined>; body: unknown },
  reply: { status(code: number): unknown; header(name: string, value: string): unknown },
  actor: Actor,
  transaction: TransactionRequest,
  namedAmount: string,
) {
  const kind = transaction.type;
  const key = idempotencyKeyOf(request.headers);
  const claimId = await claimOfExposure(context, transaction.exposureId);
  const target = { claimId, exposureId: transaction.exposureId, category: transaction.category };
  const allowed = await policyAllows(context, actor, kind, 'create', accessRecord(kind, namedAmount, target));
  // Recoveries bring money in: no authority to wait for, so a policy that refuses the record refuses.
  if (kind === 'recovery' && !allowed) throw new ApiError(403, 'You may not record this recovery.');
  const answer = await withIdempotency(
    context.db,
    { username: actor.username, scope: PATH[kind], key, body: request.body },
    async (tx) => {
      const row = await requestTransaction(tx, actor, transaction, allowed);
      const [view] = await withLedgerContext(tx, [row]);
      return {
        status: row.status === 'posted' ? 201 : 202,
        body: await serializeDocument(RESOURCE[kind], view!),
      };
    },
  );
  reply.status(answer.status);
  if (answer.replayed) reply.header('idempotent-replayed', 'true');
  return answer.body;
}

export function registerPostingRoutes(router: AtriumRouter, context: ServerPluginContext) {
  registerListAndGet(router, context, 'reserve', ['/reserves/']);
  registerListAndGet(router, context, 'payment', ['/payments/', '/claims/payments/']);
  registerListAndGet(router, context, 'recovery', ['/recoveries/']);

  router.post(
    '/reserves/',
    {
      config: { jsonapi: true, access: claimsPermission('reserve', 'create') },
      schema: {
        summary: 'Sets (new_amount) or changes (amount, signed) the reserve of an exposure and category.',
        description:
          'Posted at once (201) within the caller’s authority, else stored pending approval (202). A reserve never goes ' +
          'below zero. Takes an Idempotency-Key header.',
        tags,
        security,
        body: reserveBody,
      },
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      const exposureId = exposureIdOf(relationships);
      const a = attributes!;
      if ((a.new_amount === undefined) === (a.amount === undefined)) {
        throw new ApiError(400, 'Give either new_amount (the new reserve) or amount (the change), not both.', {
          source: { pointer: '/data/attributes/new_amount' },
          code: 'required',
        });
      }
      const transaction: TransactionRequest = {
        type: 'reserve',
        exposureId,
        category: a.reserve_category,
        ...(a.new_amount !== undefined ? { newAmount: parseMoney(a.new_amount) } : { change: parseMoney(a.amount!) }),
        details: { comments: a.comments ?? '' },
      };
      return create(context, request, reply, actorOf(request), transaction, a.new_amount ?? a.amount!);
    },
  );

  router.post(
    '/payments/',
    {
      config: { jsonapi: true, access: claimsPermission('payment', 'create') },
      schema: {
        summary: 'Pays from the open reserve of an exposure and category; final_payment closes that reserve.',
        description:
          'A payment larger than the open reserve is refused (400): raise the reserve first. Posted (201) within the ' +
          'caller’s authority, else stored pending approval (202). Takes an Idempotency-Key header.',
        tags,
        security,
        body: paymentBody,
      },
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      // Checked before the posting transaction: on PGlite the pool has one connection, which it holds.
      const payeeIds = await requireIds(
        context,
        payee,
        (relationships?.payees?.data ?? []).map((p) => p.id),
        (i) => `/data/relationships/payees/data/${i}/id`,
        'Payee',
      );
      if (attributes!.payment_method !== undefined) {
        await requireActivePaymentMethod(context.db, attributes!.payment_method);
      }
      const exposureId = exposureIdOf(relationships);
      const { amount, reserve_category, final_payment, ...details } = attributes!;
      const transaction: TransactionRequest = {
        type: 'payment',
        exposureId,
        category: reserve_category,
        amount: parseMoney(amount),
        finalPayment: final_payment ?? false,
        details: { ...details, payee_ids: payeeIds },
      };
      return create(context, request, reply, actorOf(request), transaction, amount);
    },
  );

  router.post(
    '/recoveries/',
    {
      config: { jsonapi: true, access: claimsPermission('recovery', 'create') },
      schema: {
        summary: 'Records money recovered on an exposure (salvage or subrogation). Takes an Idempotency-Key header.',
        tags,
        security,
        body: recoveryBody,
      },
    },
    async (request, reply) => {
      const { attributes, relationships } = request.body.data;
      const payorId = relationships?.payor?.data?.id;
      if (payorId !== undefined) {
        await requireIds(context, payor, [payorId], () => '/data/relationships/payor/data/id', 'Payor');
      }
      const exposureId = exposureIdOf(relationships);
      const partyId = relationships?.party?.data?.id;
      const partyRow = partyId === undefined ? null : await requirePartyOnClaimOf(context, partyId, exposureId);
      const { amount, reserve_category, ...details } = attributes!;
      const transaction: TransactionRequest = {
        type: 'recovery',
        exposureId,
        category: reserve_category,
        amount: parseMoney(amount),
        details: {
          ...details,
          payor_id: payorId === undefined ? null : Number(payorId),
          party_id: partyRow,
        },
      };
      return create(context, request, reply, actorOf(request), transaction, amount);
    },
  );

  for (const kind of ['payment', 'recovery'] as const) {
    router.post(
      `/${PATH[kind]}/:id/void/`,
      {
        config: { jsonapi: true, access: claimsPermission(kind, 'update') },
        schema: {
          summary: `Voids a posted ${kind} with a reason: a reversing transaction; the ${kind} itself is never changed.`,
          tags,
          security,
          params: idParams,
          body: voidBody,
        },
      },
      async (request) => {
        const scope = await claimScope(context, request, ledgerTransaction.claimId);
        const original = await loadTransaction(context, kind, Number(request.params.id), scope);
        const actor = actorOf(request);
        const evaluation = await context.services.evaluator!.evaluate(actor.principal!, {
          resource: `claims:${kind}`,
          action: 'update',
          record: {
            amount: original.amount,
            transaction_type: kind,
            claim_id: original.claimId,
            exposure_id: original.exposureId,
          },
        });
        if (!evaluation.allowed) throw new ApiError(403, `You may not void ${kind} ${original.number}.`);
        if (original.status !== 'posted') {
          throw new ApiError(
            409,
            `${LABEL[kind]} ${original.number} is ${original.status.replace('_', ' ')}; only a posted ${kind} can be voided.`,
            {
              code: 'not_posted',
            },
          );
        }
        await context.db.transaction((tx) =>
          voidTransaction(tx, actor, original, request.body.data.attributes.void_reason),
        );
        return serializeDocument(RESOURCE[kind], await loadTransaction(context, kind, original.id));
      },
    );
  }
}
