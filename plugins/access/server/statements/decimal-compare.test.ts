import { describe, expect, it } from 'vitest';
import { compareDecimals, parseDecimal } from './decimal-compare.js';

const cmp = (a: unknown, b: unknown) => compareDecimals(parseDecimal(a)!, parseDecimal(b)!);

describe('decimal comparison', () => {
  it('compares money exactly, never through floats', () => {
    expect(cmp('4999.99', 5000)).toBe(-1);
    expect(cmp('5000.00', 5000)).toBe(0);
    expect(cmp('5000.001', '5000')).toBe(1);
    // 0.1 + 0.2 is 0.30000000000000004 as a float; as decimals the sum's pieces compare exactly.
    expect(cmp('0.30000000000000001', '0.3')).toBe(1);
    expect(cmp('12345678901234567890.12', '12345678901234567890.11')).toBe(1);
  });

  it('handles signs, zeros, leading and trailing zeros', () => {
    expect(cmp('-1', '1')).toBe(-1);
    expect(cmp('-2', '-1')).toBe(-1);
    expect(cmp('-0', '0.000')).toBe(0);
    expect(cmp('007.50', '7.5')).toBe(0);
    expect(cmp('.5', '0.5')).toBe(0);
    expect(cmp('0.05', '0.5')).toBe(-1);
    expect(cmp('0.5', '0.51')).toBe(-1);
    expect(cmp('10', '9.99')).toBe(1);
  });

  it('reads numbers through their decimal form, exponents included', () => {
    expect(cmp(1e21, '1000000000000000000000')).toBe(0);
    expect(cmp(1.5e-7, '0.00000015')).toBe(0);
    expect(cmp(0.1, '0.1')).toBe(0);
  });

  it('refuses what is not a decimal', () => {
    for (const value of [
      '',
      'abc',
      '1,000',
      '1.2.3',
      '--1',
      'NaN',
      Number.NaN,
      Infinity,
      true,
      null,
      {},
      '2024-01-01',
    ]) {
      expect(parseDecimal(value), String(value)).toBeNull();
    }
  });
});
