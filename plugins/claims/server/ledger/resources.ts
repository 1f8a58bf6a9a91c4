import { eq, inArray } from 'drizzle-orm';
import { typeOnly, defineResource, type Queryable } from '@atrium/sdk/server';
import { currentClearances } from './clearance.js';
import type { TransactionRow } from './ledger-store.js';
import { ledgerTransaction, payee, paymentBatch, paymentBatchItem } from './tables.js';

/**
 * JSON:API views of the ledger. Reserves, payments and recoveries are all rows of
 * ledger_transaction seen through their type; the batch that processed a payment and the void that
 * reversed a transaction are looked up alongside (`withLedgerContext`).
 */
export const LEDGER_BASE = '/api/claims';

export interface TransactionView extends TransactionRow {
  batch: { id: number; number: string; checkNumber: string; runAt: Date } | null;
  voidedBy: { id: number; number: string; reason: string; at: Date | null } | null;
  /** When the issued payment cleared (payment_clearance, the current row), or null. */
  clearedDate: string | null;
  /** The names of a payment's payees, in the order named. */
  payeeNames: string[];
}

const payeeIdsOf = (row: TransactionRow): number[] =>
  Array.isArray(row.details.payee_ids)
    ? (row.details.payee_ids as unknown[]).map(Number).filter((n) => Number.isInteger(n) && n > 0)
    : [];

