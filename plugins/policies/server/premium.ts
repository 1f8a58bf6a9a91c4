import DecimalJs from 'decimal.js';

/**
 * Earned premium, cancellation and billing arithmetic (docs/policies.md, "Earned premium"). Pure
 * functions over decimal text: no float ever touches money, and rounding to cents happens once, at
 * the end of each figure (half-up).
 *
 * Day-count convention — actual/actual by term: a term of N calendar days (365, or 366 across a
 * 29 February) earns 1/N of its annual premium per day. Days are counted from the effective date
 * (inclusive) to the end date (exclusive), so a policy cancelled on day 150 (cancellation date =
 * effective date + 150 days) has been in force 150 days and has N − 150 unearned days left.
 */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP });
export type Decimal = InstanceType<typeof Decimal>;

const DAY = 86_400_000;

/** Days from `from` to `to` (ISO days), `to` exclusive; negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Adds calendar months, keeping the day of month where it exists (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export const cents = (value: DecimalJs.Value): string => new Decimal(value).toDecimalPlaces(2).toFixed(2);

/** One stretch of a term at one annual premium: from its start for `days` days. */
export interface PremiumSegment {
  annualPremium: string;
  days: number;
}

/**
 * Premium earned by a run of segments over a term of `termDays` days: Σ annual × days ÷ termDays,
 * rounded to cents once. $3,000 for 280 days then $2,000 for 85 days of a 365-day term earns
 * $2,767.12.
 */
export function earnedPremium(segments: PremiumSegment[], termDays: number): string {
  if (termDays <= 0) throw new RangeError('A term has at least one day.');
  let sum = new Decimal(0);
  for (const segment of segments) {
    if (segment.days < 0) throw new RangeError('A segment cannot have negative days.');
    sum = sum.plus(new Decimal(segment.annualPremium).times(segment.days).dividedBy(termDays));
  }
  return cents(sum);
}

/** A revision as the premium arithmetic sees it: the day it takes effect and its annual premium. */
export interface RevisionPremium {
  revisionDate: string;
  annualPremium: string;
}

/**
 * The segments of a term from its revisions (sorted by revision date; a later revision on the same
 * day replaces an earlier one), cut at `until` (exclusive; the expiration date when omitted).
 */
export function termSegments(
  term: { effectiveDate: string; expirationDate: string },
  revisions: RevisionPremium[],
  until?: string,
): PremiumSegment[] {
  const end = until && until < term.expirationDate ? until : term.expirationDate;
  const sorted = [...revisions].sort((a, b) =>
    a.revisionDate < b.revisionDate ? -1 : a.revisionDate > b.revisionDate ? 1 : 0,
  );
  const segments: PremiumSegment[] = [];
  sorted.forEach((revision, i) => {
    const start = revision.revisionDate < term.effectiveDate ? term.effectiveDate : revision.revisionDate;
    const next = sorted[i + 1]?.revisionDate ?? term.expirationDate;
    const stop = next < end ? next : end;
    const days = daysBetween(start, stop);
    if (days > 0) segments.push({ annualPremium: revision.annualPremium, days });
  });
  return segments;
}

/** Earned and unearned premium of a term on a day (`asOf` exclusive: the premium of the days before it). */
export function earnedAsOf(
  term: { effectiveDate: string; expirationDate: string },
  revisions: RevisionPremium[],
  asOf: string,
  cancelledOn?: string | null,
): { earned: string; unearned: string; written: string; termDays: number } {
  const termDays = daysBetween(term.effectiveDate, term.expirationDate);
  const written = earnedPremium(termSegments(term, revisions, cancelledOn ?? undefined), termDays);
  const until = cancelledOn && cancelledOn < asOf ? cancelledOn : asOf;
  const earned = asOf <= term.effectiveDate ? '0.00' : earnedPremium(termSegments(term, revisions, until), termDays);
  return { earned, unearned: cents(new Decimal(written).minus(earned)), written, termDays };
}

export type ShortRate =
  { kind: 'factor'; factor: string } | { kind: 'table'; table: { maxDays: number; retainedPercent: string }[] };

export type CancellationMethod = 'pro_rata' | 'short_rate' | 'flat';

export interface CancellationInput {
  /** The annual premium in force on the cancellation date (subject to return). */
  annualPremium: string;
  /** Fully earned items are never returned. */
  fullyEarned?: string;
  effectiveDate: string;
  expirationDate: string;
  cancellationDate: string;
  method: CancellationMethod;
  shortRate?: ShortRate | null;
}

