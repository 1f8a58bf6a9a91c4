import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { typeOnly, defineResource, type Queryable } from '@atrium/sdk/server';
import { claim } from '../../core/tables.js';
import { currentClearances } from '../clearance.js';
import { LEDGER_BASE } from '../resources.js';
import { ledgerTransaction, payee, paymentBatch, paymentBatchItem } from '../tables.js';

/**
 * Payment processing's reads (docs/claims-accounting.md, "Payment processing"): the queue of
 * payments awaiting issue and the payments of a batch, each row with what finance staff check
 * before issuing — claim number, payees, amount, method, due date — and, once issued, the batch and
 * check number. Shared by payment-batch-routes.ts (queue, run, detail, CSV export).
 */
export interface QueueFilters {
  /** Only payments with this payment method. */
  paymentMethod?: string;
  /** Only payments due on or before this date (YYYY-MM-DD); payments without a due date are due now. */
  dueDateTo?: string;
}

export interface PaymentQueueRow {
  id: number;
  number: string;
  claimId: number;
  claimNumber: string;
  amount: string;
  reserveCategory: string;
  paymentMethod: string | null;
  dueDate: string | null;
  payCode: string | null;
  payeeIds: number[];
  payeeNames: string[];
  postedAt: Date | null;
  batchId: number | null;
  batchNumber: string | null;
  checkNumber: string | null;
  clearedDate: string | null;
}

const method = sql<string | null>`${ledgerTransaction.details} ->> 'payment_method'`;
const dueDate = sql<string | null>`${ledgerTransaction.details} ->> 'due_date'`;

/** Posted payments that no void reverses (a void is its own transaction naming the payment). */
const postedUnvoidedPayment = (): SQL =>
  and(
    eq(ledgerTransaction.type, 'payment'),
    eq(ledgerTransaction.status, 'posted'),
    sql`not exists (select 1 from ${ledgerTransaction} as v where v.reverses_transaction_id = ${ledgerTransaction.id})`,
  )!;

/** Where a payment awaits issue: posted (so approved), not voided, in no batch, within the filters. */
export function awaitingIssue(filters: QueueFilters): SQL {
  const conditions: SQL[] = [postedUnvoidedPayment(), isNull(paymentBatchItem.batchId)];
  if (filters.paymentMethod) conditions.push(sql`${method} = ${filters.paymentMethod}`);
  if (filters.dueDateTo) conditions.push(sql`coalesce(${dueDate}, '0000-00-00') <= ${filters.dueDateTo}`);
  return and(...conditions)!;
}

async function payeeNames(tx: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.select({ id: payee.id, name: payee.name }).from(payee).where(inArray(payee.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Count and total (decimal text) of the rows matching `where`. */
export async function queueSummary(tx: Queryable, where: SQL): Promise<{ count: number; total: string }> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      total: sql<string>`round(coalesce(sum(${ledgerTransaction.amount}), 0), 2)::text`,
    })
    .from(ledgerTransaction)
    .leftJoin(paymentBatchItem, eq(paymentBatchItem.transactionId, ledgerTransaction.id))
    .where(where);
  return { count: Number(row?.count ?? 0), total: row?.total ?? '0.00' };
}

