import { describe, expect, it } from 'vitest';
import {
  addMonths,
  cancellationReturn,
  daysBetween,
  earnedAsOf,
  earnedPremium,
  endorsementDelta,
  installments,
  termSegments,
} from './premium.js';

const term = { effectiveDate: '2025-01-01', expirationDate: '2026-01-01' };

describe('earned premium (actual/actual by term)', () => {
  it('earns $2,767.12 for $3,000 over 280 days then $2,000 over 85 days of a 365-day term', () => {
    expect(daysBetween(term.effectiveDate, term.expirationDate)).toBe(365);
    expect(
      earnedPremium(
        [
          { annualPremium: '3000', days: 280 },
          { annualPremium: '2000', days: 85 },
        ],
        365,
      ),
    ).toBe('2767.12');
  });

  it('builds the same segments from revisions and splits earned from unearned on a day', () => {
    const revisions = [
      { revisionDate: '2025-01-01', annualPremium: '3000.00' },
      { revisionDate: '2025-10-08', annualPremium: '2000.00' },
    ];
    expect(termSegments(term, revisions)).toEqual([
      { annualPremium: '3000.00', days: 280 },
      { annualPremium: '2000.00', days: 85 },
    ]);
    expect(earnedAsOf(term, revisions, '2026-01-01')).toMatchObject({ earned: '2767.12', unearned: '0.00' });
    const mid = earnedAsOf(term, revisions, '2025-04-11');
    expect(mid.earned).toBe('821.92'); // 3000 × 100 ÷ 365
    expect(mid.unearned).toBe('1945.20');
  });

  it('uses 366 days across a 29 February', () => {
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(earnedPremium([{ annualPremium: '366', days: 1 }], 366)).toBe('1.00');
  });
});

describe('cancellation', () => {
  const base = {
    annualPremium: '500',
    effectiveDate: '2025-01-01',
    expirationDate: '2026-01-01',
    cancellationDate: '2025-05-31',
  };

  it('returns $294.52 pro rata on day 150 and $265.07 short rate at 90% of pro rata', () => {
    expect(daysBetween(base.effectiveDate, base.cancellationDate)).toBe(150);
    expect(cancellationReturn({ ...base, method: 'pro_rata' })).toMatchObject({
      daysInForce: 150,
      unearnedDays: 215,
      returnPremium: '294.52',
    });
    expect(
      cancellationReturn({ ...base, method: 'short_rate', shortRate: { kind: 'factor', factor: '0.90' } })
        .returnPremium,
    ).toBe('265.07');
  });

  it('reads a days-in-force table of percentages retained', () => {
    const shortRate = {
      kind: 'table' as const,
      table: [
        { maxDays: 30, retainedPercent: '20' },
        { maxDays: 180, retainedPercent: '60' },
        { maxDays: 365, retainedPercent: '100' },
      ],
    };
    expect(cancellationReturn({ ...base, method: 'short_rate', shortRate })).toMatchObject({
      returnPremium: '200.00',
      retained: '300.00',
    });
    expect(
      cancellationReturn({ ...base, cancellationDate: '2025-01-11', method: 'short_rate', shortRate }).returnPremium,
    ).toBe('400.00');
  });

  it('never returns fully earned premium, and returns everything else flat', () => {
    expect(cancellationReturn({ ...base, fullyEarned: '50', method: 'flat' }).returnPremium).toBe('450.00');
    expect(cancellationReturn({ ...base, fullyEarned: '135', method: 'pro_rata' }).returnPremium).toBe('215.00');
  });

  it('refuses short rate without a rule', () => {
    expect(() => cancellationReturn({ ...base, method: 'short_rate' })).toThrow(/short rate/);
  });
});

describe('endorsements and installments', () => {
  it('writes the change pro rata for the days left', () => {
    expect(endorsementDelta(term, '3000', '2000', '2025-10-08')).toBe('-232.88');
  });

  it('puts rounding on the last installment so amounts sum to the premium', () => {
    const rows = installments(
      { factors: ['0.3333', '0.3333', '0.3334'], intervalMonths: 4, installmentFee: '5', cardFee: '1.50' },
      '1000.01',
      '2025-01-31',
      'card',
    );
    expect(rows.map((r) => r.amount)).toEqual(['333.30', '333.30', '333.41']);
    expect(rows.map((r) => r.fee)).toEqual(['1.50', '6.50', '6.50']);
    expect(rows.map((r) => r.dueDate)).toEqual(['2025-01-31', '2025-05-31', '2025-09-30']);
  });

  it('refuses factors that do not sum to 1', () => {
    expect(() =>
      installments(
        { factors: ['0.5', '0.4'], intervalMonths: 6, installmentFee: '0', cardFee: '0' },
        '10',
        '2025-01-01',
        null,
      ),
    ).toThrow(/sum/);
  });

  it('keeps the day of month where it exists', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2025-11-15', 3)).toBe('2026-02-15');
  });
});
