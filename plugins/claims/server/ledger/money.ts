/**
 * Money in the ledger is exact: amounts travel as decimal strings ("1234.50") in the API, live in
 * `numeric(14,2)` columns in the database and are computed as integer cents (bigint) here. Never a
 * JavaScript number, so no float rounding can creep into a balance.
 */
export type Cents = bigint;

/** Up to 12 integer digits and at most 2 decimal places, optionally negative. */
const MONEY_TEXT = /^(-)?(\d{1,12})(?:\.(\d{1,2}))?$/;

export const MONEY_MAX_INTEGER_DIGITS = 12;

export function isMoneyText(text: string): boolean {
  return MONEY_TEXT.test(text);
}

/** "1234.5" → 123450n. Throws on anything that is not a decimal with at most two places. */
export function parseMoney(text: string): Cents {
  const match = MONEY_TEXT.exec(text.trim());
  if (!match) throw new RangeError(`'${text}' is not an amount with at most 2 decimal places.`);
  const [, sign, whole, fraction = ''] = match;
  const cents = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign && cents !== 0n ? -cents : cents;
}

/** 123450n → "1234.50" (always two places, the way numeric(14,2) answers). */
export function formatMoney(cents: Cents): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = abs / 100n;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export const ZERO: Cents = 0n;
