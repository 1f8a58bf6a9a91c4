import DecimalJs from 'decimal.js';

/**
 * The engine's own Decimal: 40 significant digits, never a float. Every amount, factor and rate
 * goes through it; rounding happens only where a calculation or the product declares it.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -30,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;

export type RoundingMode = 'half-up' | 'half-even' | 'down' | 'up';

/** A rounding step: `places` decimal places with one of four modes. */
export interface RoundSpec {
  places: number;
  mode?: RoundingMode;
}

/** The default final rounding of a premium: 2 places, half-up. */
export const DEFAULT_PREMIUM_ROUNDING: Required<RoundSpec> = { places: 2, mode: 'half-up' };

const MODES: Record<RoundingMode, DecimalJs.Rounding> = {
  // Ties go away from zero: 2.5 → 3, -2.5 → -3.
  'half-up': DecimalJs.ROUND_HALF_UP,
  // Ties go to the even neighbour: 2.5 → 2, 3.5 → 4.
  'half-even': DecimalJs.ROUND_HALF_EVEN,
  // Toward zero (truncation).
  down: DecimalJs.ROUND_DOWN,
  // Away from zero.
  up: DecimalJs.ROUND_UP,
};

export const ROUNDING_MODES = Object.keys(MODES) as RoundingMode[];

export function isRoundingMode(value: unknown): value is RoundingMode {
  return typeof value === 'string' && Object.hasOwn(MODES, value);
}

/** Rounds to `places` decimal places with the given mode (half-up when none is given). */
export function roundDecimal(value: Decimal, spec: RoundSpec): Decimal {
  return value.toDecimalPlaces(spec.places, MODES[spec.mode ?? 'half-up']);
}

/** Turns a number or a numeric string into a Decimal; throws on anything else. */
export function toDecimal(value: number | string | Decimal): Decimal {
  if (Decimal.isDecimal(value)) return value as Decimal;
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
  return new Decimal(value);
}

/** A numeric-looking string ("12", "-3.5", "1e3") — answers often come as text from forms. */
export function isNumericString(value: string): boolean {
  return /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(value);
}

/** Canonical text for a Decimal: no exponent, no trailing zeros beyond what it carries. */
export function decimalText(value: Decimal): string {
  return value.toFixed();
}
