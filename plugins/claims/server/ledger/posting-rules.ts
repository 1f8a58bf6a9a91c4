import type { BucketSums } from './balances.js';
import type { EntryDraft, LedgerEntry, ReserveCategory } from './ledger-entry.js';
import { formatMoney, type Cents } from './money.js';

/**
 * The rules that turn a requested transaction into ledger entries, given the balances it acts on.
 * Pure: the routes load the balances under a row lock, ask these functions, and write what they
 * answer. A broken rule is a LedgerRuleError (a 400 naming the field) and nothing is written.
 *
 * - A reserve is set to a new amount (`new_amount`) or changed by a signed amount; the result may
 *   not be negative.
 * - A payment must be covered by the open reserve of its exposure and category: a larger payment
 *   is refused (the adjuster raises the reserve first — the reserve change is its own decision,
 *   with its own authority). It erodes the reserve by its amount; a final payment also closes
 *   what is left.
 * - A recovery adds to `recovered` and touches no reserve.
 * - A void reverses every entry of the transaction it voids, once.
 */
export class LedgerRuleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The request attribute at fault, for the JSON:API pointer. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LedgerRuleError';
  }
}

interface Target {
  claimId: number;
  exposureId: number;
  category: ReserveCategory;
}

export type ReserveRequest = Target & ({ newAmount: Cents } | { change: Cents });

export function planReserve(request: ReserveRequest, current: BucketSums): EntryDraft[] {
  const { claimId, exposureId, category } = request;
  const newAmount = 'newAmount' in request ? request.newAmount : current.reserve + request.change;
  if (newAmount < 0n) {
    throw new LedgerRuleError(
      'reserve_below_zero',
      `The ${category} reserve cannot go below zero: it is ${formatMoney(current.reserve)} and the change is ` +
        `${formatMoney(newAmount - current.reserve)}.`,
      'newAmount' in request ? 'new_amount' : 'amount',
    );
  }
  const delta = newAmount - current.reserve;
  if (delta === 0n) {
    throw new LedgerRuleError(
      'reserve_unchanged',
      `The ${category} reserve is already ${formatMoney(current.reserve)}.`,
      'newAmount' in request ? 'new_amount' : 'amount',
    );
  }
  return [{ claimId, exposureId, category, kind: 'reserve_change', amount: delta, reversesEntryId: null }];
}

export interface PaymentRequest extends Target {
  amount: Cents;
  finalPayment: boolean;
}

export function planPayment(request: PaymentRequest, current: BucketSums): EntryDraft[] {
  const { claimId, exposureId, category, amount } = request;
  if (amount <= 0n) throw new LedgerRuleError('amount_not_positive', 'The amount must be more than 0.00.', 'amount');
  if (amount > current.reserve) {
    throw new LedgerRuleError(
      'payment_exceeds_reserve',
      `The payment of ${formatMoney(amount)} exceeds the open ${category} reserve of ${formatMoney(current.reserve)}. ` +
        'Raise the reserve first.',
      'amount',
    );
  }
  const base = { claimId, exposureId, category, reversesEntryId: null };
  const entries: EntryDraft[] = [
    { ...base, kind: 'payment', amount },
    { ...base, kind: 'reserve_erosion', amount: -amount },
  ];
  const remaining = current.reserve - amount;
  if (request.finalPayment && remaining > 0n) entries.push({ ...base, kind: 'reserve_close', amount: -remaining });
  return entries;
}

export interface RecoveryRequest extends Target {
  amount: Cents;
}

export function planRecovery(request: RecoveryRequest): EntryDraft[] {
  const { claimId, exposureId, category, amount } = request;
  if (amount <= 0n) throw new LedgerRuleError('amount_not_positive', 'The amount must be more than 0.00.', 'amount');
  return [{ claimId, exposureId, category, kind: 'recovery', amount, reversesEntryId: null }];
}

/**
 * Reversal of a posted transaction's entries. `alreadyReversed` is true when a void of it exists.
 * Reversing a payment gives the reserve back what the payment eroded and closed, so the reserve
 * cannot go negative by it; reversing a recovery lowers `recovered` by exactly what it added.
 */
export function planReversal(original: LedgerEntry[], alreadyReversed: boolean, what: string): EntryDraft[] {
  if (original.length === 0)
    throw new LedgerRuleError('not_posted', `The ${what} is not posted; only a posted ${what} can be voided.`);
  if (alreadyReversed) throw new LedgerRuleError('already_voided', `The ${what} is already voided.`);
  return original.map((entry) => ({
    claimId: entry.claimId,
    exposureId: entry.exposureId,
    category: entry.category,
    kind: entry.kind,
    amount: -entry.amount,
    reversesEntryId: entry.id,
  }));
}
