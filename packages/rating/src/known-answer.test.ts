import { describe, expect, it } from 'vitest';
import { compileProduct } from './compile.js';
import { homeownersProduct, homeownersScenario } from './fixtures/homeowners.js';
import { runKnownAnswerCases, type KnownAnswerCase } from './known-answer.js';
import { formulaNames } from './names.js';
import { rate } from './rate.js';

const request = {
  termStart: '2026-01-01',
  termEnd: '2027-01-01',
  transactionType: 'new_business' as const,
  risk: homeownersScenario,
};
const published = compileProduct(homeownersProduct);
const recorded = rate(published, request).worksheet;

describe('known-answer cases', () => {
  const cases: KnownAnswerCase[] = [
    { name: 'demo home', request, expectedPremium: '1789.60', expectedWorksheet: recorded },
    {
      name: 'demo home cancelled',
      request: { ...request, transactionType: 'cancellation', effectiveDate: '2026-04-01' },
      expectedPremium: '567.85',
    },
  ];

  it('passes when premiums and worksheets agree', () => {
    const results = runKnownAnswerCases(published, cases);
    expect(results.map((r) => [r.name, r.passed, r.actualPremium, r.differences])).toEqual([
      ['demo home', true, '1789.60', []],
      ['demo home cancelled', true, '567.85', []],
    ]);
  });

  it('fails a draft whose rates change a premium, factor by factor', () => {
    const draft = compileProduct({
      ...homeownersProduct,
      rateTables: homeownersProduct.rateTables!.map((t) =>
        t.name === 'liability_rates' ? { ...t, rows: t.rows.map((r) => ({ ...r, value: Number(r.value) + 5 })) } : t,
      ),
    });
    const [home, cancelled] = runKnownAnswerCases(draft, cases);
    expect(home!.passed).toBe(false);
    expect(home!.actualPremium).toBe('1794.60');
    expect(home!.differences.map((d) => d.message)).toEqual([
      'termPremium: expected 1789.60, got 1794.60',
      'proRataPremium: expected 1789.60, got 1794.60',
      'home#home-1 › liability_premium: expected 30, got 35',
      'home#home-1 › liability_premium: rate table read liability_rates(limit=300000) = 30 became liability_rates(limit=300000) = 35',
      'home#home-1 › premium: expected 1789.6, got 1794.6',
      'home#home-1 › premium: calculation liability_premium expected 30, got 35',
    ]);
    // Without a recorded worksheet only the premium is compared: 1626.60 × 90 / 365 = 401.0794… → 401.08 + 168.00.
    expect(cancelled).toMatchObject({ passed: false, actualPremium: '569.08' });
    expect(cancelled!.differences.map((d) => d.message)).toEqual(['proRataPremium: expected 567.85, got 569.08']);
  });

  it('reports a case that cannot be rated', () => {
    const [broken] = runKnownAnswerCases(published, [
      { name: 'outside term', request: { ...request, effectiveDate: '2028-01-01' }, expectedPremium: '1' },
    ]);
    expect(broken).toMatchObject({ passed: false, error: { code: 'invalid_term' } });
  });
});

describe('formulaNames', () => {
  it('lists what a formula of a risk type can use', () => {
    const names = formulaNames(published, 'scheduled_article');
    expect(names.calculations).toEqual(['rate_per_100', 'premium']);
    expect(names.fields).toEqual(['category', 'appraised_value', 'in_vault']);
    expect(names.ancestorFields).toContain('zip');
    expect(names.tables.find((t) => t.name === 'construction_protection')!.keys).toEqual([
      'construction',
      'protection_class',
    ]);
    expect(names.functions).toContain('lookup');
    expect(formulaNames(published, 'home').items).toEqual(['dwelling', 'personal_liability', 'scheduled_jewelry']);
  });
});
