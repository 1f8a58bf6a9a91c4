/**
 * Money, number and date formatting in one place. Money arrives from the API as decimal strings
 * ("12925.5", "-40.125"); it is grouped and rounded here by string and BigInt arithmetic only, so
 * no amount ever passes through a float.
 */

const DECIMAL = /^([-+]?)(\d*)(?:\.(\d*))?$/;

/** Rounds a decimal string half away from zero to `places` digits; null when it is not a number. */
export function roundDecimal(
  value: string,
  places: number,
): { negative: boolean; whole: string; fraction: string } | null {
  const match = DECIMAL.exec(value.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null;
  const [, sign, wholeRaw = '', fractionRaw = ''] = match;
  const digits = `${wholeRaw || '0'}${fractionRaw.padEnd(places + 1, '0').slice(0, places + 1)}`;
  // The last digit decides the rounding, then it is dropped.
  let scaled = BigInt(digits.slice(0, -1) || '0');
  if (Number(digits.at(-1)) >= 5) scaled += 1n;
  const text = scaled.toString().padStart(places + 1, '0');
  const whole = places === 0 ? text : text.slice(0, -places);
  const fraction = places === 0 ? '' : text.slice(-places);
  return { negative: sign === '-' && scaled !== 0n, whole: whole.replace(/^0+(?=\d)/, ''), fraction };
}

function group(whole: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export interface DecimalFormat {
  /** Digits after the point (default 2). */
  places?: number;
  /** Shown before the amount, e.g. "$" or "USD " (default none). */
  prefix?: string;
  /** What an empty value shows (default an en dash). */
  empty?: string;
}

/**
 * `"12925.5"` → `"12,925.50"`; `"-40.125"` → `"-40.13"`; null/"" → "–". Accepts numbers too (counts,
 * not money) but money should always come as the API's string.
 */
export function formatDecimal(value: string | number | bigint | null | undefined, options: DecimalFormat = {}): string {
  const { places = 2, prefix = '', empty = '–' } = options;
  if (value === null || value === undefined || value === '') return empty;
  const rounded = roundDecimal(String(value), places);
  if (!rounded) return String(value);
  const body = `${prefix}${group(rounded.whole)}${places > 0 ? `.${rounded.fraction}` : ''}`;
  return rounded.negative ? `-${body}` : body;
}

/**
 * Money: `formatMoney("1675.366")` → `"1,675.37"`; with a currency, `formatMoney("5", "USD")` →
 * `"$5.00"`. Screens inside one carrier's books show bare amounts (the column says what they are).
 */
export function formatMoney(
  value: string | bigint | null | undefined,
  currency?: string,
  options: Omit<DecimalFormat, 'prefix'> = {},
): string {
  const symbols: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', CAD: 'CA$', AUD: 'A$' };
  const prefix = currency ? (symbols[currency] ?? `${currency} `) : '';
  return formatDecimal(value, { ...options, prefix });
}

/** Whole counts with grouping: 20000 → "20,000". */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : formatDecimal(String(Math.trunc(value)), { places: 0 });
}

// A date is spelled by hand ("Mar 14, 2026", what Intl's en-US medium date gives): building an
// Intl formatter loads the locale's data, a few milliseconds of the first page's start (issue 13,
// Total Blocking Time). The time of day, with its locale rules for AM/PM, stays with Intl, made on
// first use.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const spelled = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
let DATE_TIME: Intl.DateTimeFormat | undefined;
const dateTimeFormat = () =>
  (DATE_TIME ??= new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }));

/**
 * A calendar date: "2026-03-14" → "Mar 14, 2026". Date-only strings are read as that day (not
 * midnight UTC, which would show the day before west of Greenwich).
 */
export function formatDate(value: string | Date | null | undefined, empty = '–'): string {
  if (value === null || value === undefined || value === '') return empty;
  const dateOnly = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const date = dateOnly
    ? new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]))
    : value instanceof Date
      ? value
      : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : spelled(date);
}

/** A moment in local time: "Mar 14, 2026, 3:05 PM". */
export function formatDateTime(value: string | Date | null | undefined, empty = '–'): string {
  if (value === null || value === undefined || value === '') return empty;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat().format(date);
}
