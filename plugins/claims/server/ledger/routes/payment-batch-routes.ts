import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  pageOfRows,
  typeOnly,
  ApiError,
  attributeError,
  defineResource,
  pageQuerySchema,
  paginationLinks,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { auditLog, claim } from '../../core/tables.js';
import { claimsPermission } from '../../permissions.js';
import { formatMoney, parseMoney } from '../money.js';
import { LEDGER_BASE } from '../resources.js';
import { ledgerTransaction, paymentBatch, paymentBatchItem } from '../tables.js';
import {
  awaitingIssue,
  batchCsv,
  batchItemsWhere,
  QUEUE_PATH,
  queueItemResource,
  queueRows,
  queueSummary,
  type QueueFilters,
} from './payment-queue.js';
import { registerPaymentClearanceRoutes } from './payment-clearance-routes.js';
import { actorOf, dateText, idParams, PAYMENT_METHODS, security, tags } from './schemas.js';

/**
 * Payment processing (docs/claims-accounting.md, "Payment processing"):
 * - `GET payment-batches/queue/`: the payments awaiting issue (posted, so approved; not voided; in
 *   no batch), filtered by method and due date, with their count and total;
 * - `POST payment-batches/`: a run issues the queue (or the payments named, or those of one method /
 *   due by a date) in one transaction, numbering checks from the next check number, audit-logged;
 * - `GET payment-batches/`, `GET payment-batches/{id}/`, `GET payment-batches/{id}/payments/` and
 *   `GET payment-batches/{id}/export/` (CSV). Batches and their items are append-only.
 */

/** Where check numbering starts when no check has been issued yet. */
export const FIRST_CHECK_NUMBER = 100001n;

type BatchRow = typeof paymentBatch.$inferSelect & { paymentIds: number[] };

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
  relationships: {
    payments: { resource: () => typeOnly('payments'), many: true, ids: (r) => r.paymentIds.map(String) },
  },
});

const paymentMethod = z.enum(PAYMENT_METHODS, {
  error: `Payment method must be one of ${PAYMENT_METHODS.join(', ')}.`,
});
const checkNumberText = z
  .string({ error: 'First check number must be a whole number such as "100001".' })
  .regex(/^[1-9]\d{0,11}$/, 'First check number must be a whole number such as "100001".');

const body = z.strictObject({
  data: z.strictObject({
    type: z.literal('payment-batches'),
    attributes: z
      .strictObject({
        payment_method: paymentMethod.optional(),
        due_date_to: dateText('Due date').optional(),
        first_check_number: checkNumberText.optional(),
      })
      .optional(),
    relationships: z
      .strictObject({
        payments: z.strictObject({
          data: z
            .array(z.strictObject({ type: z.literal('payments'), id: z.string().regex(/^[1-9]\d{0,9}$/) }))
            .min(1, 'Select at least one payment.')
            .max(5000),
        }),
      })
      .optional(),
  }),
});

const queueQuery = z.strictObject({
  ...pageQuerySchema(250),
  'filter[payment_method]': paymentMethod.optional(),
  'filter[due_date_to]': dateText('Due date').optional(),
});

const filtersOf = (source: { payment_method?: string; due_date_to?: string } | undefined): QueueFilters => ({
  paymentMethod: source?.payment_method,
  dueDateTo: source?.due_date_to,
});

/** The highest check number issued so far plus one (numbers that are not plain digits are skipped). */
export async function nextCheckNumber(tx: Queryable): Promise<bigint> {
  const [row] = await tx
    .select({
      max: sql<string | null>`max(${paymentBatchItem.checkNumber}::numeric)::text`,
    })
    .from(paymentBatchItem)
    .where(sql`${paymentBatchItem.checkNumber} ~ '^[0-9]{1,15}$'`);
  return row?.max ? BigInt(row.max) + 1n : FIRST_CHECK_NUMBER;
}

/** Checks (and payments without a method) take the next check number; ACH, wire and card a reference. */
const takesCheck = (method: string | null) => method === null || method === 'check';

