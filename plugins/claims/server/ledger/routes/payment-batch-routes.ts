import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  ApiError,
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
import { formatMoney, parseMoney } from '../money.js';
import { LEDGER_BASE } from '../resources.js';
import { ledgerTransaction, paymentBatch, paymentBatchItem } from '../tables.js';
import { actorOf, idParams } from './schemas.js';

/**
 * payment-batches/: a run of payment processing issues every posted payment that is neither
 * processed nor voided (or the ones named), each with a check number. Batches are append-only.
 */
const tags = ['claims', 'claims-ledger'];
const security = [{ bearer: [] }];

type BatchRow = typeof paymentBatch.$inferSelect & { paymentIds: number[] };

const paymentRef = defineResource<unknown>({ type: 'payments', id: () => '', attributes: () => ({}) });
const resource = defineResource<BatchRow>({
  type: 'payment-batches',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/payment-batches/`,
  attributes: (r) => ({
    number: r.number,
    amount: r.amount,
    payments_count: r.paymentsCount,
    run_by: r.runBy,
    run_at: r.runAt.toISOString(),
  }),
  relationships: { payments: { resource: () => paymentRef, many: true, ids: (r) => r.paymentIds.map(String) } },
});

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal('payment-batches'),
    attributes: z.strictObject({}).optional(),
    relationships: z
      .strictObject({
        payments: z.strictObject({
          data: z.array(z.strictObject({ type: z.literal('payments'), id: z.string().regex(/^[1-9]\d{0,9}$/) })).min(1),
        }),
      })
      .optional(),
  }),
});

export function registerPaymentBatchRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  const withPayments = async (rows: (typeof paymentBatch.$inferSelect)[]): Promise<BatchRow[]> => {
    if (rows.length === 0) return [];
    const items = await db
      .select()
      .from(paymentBatchItem)
      .where(
        inArray(
          paymentBatchItem.batchId,
          rows.map((r) => r.id),
        ),
      );
    return rows.map((r) => ({ ...r, paymentIds: items.filter((i) => i.batchId === r.id).map((i) => i.transactionId) }));
  };

  router.get(
    '/payment-batches/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: {
        summary: 'Lists payment batches, newest last.',
        tags,
        security,
        querystring: z.strictObject(pageQuerySchema(250)),
      },
    },
    async (request) => {
      const page = toPageRequest(request.query);
      const [total] = await db.select({ n: count() }).from(paymentBatch);
      const rows = await db
        .select()
        .from(paymentBatch)
        .orderBy(asc(paymentBatch.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${LEDGER_BASE}/payment-batches/`, request.query, page, total?.n ?? 0);
      return serializeDocument(resource, await withPayments(rows), { links, meta });
    },
  );

  router.get(
    '/payment-batches/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: { summary: 'One payment batch with its payments.', tags, security, params: idParams },
    },
    async (request) => {
      const [row] = await db
        .select()
        .from(paymentBatch)
        .where(eq(paymentBatch.id, Number(request.params.id)));
      if (!row) throw new ApiError(404, `Payment batch ${request.params.id} not found.`);
      return serializeDocument(resource, (await withPayments([row]))[0]!);
    },
  );

  router.post(
    '/payment-batches/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'create') },
      schema: {
        summary:
          'Runs payment processing: issues every unprocessed posted payment, or the ones named in relationships.payments.',
        tags,
        security,
        body,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const named = request.body.data.relationships?.payments.data.map((p) => Number(p.id));
      const batch = await db.transaction(async (tx) => {
        // One batch run at a time, so that no payment is issued twice.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('claims.payment_batch'))`);
        const candidates = await tx
          .select({ id: ledgerTransaction.id, amount: ledgerTransaction.amount, batchId: paymentBatchItem.batchId })
          .from(ledgerTransaction)
          .leftJoin(paymentBatchItem, eq(paymentBatchItem.transactionId, ledgerTransaction.id))
          .where(
            and(
              eq(ledgerTransaction.type, 'payment'),
              eq(ledgerTransaction.status, 'posted'),
              sql`${ledgerTransaction.id} not in (select reverses_transaction_id from ${ledgerTransaction} where reverses_transaction_id is not null)`,
              named ? inArray(ledgerTransaction.id, named) : isNull(paymentBatchItem.batchId),
            ),
          )
          .orderBy(asc(ledgerTransaction.id));
        if (named) {
          const ready = candidates.filter((c) => c.batchId === null).map((c) => c.id);
          const index = named.findIndex((id) => !ready.includes(id));
          if (index >= 0) {
            throw new ApiError(400, `Payment ${named[index]} is not a posted, unprocessed, unvoided payment.`, {
              source: { pointer: `/data/relationships/payments/data/${index}/id` },
            });
          }
        }
        const issue = candidates.filter((c) => c.batchId === null);
        if (issue.length === 0)
          throw new ApiError(409, 'There are no payments to process.', { code: 'nothing_to_process' });
        const total = issue.reduce((sum, c) => sum + parseMoney(c.amount), 0n);
        const [created] = await tx
          .insert(paymentBatch)
          .values({
            number: sql`'PB-' || lpad(nextval('claims.payment_batch_number_seq')::text, 6, '0')`,
            amount: formatMoney(total),
            paymentsCount: issue.length,
            runBy: actor.username,
          })
          .returning();
        await tx.insert(paymentBatchItem).values(
          issue.map((c) => ({
            batchId: created!.id,
            transactionId: c.id,
            checkNumber: `${created!.id}${String(c.id).padStart(7, '0')}`,
          })),
        );
        return created!;
      });
      reply.status(201);
      return serializeDocument(resource, (await withPayments([batch]))[0]!);
    },
  );
}
