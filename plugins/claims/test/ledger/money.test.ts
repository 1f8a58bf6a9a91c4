import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, isMoneyText, parseMoney } from '../../server/ledger/money.js';

describe('money as integer cents', () => {
  it.each([
    ['0', 0n, '0.00'],
    ['12', 1200n, '12.00'],
    ['12.5', 1250n, '12.50'],
    ['0.01', 1n, '0.01'],
    ['-3.10', -310n, '-3.10'],
    ['-0', 0n, '0.00'],
    ['999999999999.99', 99999999999999n, '999999999999.99'],
  ])('%s is %s cents and reads back as %s', (text, cents, formatted) => {
    expect(parseMoney(text)).toBe(cents);
    expect(formatMoney(cents)).toBe(formatted);
  });

  it.each(['1.234', '1e3', '', '.5', '1,000.00', 'NaN', '1 000', '0x10', '1234567890123'])('refuses %j', (text) => {
    expect(isMoneyText(text)).toBe(false);
    expect(() => parseMoney(text)).toThrow(RangeError);
  });

  it('adds exactly where floats would not (0.10 + 0.20 = 0.30)', () => {
    expect(formatMoney(parseMoney('0.10') + parseMoney('0.20'))).toBe('0.30');
  });

  it('round-trips every amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -99999999999999n, max: 99999999999999n }), (cents) => {
        expect(parseMoney(formatMoney(cents))).toBe(cents);
      }),
      { numRuns: 200 },
    );
  });
});
