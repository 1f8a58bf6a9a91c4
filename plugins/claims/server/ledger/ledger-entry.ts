import type { Cents } from './money.js';

/**
 * The ledger's vocabulary. A *transaction* is one business act a user asks for (set a reserve, make
 * a payment, record a recovery, void one of them); once posted it is written as one or more
 * *entries*, each moving money in exactly one bucket of one exposure and reserve category. Entries
 * are never changed: a correction is a new transaction whose entries reverse earlier ones.
 */

/** The buckets every balance is a sum of. */
export const BUCKETS = ['reserve', 'paid', 'recovered'] as const;
export type Bucket = (typeof BUCKETS)[number];

/**
 * What an entry records. Each kind moves exactly one bucket:
 * - `reserve_change`   reserve: a reserve set or changed by an adjuster (signed)
 * - `reserve_erosion`  reserve: a payment uses up the open reserve it is paid from (negative)
 * - `reserve_close`    reserve: a final payment closes what remains of the reserve (negative)
 * - `payment`          paid: money paid out (positive)
 * - `recovery`         recovered: money received back, salvage or subrogation (positive)
 * A reversing entry keeps the kind of the entry it reverses, negates the amount and names it in
 * `reversesEntryId`.
 */
export const ENTRY_KINDS = ['reserve_change', 'reserve_erosion', 'reserve_close', 'payment', 'recovery'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export const BUCKET_OF: Record<EntryKind, Bucket> = {
  reserve_change: 'reserve',
  reserve_erosion: 'reserve',
  reserve_close: 'reserve',
  payment: 'paid',
  recovery: 'recovered',
};

/** Transaction types: what the user asked for. Voids are the reversing transactions. */
export const TRANSACTION_TYPES = ['reserve', 'payment', 'recovery', 'payment_void', 'recovery_void'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Reserve categories an exposure's money is kept in. */
export const RESERVE_CATEGORIES = ['indemnity', 'expense', 'legal', 'medical'] as const;
export type ReserveCategory = (typeof RESERVE_CATEGORIES)[number];

export interface LedgerEntry {
  /** Database id; entries are replayed in id order. */
  id: number;
  transactionId: number;
  claimId: number;
  exposureId: number;
  category: ReserveCategory;
  kind: EntryKind;
  amount: Cents;
  reversesEntryId: number | null;
}

/** An entry before it has an id and a transaction. */
export type EntryDraft = Omit<LedgerEntry, 'id' | 'transactionId'>;
