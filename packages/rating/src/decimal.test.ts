import { describe, expect, it } from 'vitest';
import { Decimal, roundDecimal, toDecimal } from './decimal.js';

describe('decimal rounding', () => {
  const r = (v: string, places: number, mode: 'half-up' | 'half-even' | 'down' | 'up') =>
    roundDecimal(new Decimal(v), { places, mode }).toFixed(places);

  it('rounds .5 cases away from zero with half-up and to even with half-even', () => {
    expect(r('2.345', 2, 'half-up')).toBe('2.35');
    expect(r('2.345', 2, 'half-even')).toBe('2.34');
    expect(r('2.355', 2, 'half-even')).toBe('2.36');
    expect(r('-2.345', 2, 'half-up')).toBe('-2.35');
    expect(r('-2.345', 2, 'half-even')).toBe('-2.34');
    expect(r('0.5', 0, 'half-even')).toBe('0');
    expect(r('1.5', 0, 'half-even')).toBe('2');
    expect(r('2.3451', 2, 'half-even')).toBe('2.35'); // not a tie
  });

  it('truncates with down and goes away from zero with up', () => {
    expect(r('2.349', 2, 'down')).toBe('2.34');
    expect(r('-2.349', 2, 'down')).toBe('-2.34');
    expect(r('2.341', 2, 'up')).toBe('2.35');
    expect(r('-2.341', 2, 'up')).toBe('-2.35');
  });

  it('does decimal, not binary, arithmetic', () => {
    expect(toDecimal(0.1).plus(0.2).toFixed()).toBe('0.3');
    expect(toDecimal('1.005').times(1000).toFixed()).toBe('1005');
    // 1.005 as a float is 1.00499999…; as a decimal it rounds half-up to 1.01.
    expect(r('1.005', 2, 'half-up')).toBe('1.01');
    expect(() => toDecimal(Number.NaN)).toThrow('not a finite number');
  });
});
