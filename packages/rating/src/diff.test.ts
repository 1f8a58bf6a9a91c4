import { describe, expect, it } from 'vitest';
import { compileProduct } from './compile.js';
import { diffWorksheets } from './diff.js';
import { homeownersProduct, homeownersScenario } from './fixtures/homeowners.js';
import type { ProductDefinition } from './product.js';
import { rate } from './rate.js';

const request = {
  termStart: '2026-01-01',
  termEnd: '2027-01-01',
  transactionType: 'new_business' as const,
  risk: homeownersScenario,
};

/** The demo product with the 78701 territory factor changed from 1.12 to 1.15. */
function withTerritory(factor: number): ProductDefinition {
  return {
    ...homeownersProduct,
    rateTables: homeownersProduct.rateTables!.map((t) =>
      t.name === 'territory_factor'
        ? { ...t, rows: t.rows.map((r) => (r.keys.zip === '78701' ? { ...r, value: factor } : r)) }
        : t,
    ),
  };
}

describe('diffWorksheets', () => {
  const expected = rate(compileProduct(homeownersProduct), request).worksheet;

  it('finds nothing when the worksheets agree', () => {
    expect(diffWorksheets(expected, rate(compileProduct(homeownersProduct), request).worksheet)).toEqual([]);
  });

  it('lists the differences factor by factor after a rate change', () => {
    const actual = rate(compileProduct(withTerritory(1.15)), request).worksheet;
    // key_factor = 1.15 × 1.10 × 1.10 = 1.3915; dwelling = 1236.25 × 1.3915 = 1720.241875 → 1720.24;
    // credit = 86.012 → 86.01; premium = 1720.24 − 86.01 + 30 + 168 = 1832.23
    const diffs = diffWorksheets(expected, actual);
    expect(diffs.map((d) => [d.kind, d.calculation ?? null, d.name ?? null, d.expected, d.actual])).toEqual([
      ['premium', null, 'termPremium', '1789.60', '1832.23'],
      ['premium', null, 'proRataPremium', '1789.60', '1832.23'],
      ['value', 'key_factor', null, '1.3552', '1.3915'],
      [
        'table',
        'key_factor',
        'territory_factor',
        'territory_factor(zip=78701) = 1.12',
        'territory_factor(zip=78701) = 1.15',
      ],
      ['value', 'dwelling_premium', null, '1675.37', '1720.24'],
      ['input', 'dwelling_premium', 'key_factor', '1.3552', '1.3915'],
      ['value', 'deductible_credit', null, '83.77', '86.01'],
      ['input', 'deductible_credit', 'dwelling_premium', '1675.37', '1720.24'],
      ['value', 'premium', null, '1789.6', '1832.23'],
      ['input', 'premium', 'dwelling_premium', '1675.37', '1720.24'],
      ['input', 'premium', 'deductible_credit', '83.77', '86.01'],
    ]);
    expect(diffs[2]!.message).toBe('home#home-1 › key_factor: expected 1.3552, got 1.3915');
    expect(diffs.every((d) => d.kind === 'premium' || d.path === 'home#home-1')).toBe(true);
  });

  it('reports risks and calculations that appear or disappear, and formula changes', () => {
    const fewer = rate(compileProduct(homeownersProduct), {
      ...request,
      risk: { ...homeownersScenario, children: homeownersScenario.children!.slice(0, 1) },
    }).worksheet;
    const diffs = diffWorksheets(expected, fewer);
    expect(diffs.filter((d) => d.kind === 'risk_missing').map((d) => d.path)).toEqual([
      'home#home-1/scheduled_article#watch',
    ]);
    expect(diffs.find((d) => d.calculation === 'jewelry_premium' && d.kind === 'value')).toMatchObject({
      expected: '168.00',
      actual: '120.00',
    });
    expect(diffWorksheets(fewer, expected).filter((d) => d.kind === 'risk_added')).toHaveLength(1);

    const changed: ProductDefinition = {
      ...homeownersProduct,
      riskTypes: homeownersProduct.riskTypes.map((rt) =>
        rt.name === 'home'
          ? {
              ...rt,
              calculations: [
                ...rt.calculations.map((c) => (c.name === 'base_rate' ? { ...c, formula: '1150 * 1' } : c)),
                { name: 'policy_fee', formula: '0' },
              ],
            }
          : rt,
      ),
    };
    const diffs2 = diffWorksheets(expected, rate(compileProduct(changed), request).worksheet);
    expect(diffs2.map((d) => [d.kind, d.calculation])).toEqual([
      ['formula', 'base_rate'],
      ['calculation_added', 'policy_fee'],
    ]);
  });
});
