import { BUCKET_OF, type LedgerEntry, type ReserveCategory } from './ledger-entry.js';
import { formatMoney, type Cents } from './money.js';

/**
 * Balances are never stored: they are sums over the posted entries, so replaying the entries always
 * reproduces them. The three sums per (exposure, reserve category) are
 *
 *   reserve   = Σ reserve_change + Σ reserve_erosion + Σ reserve_close   (the open reserve, ≥ 0)
 *   paid      = Σ payment
 *   recovered = Σ recovery
 *
 * and every total is derived from them:
 *
 *   reserve_outstanding = reserve
 *   total_incurred      = paid + reserve_outstanding        (what the claim is expected to cost, gross)
 *   net_paid            = paid − recovered
 *   net_incurred        = total_incurred − recovered        (expected cost after salvage and subrogation)
 *
 * An exposure's totals are the sums over its categories; a claim's the sums over its exposures.
 */
export interface BucketSums {
  reserve: Cents;
  paid: Cents;
  recovered: Cents;
}

export interface Totals {
  reserve_outstanding: string;
  paid: string;
  recovered: string;
  total_incurred: string;
  net_paid: string;
  net_incurred: string;
}

export const emptySums = (): BucketSums => ({ reserve: 0n, paid: 0n, recovered: 0n });

export function addSums(target: BucketSums, source: BucketSums): BucketSums {
  target.reserve += source.reserve;
  target.paid += source.paid;
  target.recovered += source.recovered;
  return target;
}

export const totalIncurred = (s: BucketSums): Cents => s.paid + s.reserve;

export function totalsOf(s: BucketSums): Totals {
  return {
    reserve_outstanding: formatMoney(s.reserve),
    paid: formatMoney(s.paid),
    recovered: formatMoney(s.recovered),
    total_incurred: formatMoney(totalIncurred(s)),
    net_paid: formatMoney(s.paid - s.recovered),
    net_incurred: formatMoney(totalIncurred(s) - s.recovered),
  };
}

type EntryLike = Pick<LedgerEntry, 'claimId' | 'exposureId' | 'category' | 'kind' | 'amount'>;

/** The ledger of one or more claims folded into sums per claim, exposure and category. */
export class LedgerBalances {
  /** key `${exposureId}` → category → sums */
  readonly byExposure = new Map<number, Map<ReserveCategory, BucketSums>>();
  readonly claimOfExposure = new Map<number, number>();

  static replay(entries: Iterable<EntryLike>): LedgerBalances {
    const balances = new LedgerBalances();
    for (const entry of entries) balances.apply(entry);
    return balances;
  }

  apply(entry: EntryLike): void {
    this.claimOfExposure.set(entry.exposureId, entry.claimId);
    let categories = this.byExposure.get(entry.exposureId);
    if (!categories) this.byExposure.set(entry.exposureId, (categories = new Map()));
    let sums = categories.get(entry.category);
    if (!sums) categories.set(entry.category, (sums = emptySums()));
    sums[BUCKET_OF[entry.kind]] += entry.amount;
  }

  category(exposureId: number, category: ReserveCategory): BucketSums {
    return { ...(this.byExposure.get(exposureId)?.get(category) ?? emptySums()) };
  }

  exposure(exposureId: number): BucketSums {
    const total = emptySums();
    for (const sums of this.byExposure.get(exposureId)?.values() ?? []) addSums(total, sums);
    return total;
  }

  claim(claimId: number): BucketSums {
    const total = emptySums();
    for (const [exposureId, claim] of this.claimOfExposure) {
      if (claim === claimId) addSums(total, this.exposure(exposureId));
    }
    return total;
  }

  /** Every (exposure, category) with its sums, for comparisons and listings. */
  *cells(): Generator<{ exposureId: number; category: ReserveCategory; sums: BucketSums }> {
    for (const [exposureId, categories] of this.byExposure) {
      for (const [category, sums] of categories) yield { exposureId, category, sums: { ...sums } };
    }
  }
}
