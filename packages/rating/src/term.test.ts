import { describe, expect, it } from 'vitest';
import { Decimal } from './decimal.js';
import { applyTerm, dayNumber, type TransactionType } from './term.js';

const rounding = { places: 2, mode: 'half-up' } as const;
// A 365-day term (2026 is not a leap year); term premium 1000.00 of which 100.00 fully earned.
const term = (
  transactionType: TransactionType,
  effectiveDate: string,
  termStart = '2026-01-01',
  termEnd = '2027-01-01',
) => applyTerm(new Decimal(1000), new Decimal(100), { transactionType, termStart, termEnd, effectiveDate }, rounding);

describe('term and pro-rata', () => {
  it('charges the full term for new business and renewal at the term start', () => {
    for (const type of ['new_business', 'renewal'] as const) {
      expect(term(type, '2026-01-01')).toMatchObject({
        termDays: 365,
        daysInForce: 365,
        factor: '1',
        termPremium: '1000.00',
        fullyEarnedPremium: '100.00',
        proRataPremium: '1000.00',
      });
    }
  });

  it('prorates a short new-business term from the effective date to the term end', () => {
    // 2026-07-01 → 2027-01-01 = 184 days; 900 × 184 / 365 = 453.6986… → 453.70; + 100 fully earned.
    expect(term('new_business', '2026-07-01')).toMatchObject({ daysInForce: 184, proRataPremium: '553.70' });
  });

  it('prorates a rewrite and an endorsement for the rest of the term', () => {
    // Rewrite 2026-03-15: 292 days left; 900 × 292 / 365 = 720 exactly; + 100.
    expect(term('rewrite', '2026-03-15')).toMatchObject({ daysInForce: 292, factor: '0.8', proRataPremium: '820.00' });
    // Endorsement 2026-10-01: 92 days left; 900 × 92 / 365 = 226.8493… → 226.85; + 100.
    expect(term('endorsement', '2026-10-01')).toMatchObject({
      daysInForce: 92,
      factor: '0.2520547945',
      proRataPremium: '326.85',
    });
  });

  it('keeps fully earned items whole on cancellation and returns the rest pro rata', () => {
    // Cancelled 2026-04-01 after 90 days: 900 × 90 / 365 = 221.9178… → 221.92 earned + 100 fully earned.
    expect(term('cancellation', '2026-04-01')).toMatchObject({
      daysInForce: 90,
      proRataPremium: '321.92',
      returnPremium: '678.08',
    });
    // Flat cancellation on the first day: only the fully earned part is kept.
    expect(term('cancellation', '2026-01-01')).toMatchObject({
      daysInForce: 0,
      proRataPremium: '100.00',
      returnPremium: '900.00',
    });
  });

  it('charges a reinstatement the prorated part only (fully earned items were kept)', () => {
    // Reinstated 2026-04-01: 275 days left; 900 × 275 / 365 = 678.0821… → 678.08 — the cancellation's return.
    expect(term('reinstatement', '2026-04-01')).toMatchObject({ daysInForce: 275, proRataPremium: '678.08' });
    expect(term('reinstatement', '2026-04-01').returnPremium).toBeUndefined();
  });

  it('counts the days of a leap-year term', () => {
    // 2028 has 366 days; cancelled 2028-03-01 after 31 + 29 = 60 days: 900 × 60 / 366 = 147.5409… → 147.54.
    expect(term('cancellation', '2028-03-01', '2028-01-01', '2029-01-01')).toMatchObject({
      termDays: 366,
      daysInForce: 60,
      proRataPremium: '247.54',
      returnPremium: '752.46',
    });
  });

  it('refuses dates outside the term and invalid dates', () => {
    expect(() => term('endorsement', '2027-01-02')).toThrow('Effective date 2027-01-02 is outside the term');
    expect(() => term('new_business', '2026-01-01', '2026-01-01', '2026-01-01')).toThrow('is not after');
    expect(() => dayNumber('2026-02-30')).toThrow("Invalid date '2026-02-30'");
    expect(() => dayNumber('03/01/2026')).toThrow('expected YYYY-MM-DD');
    expect(dayNumber('2026-03-01T00:00:00Z') - dayNumber('2026-02-01')).toBe(28);
  });
});