export function registerPaymentBatchRoutes(router: AtriumRouter, context: ServerPluginContext) {
  const { db } = context;
  registerPaymentClearanceRoutes(router, context);
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
  const loadBatch = async (id: string) => {
    const [row] = await db
      .select()
      .from(paymentBatch)
      .where(eq(paymentBatch.id, Number(id)));
    if (!row) throw new ApiError(404, `Payment batch ${id} not found.`);
    return row;
  };

  router.get(
    '/payment-batches/queue/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: {
        summary:
          'The payments awaiting issue (posted, not voided, in no batch), oldest first; meta has count, total and next_check_number.',
        tags,
        security,
        querystring: queueQuery,
      },
    },
    async (request) => {
      const query = request.query;
      const page = toPageRequest(query);
      const where = awaitingIssue({
        paymentMethod: query['filter[payment_method]'],
        dueDateTo: query['filter[due_date_to]'],
      });
      const summary = await queueSummary(db, where);
      const rows = await queueRows(db, where, { limit: page.size, offset: page.offset });
      const { links, meta } = paginationLinks(QUEUE_PATH, query, page, summary.count);
      return serializeDocument(queueItemResource, rows, {
        links,
        meta: { ...meta, total: summary.total, next_check_number: String(await nextCheckNumber(db)) },
      });
    },
  );

  router.get(
    '/payment-batches/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: {
        summary: 'Lists payment batches, oldest first (sort=-id: newest first).',
        tags,
        security,
        querystring: z.strictObject({ ...pageQuerySchema(250), sort: z.enum(['id', '-id']).optional() }),
      },
    },
    async (request) => {
      const page = toPageRequest(request.query);
      const { rows, links, meta } = await pageOfRows(db, paymentBatch, {
        orderBy: [request.query.sort === '-id' ? desc(paymentBatch.id) : asc(paymentBatch.id)],
        page,
        path: `${LEDGER_BASE}/payment-batches/`,
        query: request.query,
      });
      return serializeDocument(resource, await withPayments(rows), { links, meta });
    },
  );

  router.get(
    '/payment-batches/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: { summary: 'One payment batch with its payments.', tags, security, params: idParams },
    },
    async (request) => serializeDocument(resource, (await withPayments([await loadBatch(request.params.id)]))[0]!),
  );

  router.get(
    '/payment-batches/:id/payments/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'read') },
      schema: {
        summary: 'The payments a batch issued, with claim number, payees and check numbers.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const batch = await loadBatch(request.params.id);
      const rows = await queueRows(db, batchItemsWhere(batch.id));
      return serializeDocument(queueItemResource, rows, { meta: { count: rows.length, total: batch.amount } });
    },
  );

  router.get(
    '/payment-batches/:id/export/',
    {
      config: { access: claimsPermission('payment-batch', 'read') },
      schema: {
        summary: 'The batch as CSV (one line per payment: check number, claim, payee, amount …).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      const batch = await loadBatch(request.params.id);
      const rows = await queueRows(db, batchItemsWhere(batch.id));
      reply.header('content-disposition', `attachment; filename="payment-batch-${batch.number}.csv"`);
      reply.header('cache-control', 'no-store');
      return reply.type('text/csv; charset=utf-8').send(batchCsv(batch, rows));
    },
  );

  router.post(
    '/payment-batches/',
    {
      config: { jsonapi: true, access: claimsPermission('payment-batch', 'create') },
      schema: {
        summary:
          'Runs payment processing: issues every payment awaiting issue (or those named in relationships.payments, or of one payment_method / due by due_date_to), numbering checks from first_check_number or the next free one.',
        tags,
        security,
        body,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const attributes = request.body.data.attributes;
      const filters = filtersOf(attributes);
      const named = request.body.data.relationships?.payments.data.map((p) => Number(p.id));
      const duplicate = named?.findIndex((id, i) => named.indexOf(id) !== i) ?? -1;
      if (duplicate >= 0) {
        throw new ApiError(400, `Payment ${named![duplicate]} is named twice.`, {
          source: { pointer: `/data/relationships/payments/data/${duplicate}/id` },
        });
      }
      const batch = await db.transaction(async (tx) => {
        // One batch run at a time: the second run waits here and then sees the first one's items, so
        // no payment is issued twice (the unique index on payment_batch_item.transaction_id also says so).
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('claims.payment_batch'))`);
        const where = named
          ? and(awaitingIssue(filters), inArray(ledgerTransaction.id, named))!
          : awaitingIssue(filters);
        // Lock the claims of the candidates (in id order, as postings do) and read again: a void posted
        // meanwhile holds its claim's lock until it commits, so a voided payment is never issued.
        const candidates = await queueRows(tx, where);
        const claimIds = [...new Set(candidates.map((c) => c.claimId))].sort((a, b) => a - b);
        if (claimIds.length > 0) {
          await tx
            .select({ id: claim.id })
            .from(claim)
            .where(inArray(claim.id, claimIds))
            .orderBy(asc(claim.id))
            .for('update');
        }
        const issue = claimIds.length > 0 ? await queueRows(tx, where) : candidates;
        if (named) {
          const ready = new Set(issue.map((c) => c.id));
          const index = named.findIndex((id) => !ready.has(id));
          if (index >= 0) {
            throw new ApiError(400, `Payment ${named[index]} is not awaiting issue.`, {
              source: { pointer: `/data/relationships/payments/data/${index}/id` },
              code: 'not_awaiting_issue',
            });
          }
        }
        if (issue.length === 0) {
          throw new ApiError(409, 'There are no payments to process.', { code: 'nothing_to_process' });
        }
        const next = await nextCheckNumber(tx);
        let checkNumber = next;
        if (attributes?.first_check_number !== undefined) {
          checkNumber = BigInt(attributes.first_check_number);
          if (checkNumber < next) {
            throw attributeError(
              'first_check_number',
              `Check number ${checkNumber} or a later one was already issued; the next free check number is ${next}.`,
              409,
            );
          }
        }
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
        const firstCheck = checkNumber;
        let reference = 0;
        const items = issue.map((c) => ({
          batchId: created!.id,
          transactionId: c.id,
          checkNumber: takesCheck(c.paymentMethod)
            ? String(checkNumber++)
            : `${created!.number}-${(c.paymentMethod ?? '').toUpperCase()}-${String(++reference).padStart(4, '0')}`,
        }));
        await tx.insert(paymentBatchItem).values(items);
        await tx.insert(auditLog).values([
          {
            username: actor.username,
            action: 'payment_batch.run',
            entityType: 'payment-batch',
            entityId: String(created!.id),
            claimId: null,
            after: {
              number: created!.number,
              amount: created!.amount,
              payments_count: created!.paymentsCount,
              payment_ids: issue.map((c) => c.id),
              payment_method: filters.paymentMethod ?? null,
              due_date_to: filters.dueDateTo ?? null,
              first_check_number: checkNumber > firstCheck ? String(firstCheck) : null,
            },
          },
          // One line on each claim too, so the claim's audit trail says when its payment was issued.
          ...issue.map((c, i) => ({
            username: actor.username,
            action: 'payment.issue',
            entityType: 'transaction',
            entityId: String(c.id),
            claimId: c.claimId,
            after: {
              number: c.number,
              amount: c.amount,
              batch_number: created!.number,
              check_number: items[i]!.checkNumber,
            },
          })),
        ]);
        return created!;
      });
      reply.status(201);
      return serializeDocument(resource, (await withPayments([batch]))[0]!);
    },
  );
}
