import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { claim, claimsSchema, exposure, party } from '../core/tables.js';

/**
 * The accounting ledger (docs/claims-accounting.md). Money is numeric(14,2). Posted transactions,
 * their entries and payment batches are append-only: triggers (migration 0001) raise on UPDATE or
 * DELETE of them, for every role, and where the app's role is not a superuser UPDATE/DELETE are
 * also revoked. Balances are never stored; they are sums over ledger_entry.
 */
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const transactionNumberSeq = claimsSchema.sequence('ledger_transaction_number_seq');
export const paymentBatchNumberSeq = claimsSchema.sequence('payment_batch_number_seq');

/**
 * One business act: a reserve change, a payment, a recovery, or the void of a payment or recovery.
 * `pending_approval` rows wait for an approver (over the requester's authority); only they may be
 * updated, once, to `posted` or `rejected`. Entries exist only for posted transactions.
 */
export const ledgerTransaction = claimsSchema.table(
  'ledger_transaction',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    number: text('number').notNull(),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id),
    exposureId: integer('exposure_id')
      .notNull()
      .references(() => exposure.id),
    type: text('type').notNull(),
    reserveCategory: text('reserve_category').notNull(),
    /** Payments and recoveries: the amount (> 0); reserves: the change (signed); voids: minus the voided amount. */
    amount: money('amount').notNull(),
    status: text('status').notNull(),
    postedAt: timestamptz('posted_at'),
    requestedBy: text('requested_by').notNull(),
    requestedAt: timestamptz('requested_at').notNull().defaultNow(),
    decidedBy: text('decided_by'),
    decidedAt: timestamptz('decided_at'),
    decisionReason: text('decision_reason'),
    /** A void names the transaction it reverses; at most one void each (unique). */
    reversesTransactionId: integer('reverses_transaction_id').references((): AnyPgColumn => ledgerTransaction.id),
    /** The type's own attributes (payment: payees, pay code, method, deductibles …; reserve: new_amount). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** Why it waits: the authority decision at request time. */
    authority: jsonb('authority').$type<Record<string, unknown> | null>(),
  },
  (table) => [
    uniqueIndex('ledger_transaction_number_key').on(table.number),
    uniqueIndex('ledger_transaction_reverses_key').on(table.reversesTransactionId),
    index('ledger_transaction_claim_idx').on(table.claimId, table.id),
    index('ledger_transaction_exposure_idx').on(table.exposureId),
    index('ledger_transaction_status_idx').on(table.status),
    check(
      'ledger_transaction_type_check',
      sql`${table.type} in ('reserve', 'payment', 'recovery', 'payment_void', 'recovery_void')`,
    ),
    check('ledger_transaction_status_check', sql`${table.status} in ('pending_approval', 'posted', 'rejected')`),
  ],
);

/** One movement of one bucket (reserve, paid, recovered) of one exposure and reserve category. */
export const ledgerEntry = claimsSchema.table(
  'ledger_entry',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransaction.id),
    claimId: integer('claim_id')
      .notNull()
      .references(() => claim.id),
    exposureId: integer('exposure_id')
      .notNull()
      .references(() => exposure.id),
    reserveCategory: text('reserve_category').notNull(),
    kind: text('kind').notNull(),
    amount: money('amount').notNull(),
    reversesEntryId: bigint('reverses_entry_id', { mode: 'number' }).references((): AnyPgColumn => ledgerEntry.id),
    postedAt: timestamptz('posted_at').notNull().defaultNow(),
  },
  (table) => [
    index('ledger_entry_claim_idx').on(table.claimId, table.id),
    index('ledger_entry_exposure_idx').on(table.exposureId),
    index('ledger_entry_transaction_idx').on(table.transactionId),
    uniqueIndex('ledger_entry_reverses_key').on(table.reversesEntryId),
    check(
      'ledger_entry_kind_check',
      sql`${table.kind} in ('reserve_change', 'reserve_erosion', 'reserve_close', 'payment', 'recovery')`,
    ),
  ],
);

/**
 * A claim's running balance: the sums of its posted ledger entries (docs/claims-accounting.md,
 * "Claim balance"). Kept by a statement trigger on ledger_entry (migration 0015), so it changes in
 * the same transaction as every posting, import or bulk load, and lists read total_incurred per
 * claim by key instead of summing the ledger. A claim without entries has no row (all zero).
 */
export const claimBalance = claimsSchema.table('claim_balance', {
  claimId: integer('claim_id')
    .primaryKey()
    .references(() => claim.id, { onDelete: 'cascade' }),
  reserveOutstanding: money('reserve_outstanding').notNull().default('0'),
  paid: money('paid').notNull().default('0'),
  recovered: money('recovered').notNull().default('0'),
  /** paid + reserve_outstanding (balances.ts). */
  totalIncurred: money('total_incurred').notNull().default('0'),
});

export const payee = claimsSchema.table(
  'payee',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    payeeType: text('payee_type').notNull().default('person'),
    taxId: text('tax_id'),
    email: text('email'),
    address: text('address').notNull().default(''),
    /** A claim's party paid as payee: its one payee row (POST payees/ with party_id finds or makes it). */
    partyId: integer('party_id').references(() => party.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('payee_party_key').on(table.partyId)],
);

export const payor = claimsSchema.table('payor', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  payorType: text('payor_type').notNull().default('insurer'),
  email: text('email'),
  address: text('address').notNull().default(''),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/** A run of payment processing: the posted, unprocessed, unvoided payments it issued. Append-only. */
export const paymentBatch = claimsSchema.table(
  'payment_batch',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    number: text('number').notNull(),
    amount: money('amount').notNull(),
    paymentsCount: integer('payments_count').notNull(),
    runBy: text('run_by').notNull(),
    runAt: timestamptz('run_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('payment_batch_number_key').on(table.number)],
);

/** A payment issued in a batch: it is processed, with its check number. One batch per payment. */
export const paymentBatchItem = claimsSchema.table(
  'payment_batch_item',
  {
    batchId: integer('batch_id')
      .notNull()
      .references(() => paymentBatch.id),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransaction.id),
    checkNumber: text('check_number').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.transactionId] }),
    uniqueIndex('payment_batch_item_transaction_key').on(table.transactionId),
  ],
);

/** Caps on what a user, or everyone acting in a role, may post without approval. */
export const authorityLimit = claimsSchema.table(
  'authority_limit',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    subjectType: text('subject_type').notNull(),
    subject: text('subject').notNull(),
    kind: text('kind').notNull(),
    perTransaction: money('per_transaction'),
    perCoverage: money('per_coverage'),
    perClaim: money('per_claim'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('authority_limit_subject_kind_key').on(table.subjectType, sql`lower(${table.subject})`, table.kind),
    check('authority_limit_subject_type_check', sql`${table.subjectType} in ('user', 'role')`),
    check('authority_limit_kind_check', sql`${table.kind} in ('reserve', 'payment')`),
  ],
);

/** The first answer to a request with an Idempotency-Key, replayed for the same key. */
export const idempotencyKey = claimsSchema.table(
  'idempotency_key',
  {
    username: text('username').notNull(),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    /** The answer's body as sent (text, so that a replay is byte for byte the same). */
    response: text('response'),
    completed: boolean('completed').notNull().default(false),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.username, table.scope, table.key] })],
);
