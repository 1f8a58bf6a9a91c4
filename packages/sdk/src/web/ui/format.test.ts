import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatDecimal, formatMoney, roundDecimal } from './format.js';

describe('money and number formatting', () => {
  it('groups thousands and pads to two places', () => {
    expect(formatMoney('12925.5')).toBe('12,925.50');
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('1000000')).toBe('1,000,000.00');
  });

  it('rounds half away from zero on the decimal digits, not through a float', () => {
    // As floats, 1.005 and 0.015 are just below the half and would round down.
    expect(formatMoney('1.005')).toBe('1.01');
    expect(formatMoney('0.015')).toBe('0.02');
    expect(formatMoney('1675.366')).toBe('1,675.37');
    expect(formatMoney('-40.125')).toBe('-40.13');
    expect(formatMoney('-0.001')).toBe('0.00');
  });

  it('keeps every digit of amounts beyond float precision', () => {
    expect(formatMoney('12345678901234567.895')).toBe('12,345,678,901,234,567.90');
  });

  it('shows a currency symbol only when asked', () => {
    expect(formatMoney('5', 'USD')).toBe('$5.00');
    expect(formatMoney('-5', 'EUR')).toBe('-€5.00');
    expect(formatMoney('5', 'CHF')).toBe('CHF 5.00');
  });

  it('shows a dash for no value and the text itself for something that is not a number', () => {
    expect(formatMoney(null)).toBe('–');
    expect(formatDecimal('')).toBe('–');
    expect(formatDecimal('n/a')).toBe('n/a');
    expect(roundDecimal('.', 2)).toBeNull();
  });

  it('formats other places and counts', () => {
    expect(formatDecimal('1.0749', { places: 3 })).toBe('1.075');
    expect(formatDecimal('2.5', { places: 0 })).toBe('3');
    expect(formatCount(20000)).toBe('20,000');
  });
});

describe('date formatting', () => {
  it('reads a date-only string as that calendar day in any time zone', () => {
    expect(formatDate('2026-03-01')).toBe('Mar 1, 2026');
    expect(formatDate(null)).toBe('–');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it("spells every day as Intl's en-US medium date does", () => {
    const intl = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    for (let day = new Date(2024, 0, 1); day.getFullYear() < 2026; day.setDate(day.getDate() + 1)) {
      expect(formatDate(new Date(day))).toBe(intl.format(day));
    }
    expect(formatDate(new Date(1999, 11, 31, 23, 59))).toBe('Dec 31, 1999');
  });
});