/** The queue rows matching `where` (built with awaitingIssue, or a batch's items), oldest first. */
export async function queueRows(
  tx: Queryable,
  where: SQL,
  page?: { limit: number; offset: number },
): Promise<PaymentQueueRow[]> {
  const query = tx
    .select({
      transaction: ledgerTransaction,
      claimNumber: claim.number,
      batchId: paymentBatchItem.batchId,
      checkNumber: paymentBatchItem.checkNumber,
      batchNumber: paymentBatch.number,
    })
    .from(ledgerTransaction)
    .innerJoin(claim, eq(claim.id, ledgerTransaction.claimId))
    .leftJoin(paymentBatchItem, eq(paymentBatchItem.transactionId, ledgerTransaction.id))
    .leftJoin(paymentBatch, eq(paymentBatch.id, paymentBatchItem.batchId))
    .where(where)
    .orderBy(asc(ledgerTransaction.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  const idsOf = (details: Record<string, unknown>) =>
    Array.isArray(details.payee_ids) ? (details.payee_ids as unknown[]).map(Number).filter(Number.isInteger) : [];
  const names = await payeeNames(tx, [...new Set(rows.flatMap((r) => idsOf(r.transaction.details)))]);
  const clearances = await currentClearances(
    tx,
    rows.filter((r) => r.batchId !== null).map((r) => r.transaction.id),
  );
  return rows.map(({ transaction: t, ...r }) => {
    const ids = idsOf(t.details);
    const str = (name: string) => (typeof t.details[name] === 'string' ? (t.details[name] as string) : null);
    return {
      id: t.id,
      number: t.number,
      claimId: t.claimId,
      claimNumber: r.claimNumber,
      amount: t.amount,
      reserveCategory: t.reserveCategory,
      paymentMethod: str('payment_method'),
      dueDate: str('due_date'),
      payCode: str('pay_code'),
      payeeIds: ids,
      payeeNames: ids.map((id) => names.get(id) ?? `Payee ${id}`),
      postedAt: t.postedAt,
      batchId: r.batchId ?? null,
      batchNumber: r.batchNumber ?? null,
      checkNumber: r.checkNumber ?? null,
      clearedDate: clearances.get(t.id)?.clearedDate ?? null,
    };
  });
}

export const batchItemsWhere = (batchId: number): SQL => eq(paymentBatchItem.batchId, batchId);

/**
 * One payment as payment processing shows it (type `payment-queue-items`, id = the payment's id);
 * the payment itself is `relationships.payment`.
 */
export const queueItemResource = defineResource<PaymentQueueRow>({
  type: 'payment-queue-items',
  id: (r) => String(r.id),
  attributes: (r) => ({
    transaction_number: r.number,
    claim_number: r.claimNumber,
    payee: r.payeeNames.join('; '),
    amount: r.amount,
    reserve_category: r.reserveCategory,
    payment_method: r.paymentMethod,
    due_date: r.dueDate,
    pay_code: r.payCode,
    posted_date: r.postedAt ? r.postedAt.toISOString() : null,
    batch_number: r.batchNumber,
    check_number: r.checkNumber,
    cleared_date: r.clearedDate,
  }),
  relationships: {
    payment: { resource: () => typeOnly('payments'), ids: (r) => String(r.id) },
    claim: { resource: () => typeOnly('claims'), ids: (r) => String(r.claimId) },
    batch: { resource: () => typeOnly('payment-batches'), ids: (r) => (r.batchId === null ? null : String(r.batchId)) },
  },
});

export const QUEUE_PATH = `${LEDGER_BASE}/payment-batches/queue/`;

/** A CSV field: quoted when needed; text that a spreadsheet would run as a formula is prefixed with '. */
function csvField(value: string | null, kind: 'text' | 'amount' = 'text'): string {
  let v = value ?? '';
  if (kind === 'text' && /^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const CSV_COLUMNS = [
  'batch_number',
  'run_date',
  'check_number',
  'payment_id',
  'transaction_number',
  'claim_number',
  'payee',
  'amount',
  'payment_method',
  'due_date',
  'pay_code',
  'reserve_category',
] as const;

/** The batch as a CSV file for the bank or the check printer: one line per payment, amounts as decimals. */
export function batchCsv(batch: { number: string; runAt: Date }, rows: PaymentQueueRow[]): string {
  const runDate = batch.runAt.toISOString().slice(0, 10);
  const lines = rows.map((r) =>
    [
      csvField(batch.number),
      runDate,
      csvField(r.checkNumber),
      String(r.id),
      csvField(r.number),
      csvField(r.claimNumber),
      csvField(r.payeeNames.join('; ')),
      csvField(r.amount, 'amount'),
      csvField(r.paymentMethod),
      csvField(r.dueDate),
      csvField(r.payCode),
      csvField(r.reserveCategory),
    ].join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
