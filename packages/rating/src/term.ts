import { Decimal, decimalText, roundDecimal, type RoundSpec } from './decimal.js';
import { RatingError } from './errors.js';

export const TRANSACTION_TYPES = [
  'new_business',
  'renewal',
  'endorsement',
  'cancellation',
  'reinstatement',
  'rewrite',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export interface TermInput {
  transactionType: TransactionType;
  /** First day of the policy term (YYYY-MM-DD). */
  termStart: string;
  /** Day the term ends (YYYY-MM-DD, exclusive: a year from 2026-01-01 ends 2027-01-01). */
  termEnd: string;
  /** The transaction's effective date; the term start when not given. */
  effectiveDate?: string;
}

export interface TermResult {
  transactionType: TransactionType;
  termStart: string;
  termEnd: string;
  effectiveDate: string;
  termDays: number;
  /** Days of the term this transaction's premium is for (see docs/rating.md). */
  daysInForce: number;
  /** daysInForce / termDays (shown to 10 places; the premium uses the exact fraction). */
  factor: string;
  /** Full-term premium of the rated risk tree. */
  termPremium: string;
  /** The part of the term premium from fully earned items (never prorated). */
  fullyEarnedPremium: string;
  /** The premium of this transaction: see the rule per transaction type. */
  proRataPremium: string;
  /** Cancellation only: termPremium − proRataPremium (what goes back). */
  returnPremium?: string;
}

const DAY_MS = 86_400_000;

/** Parses YYYY-MM-DD (an ISO timestamp's date part is accepted) to a UTC day number. */
export function dayNumber(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) throw new RatingError('invalid_date', `Invalid date '${date}': expected YYYY-MM-DD`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const time = Date.UTC(y, mo - 1, d);
  const check = new Date(time);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw new RatingError('invalid_date', `Invalid date '${date}'`);
  }
  return time / DAY_MS;
}

/**
 * Applies the term and pro-rata rules:
 * - new_business, renewal, rewrite, endorsement: in force from the effective date to the term end;
 *   premium = (term − fully earned) × days/termDays, rounded, + fully earned in full.
 * - cancellation: in force from the term start to the effective date; the earned premium is
 *   (term − fully earned) × days/termDays, rounded, + fully earned in full; return = term − earned.
 * - reinstatement: in force from the effective date to the term end; premium = (term − fully
 *   earned) × days/termDays, rounded; fully earned items were kept at cancellation and are not
 *   charged again.
 */
export function applyTerm(
  termPremium: Decimal,
  fullyEarned: Decimal,
  input: TermInput,
  rounding: Required<RoundSpec>,
): TermResult {
  const start = dayNumber(input.termStart);
  const end = dayNumber(input.termEnd);
  const effectiveDate = input.effectiveDate ?? input.termStart;
  const effective = dayNumber(effectiveDate);
  const termDays = end - start;
  if (termDays <= 0) throw new RatingError('invalid_term', `Term end ${input.termEnd} is not after ${input.termStart}`);
  if (effective < start || effective > end) {
    throw new RatingError(
      'invalid_term',
      `Effective date ${effectiveDate} is outside the term ${input.termStart} – ${input.termEnd}`,
    );
  }
  const money = (d: Decimal) => d.toFixed(rounding.places);
  const term = roundDecimal(termPremium, rounding);
  const earnedFully = roundDecimal(fullyEarned, rounding);
  const prorable = term.minus(earnedFully);
  let daysInForce: number;
  let premium: Decimal;
  let returnPremium: Decimal | undefined;
  const share = (days: number) => roundDecimal(prorable.times(days).dividedBy(termDays), rounding);
  switch (input.transactionType) {
    case 'new_business':
    case 'renewal':
    case 'rewrite':
    case 'endorsement':
      daysInForce = end - effective;
      premium = share(daysInForce).plus(earnedFully);
      break;
    case 'cancellation':
      daysInForce = effective - start;
      premium = share(daysInForce).plus(earnedFully);
      returnPremium = term.minus(premium);
      break;
    case 'reinstatement':
      daysInForce = end - effective;
      premium = share(daysInForce);
      break;
    default:
      throw new RatingError('invalid_transaction_type', `Unknown transaction type '${String(input.transactionType)}'`);
  }
  return {
    transactionType: input.transactionType,
    termStart: input.termStart,
    termEnd: input.termEnd,
    effectiveDate,
    termDays,
    daysInForce,
    factor: decimalText(new Decimal(daysInForce).dividedBy(termDays).toDecimalPlaces(10)),
    termPremium: money(term),
    fullyEarnedPremium: money(earnedFully),
    proRataPremium: money(premium),
    ...(returnPremium ? { returnPremium: money(returnPremium) } : {}),
  };
}