export interface CancellationResult {
  termDays: number;
  daysInForce: number;
  unearnedDays: number;
  proRataReturn: string;
  returnPremium: string;
  /** The premium the policy keeps: annual − return. */
  retained: string;
  explanation: string;
}

/**
 * The return premium of a cancellation. Pro rata: returnable × unearned days ÷ term days. Short
 * rate as a factor: the pro-rata return × factor ($500 annual cancelled on day 150 at 0.90 returns
 * $265.07). Short rate as a table: the first row whose `maxDays` covers the days in force gives the
 * percent of the returnable premium retained. Flat: everything returnable comes back.
 */
export function cancellationReturn(input: CancellationInput): CancellationResult {
  const termDays = daysBetween(input.effectiveDate, input.expirationDate);
  const daysInForce = Math.min(Math.max(daysBetween(input.effectiveDate, input.cancellationDate), 0), termDays);
  const unearnedDays = termDays - daysInForce;
  const returnable = new Decimal(input.annualPremium).minus(input.fullyEarned ?? '0');
  const proRata = returnable.times(unearnedDays).dividedBy(termDays);
  let result: DecimalJs;
  let explanation: string;
  if (input.method === 'flat') {
    result = returnable;
    explanation = `Flat: ${cents(returnable)} returned in full.`;
  } else if (input.method === 'pro_rata') {
    result = proRata;
    explanation = `Pro rata: ${cents(returnable)} × ${unearnedDays} ÷ ${termDays} days.`;
  } else {
    const rule = input.shortRate;
    if (!rule) throw new RangeError('The product has no short rate.');
    if (rule.kind === 'factor') {
      result = proRata.times(rule.factor);
      explanation = `Short rate: ${cents(returnable)} × ${unearnedDays} ÷ ${termDays} days × ${rule.factor}.`;
    } else {
      const row = [...rule.table].sort((a, b) => a.maxDays - b.maxDays).find((r) => daysInForce <= r.maxDays);
      const retained = new Decimal(row?.retainedPercent ?? '100').dividedBy(100);
      result = returnable.times(new Decimal(1).minus(retained));
      explanation = `Short rate table: ${daysInForce} days in force retain ${row?.retainedPercent ?? '100'}% of ${cents(returnable)}.`;
    }
  }
  if (result.isNegative()) result = new Decimal(0);
  const returnPremium = cents(result);
  return {
    termDays,
    daysInForce,
    unearnedDays,
    proRataReturn: cents(proRata),
    returnPremium,
    retained: cents(new Decimal(input.annualPremium).minus(returnPremium)),
    explanation,
  };
}

/**
 * The premium an endorsement writes: the change in annual premium × the days it has left ÷ term
 * days (negative for a return).
 */
export function endorsementDelta(
  term: { effectiveDate: string; expirationDate: string },
  oldAnnual: string,
  newAnnual: string,
  effectiveDate: string,
): string {
  const termDays = daysBetween(term.effectiveDate, term.expirationDate);
  const left = Math.max(daysBetween(effectiveDate, term.expirationDate), 0);
  return cents(new Decimal(newAnnual).minus(oldAnnual).times(left).dividedBy(termDays));
}

export interface ScheduleRule {
  factors: string[];
  intervalMonths: number;
  installmentFee: string;
  cardFee: string;
}

/**
 * Installments of a premium under a schedule: each installment premium × its factor rounded to
 * cents, the last one taking what rounding left so the amounts sum to the premium exactly; the
 * installment fee on every installment after the first, the card fee on each when paid by card.
 */
export function installments(
  rule: ScheduleRule,
  premium: string,
  effectiveDate: string,
  paymentMethod: string | null,
): { number: number; dueDate: string; amount: string; fee: string; total: string }[] {
  const total = new Decimal(premium);
  const factorSum = rule.factors.reduce((sum, f) => sum.plus(f), new Decimal(0));
  if (!factorSum.equals(1)) throw new RangeError(`Installment factors sum to ${factorSum.toString()}, not 1.`);
  let allocated = new Decimal(0);
  return rule.factors.map((factor, i) => {
    const last = i === rule.factors.length - 1;
    const amount = last ? total.minus(allocated) : total.times(factor).toDecimalPlaces(2);
    allocated = allocated.plus(amount);
    let fee = new Decimal(i === 0 ? 0 : rule.installmentFee);
    if (paymentMethod === 'card') fee = fee.plus(rule.cardFee);
    return {
      number: i + 1,
      dueDate: addMonths(effectiveDate, i * rule.intervalMonths),
      amount: cents(amount),
      fee: cents(fee),
      total: cents(amount.plus(fee)),
    };
  });
}
