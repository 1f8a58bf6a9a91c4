/**
 * Exact comparison of decimal values, the way money is compared: "4999.99" < 5000, "5000.00" == 5000,
 * never through binary floating point. Numbers from JSON are read through their shortest decimal
 * representation (`String(0.1)` is "0.1"), which is the decimal the sender wrote.
 */
export interface Decimal {
  negative: boolean;
  /** Integer digits without leading zeros ('' for zero). */
  integer: string;
  /** Fraction digits without trailing zeros. */
  fraction: string;
}

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
const LEADING_FRACTION = /^([+-]?)\.(\d+)$/;

export function parseDecimal(value: unknown): Decimal | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.length > 0 && value.length <= 100 ? value.trim() : '';
  } else {
    return null;
  }
  let match = DECIMAL.exec(text);
  if (!match) {
    const short = LEADING_FRACTION.exec(text);
    if (!short) return null;
    match = ['', short[1]!, '0', short[2]!, undefined] as unknown as RegExpExecArray;
  }
  let digits = match[2]! + (match[3] ?? '');
  let point = match[2]!.length;
  if (match[4]) point += Number(match[4]);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const integer = digits.slice(0, point).replace(/^0+/, '');
  const fraction = digits.slice(point).replace(/0+$/, '');
  const zero = integer === '' && fraction === '';
  return { negative: !zero && match[1] === '-', integer, fraction };
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  let order: number;
  if (a.integer.length !== b.integer.length) order = a.integer.length < b.integer.length ? -1 : 1;
  else if (a.integer !== b.integer) order = a.integer < b.integer ? -1 : 1;
  else if (a.fraction !== b.fraction) order = a.fraction < b.fraction ? -1 : 1;
  else order = 0;
  return (order * sign) as -1 | 0 | 1;
}
