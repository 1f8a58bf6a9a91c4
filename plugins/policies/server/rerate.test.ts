import { describe, expect, it } from 'vitest';
import { singleDriverTree } from '../test/rating-tree.js';
import { compareWorksheets, premiumExplained } from './compare.js';
import { applyChanges, ratingTree, valueAt } from './rerate.js';

describe('rating trees and change paths', () => {
  it("reads a quote's risk tree and a unified risk state as the engine's tree; flat risk data is not one", () => {
    const tree = ratingTree(singleDriverTree())!;
    expect(tree.type).toBe('policy');
    expect(tree.children!.map((c) => c.type)).toEqual(['vehicle', 'driver']);
    expect(tree.children![0]!.items).toContainEqual({ name: 'collision', deductible: '1000' });
    expect(tree.children![0]!.answers).toMatchObject({ usage: 'commute', model_year: 2025 });
    const unified = ratingTree({
      id: 'r1',
      type: { name: 'home' },
      field_answers: { year_built: 1990 },
      items: [{ name: 'dwelling', limit: '300000' }],
      children: [],
    });
    expect(unified).toEqual({
      id: 'r1',
      type: 'home',
      answers: { year_built: 1990 },
      items: [{ name: 'dwelling', limit: '300000' }],
      children: [],
    });
    expect(ratingTree({ vehicle: { year: 2020 } })).toBeNull();
    expect(ratingTree(null)).toBeNull();
  });

  it('sets `type.field` on the first risk of the type, `type#id.field` on that risk, nested keys on flat data', () => {
    const risks = singleDriverTree();
    const changed = applyChanges(risks, { 'vehicle.usage': 'business', 'driver#3.age': 31 });
    expect(changed.missing).toBeNull();
    expect(valueAt(changed.risks, 'vehicle.usage')).toBe('business');
    expect(valueAt(changed.risks, 'driver.age')).toBe(31);
    expect(valueAt(risks, 'vehicle.usage')).toBe('commute');
    expect(applyChanges(risks, { 'boat.length': 20 }).missing).toBe('boat.length');
    expect(applyChanges(risks, { 'vehicle.__proto__': 1 }).missing).toBe('vehicle.__proto__');
    const flat = applyChanges(
      { dwelling: { roof: 'Metal' } },
      { 'dwelling.roof': 'Slate', 'dwelling.alarm.kind': 'central' },
    );
    expect(flat.risks).toEqual({ dwelling: { roof: 'Slate', alarm: { kind: 'central' } } });
  });
});

describe('compare revisions factor by factor', () => {
  const sheet = (usage: string, factor: string, bi: string, premium: string) => ({
    term: { termPremium: premium },
    root: {
      type: 'policy',
      path: 'policy',
      calculations: [{ name: 'premium', value: premium, inputs: [], tables: [] }],
      children: [
        {
          type: 'vehicle',
          path: 'policy/vehicle#2',
          calculations: [
            {
              name: 'usage_relativity',
              value: factor,
              inputs: [{ kind: 'field', name: 'usage', value: usage }],
              tables: [{ table: 'usage_factor', keys: { usage }, value: factor }],
            },
            {
              name: 'bi_premium',
              item: 'bodily_injury',
              value: bi,
              inputs: [
                { kind: 'limit', name: 'bodily_injury', value: '100000' },
                { kind: 'calculation', name: 'usage_relativity', value: factor },
              ],
            },
          ],
          children: [],
        },
      ],
    },
  });

  it('lists each calculation side by side with the inputs and rate-table reads that moved', () => {
    const lines = compareWorksheets(
      sheet('commute', '1', '362.50', '1000.00'),
      sheet('business', '1.2', '435.00', '1072.50'),
    );
    expect(lines.find((l) => l.calculation === 'usage_relativity')).toEqual({
      risk: 'Vehicle',
      calculation: 'usage_relativity',
      item: null,
      from: '1',
      to: '1.2',
      change: '0.2',
      factors: [
        { kind: 'field', name: 'usage', from: 'commute', to: 'business', change: null },
        { kind: 'table', name: 'usage_factor', from: '1', to: '1.2', change: '0.2' },
      ],
    });
    const bi = lines.find((l) => l.calculation === 'bi_premium')!;
    expect(bi).toMatchObject({ item: 'bodily_injury', change: '72.5' });
    // The limit did not move: only the usage relativity is listed under it.
    expect(bi.factors.map((f) => f.name)).toEqual(['usage_relativity']);
  });

  it('separates what the worksheets explain from a premium entered without re-rating', () => {
    const a = { worksheet: sheet('commute', '1', '362.50', '1000.00'), annualPremium: '1000.00' };
    expect(
      premiumExplained(a, { worksheet: sheet('business', '1.2', '435.00', '1072.50'), annualPremium: '1072.50' }),
    ).toEqual({
      rated_premium_from: '1000.00',
      rated_premium_to: '1072.50',
      rated_premium_change: '72.50',
      not_rated_change: '0.00',
    });
    // The same worksheet kept, the premium typed in: the whole change is not rated.
    expect(premiumExplained(a, { worksheet: a.worksheet, annualPremium: '1111.00' })).toMatchObject({
      rated_premium_change: '0.00',
      not_rated_change: '111.00',
    });
    expect(compareWorksheets(null, null)).toEqual([]);
  });
});
