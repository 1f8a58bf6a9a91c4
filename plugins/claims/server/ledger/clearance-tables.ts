import { sql } from 'drizzle-orm';
import { date, index, integer, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { claimsSchema } from '../core/tables.js';
import { ledgerTransaction } from './tables.js';

/**
 * When an issued payment cleared the bank (docs/claims-accounting.md, "Payment processing").
 * Append-only like the rest of the ledger (trigger in a custom migration): a correction is a new
 * row naming the row it corrects (`corrects_id`, at most one correction each), with a reason; its
 * `cleared_date` may be null ("not cleared after all", e.g. a stopped check). A payment's current
 * cleared date is that of its row no other row corrects.
 */
export const paymentClearance = claimsSchema.table(
  'payment_clearance',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => ledgerTransaction.id),
    clearedDate: date('cleared_date', { mode: 'string' }),
    correctsId: integer('corrects_id').references((): AnyPgColumn => paymentClearance.id),
    reason: text('reason'),
    recordedBy: text('recorded_by').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('payment_clearance_transaction_idx').on(table.transactionId, table.id),
    uniqueIndex('payment_clearance_corrects_key').on(table.correctsId),
    // One first clearing per payment; everything after it is a correction.
    uniqueIndex('payment_clearance_first_key')
      .on(table.transactionId)
      .where(sql`${table.correctsId} is null`),
  ],
);