export async function withLedgerContext(tx: Queryable, rows: TransactionRow[]): Promise<TransactionView[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const batches = await tx
    .select({
      transactionId: paymentBatchItem.transactionId,
      checkNumber: paymentBatchItem.checkNumber,
      id: paymentBatch.id,
      number: paymentBatch.number,
      runAt: paymentBatch.runAt,
    })
    .from(paymentBatchItem)
    .innerJoin(paymentBatch, eq(paymentBatch.id, paymentBatchItem.batchId))
    .where(inArray(paymentBatchItem.transactionId, ids));
  const voids = await tx.select().from(ledgerTransaction).where(inArray(ledgerTransaction.reversesTransactionId, ids));
  const clearances = await currentClearances(tx, ids);
  const payeeIds = [...new Set(rows.flatMap(payeeIdsOf))];
  const payees = payeeIds.length
    ? await tx.select({ id: payee.id, name: payee.name }).from(payee).where(inArray(payee.id, payeeIds))
    : [];
  return rows.map((row) => {
    const batch = batches.find((b) => b.transactionId === row.id);
    const voided = voids.find((v) => v.reversesTransactionId === row.id);
    return {
      ...row,
      clearedDate: clearances.get(row.id)?.clearedDate ?? null,
      payeeNames: payeeIdsOf(row).map((id) => payees.find((p) => p.id === id)?.name ?? `Payee ${id}`),
      batch: batch ? { id: batch.id, number: batch.number, checkNumber: batch.checkNumber, runAt: batch.runAt } : null,
      voidedBy: voided
        ? {
            id: voided.id,
            number: voided.number,
            reason: String(voided.details.void_reason ?? ''),
            at: voided.postedAt,
          }
        : null,
    };
  });
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const detail = (row: TransactionRow, name: string) => (row.details[name] === undefined ? null : row.details[name]);
const pendingReason = (row: TransactionRow) =>
  row.status === 'pending_approval' ? ((row.authority?.reason as string | null | undefined) ?? null) : null;

/** Resources other modules own are named only by type here (`typeOnly`: never serialized by this module). */
const common = {
  claim: { resource: () => typeOnly('claims'), ids: (r: TransactionRow) => String(r.claimId) },
  exposure: { resource: () => typeOnly('exposures'), ids: (r: TransactionRow) => String(r.exposureId) },
  transaction: { resource: () => transactionResource, ids: (r: TransactionRow) => String(r.id) },
};

export const reserveResource = defineResource<TransactionView>({
  type: 'reserves',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/reserves/`,
  attributes: (r) => ({
    amount: r.amount,
    new_amount: detail(r, 'new_amount'),
    comments: detail(r, 'comments') ?? '',
    reserve_category: r.reserveCategory,
    transaction_number: r.number,
    transaction_type: r.type,
    transaction_status: r.status,
    pending_reason: pendingReason(r),
    entry_by: r.requestedBy,
    date_added: iso(r.requestedAt),
    date_modified: iso(r.decidedAt ?? r.postedAt ?? r.requestedAt),
  }),
  relationships: common,
});

export const paymentResource = defineResource<TransactionView>({
  type: 'payments',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/payments/`,
  attributes: (r) => ({
    amount: r.amount,
    reserve_category: r.reserveCategory,
    comments: detail(r, 'comments') ?? '',
    due_date: detail(r, 'due_date'),
    final_payment: r.details.final_payment === true,
    in_payment_of: detail(r, 'in_payment_of'),
    from_date: detail(r, 'from_date'),
    through_date: detail(r, 'through_date'),
    billed_amount: detail(r, 'billed_amount'),
    invoice_number: detail(r, 'invoice_number'),
    invoice_date: detail(r, 'invoice_date'),
    pay_code: detail(r, 'pay_code'),
    payment_method: detail(r, 'payment_method'),
    // The payees' names, for every Payments table (the relationship names them by id).
    payee: r.payeeNames.join('; '),
    payment_type: detail(r, 'payment_type'),
    deductible_amount_before_adjustments: detail(r, 'deductible_amount_before_adjustments'),
    deductible_amount_to_pay: detail(r, 'deductible_amount_to_pay'),
    is_processed: r.batch !== null,
    processed_date: iso(r.batch?.runAt),
    check_number: r.batch?.checkNumber ?? null,
    check_date: r.batch ? r.batch.runAt.toISOString().slice(0, 10) : null,
    cleared_date: r.clearedDate,
    void_reason: r.voidedBy?.reason ?? null,
    voided: r.voidedBy !== null,
    transaction_number: r.number,
    transaction_status: r.status,
    pending_reason: pendingReason(r),
    entry_by: r.requestedBy,
    date_added: iso(r.requestedAt),
  }),
  relationships: {
    ...common,
    payees: {
      resource: () => typeOnly('payees'),
      many: true,
      ids: (r) => ((r.details.payee_ids as number[] | undefined) ?? []).map(String),
    },
  },
});

export const recoveryResource = defineResource<TransactionView>({
  type: 'recoveries',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/recoveries/`,
  attributes: (r) => ({
    amount: r.amount,
    reserve_category: r.reserveCategory,
    recovery_type: detail(r, 'recovery_type'),
    received_date: detail(r, 'received_date'),
    comments: detail(r, 'comments') ?? '',
    pay_code: detail(r, 'pay_code'),
    void_reason: r.voidedBy?.reason ?? null,
    voided: r.voidedBy !== null,
    transaction_number: r.number,
    transaction_status: r.status,
    entry_by: r.requestedBy,
    date_added: iso(r.requestedAt),
  }),
  relationships: {
    ...common,
    payor: {
      resource: () => typeOnly('payors'),
      ids: (r) => (r.details.payor_id == null ? null : String(r.details.payor_id)),
    },
    party: {
      resource: () => typeOnly('parties'),
      ids: (r) => (r.details.party_id == null ? null : String(r.details.party_id)),
    },
  },
});

export const transactionResource: ReturnType<typeof defineResource<TransactionView>> = defineResource<TransactionView>({
  type: 'transactions',
  id: (r) => String(r.id),
  basePath: `${LEDGER_BASE}/transactions/`,
  attributes: (r) => ({
    number: r.number,
    amount: r.amount,
    posted_date: iso(r.postedAt),
    expired: false,
    transaction_type: r.type,
    transaction_status: r.status,
    reserve_category: r.reserveCategory,
    requested_by: r.requestedBy,
    requested_at: iso(r.requestedAt),
    decided_by: r.decidedBy,
    decided_at: iso(r.decidedAt),
    decision_reason: r.decisionReason,
    pending_reason: pendingReason(r),
    authority: r.authority,
    void_reason: detail(r, 'void_reason'),
  }),
  relationships: {
    claim: common.claim,
    exposure: common.exposure,
    reverses: {
      resource: () => transactionResource,
      ids: (r) => (r.reversesTransactionId === null ? null : String(r.reversesTransactionId)),
    },
  },
});

/** The resource a transaction is answered as, by its type. */
export function resourceOfType(type: string) {
  if (type === 'reserve') return reserveResource;
  if (type === 'payment') return paymentResource;
  if (type === 'recovery') return recoveryResource;
  return transactionResource;
}
