import { describe, expect, it } from 'vitest';
import { compileProduct } from './compile.js';
import { EvaluationError, RateTableLookupError, RatingError } from './errors.js';
import { homeownersProduct, homeownersScenario } from './fixtures/homeowners.js';
import type { ProductDefinition, RiskInput, RiskTypeDefinition } from './product.js';
import { evaluateComputedFields, rate } from './rate.js';
import type { WorksheetLine } from './worksheet.js';

const homeowners = compileProduct(homeownersProduct);
const annual = { termStart: '2026-01-01', termEnd: '2027-01-01' } as const;

function line(lines: WorksheetLine[], name: string): WorksheetLine {
  const found = lines.find((l) => l.name === name);
  if (!found) throw new Error(`no line ${name}`);
  return found;
}

describe('rating the demo homeowners scenario (known answer)', () => {
  /*
   * By hand:
   *   roof_age          = 2026 − 2014 = 12;  home_age = 2026 − 1998 = 28
   *   coverage_a_factor = 1.00 + (1.15 − 1.00) × (250000 − 200000) / (300000 − 200000) = 1.075 → 1.0750
   *   key_factor        = territory 78701 (1.12) × frame, class 6 ∈ [5, 9) (1.10) × roof 12 ∈ [10, 20) (1.10)
   *                     = 1.3552
   *   age_surcharge     = 1 (28 < 40)
   *   dwelling_premium  = 1150 × 1.075 × 1.3552 × 1 = 1236.25 × 1.3552 = 1675.366 → 1675.37
   *   deductible_credit = 1675.37 × 0.05 (deductible 1000) = 83.7685 → 83.77
   *   liability_premium = 30 (limit 300000)
   *   ring  = 8000 / 100 × 1.50 = 120.00;  watch = 4000 / 100 × 1.20 = 48.00
   *   jewelry_premium   = max(25, 120 + 48) = 168.00 (fully earned)
   *   premium           = max(250, 1675.37 − 83.77 + 30 + 168.00) = 1789.60
   */
  const result = rate(homeowners, { ...annual, transactionType: 'new_business', risk: homeownersScenario });

  it('gives the hand-computed premium', () => {
    expect(result.premium).toBe('1789.60');
    expect(result.termPremium).toBe('1789.60');
    expect(result.fullyEarnedPremium).toBe('168.00');
    expect(result.worksheet.root.premium).toBe('1789.6');
  });

  it('explains every calculation in the worksheet', () => {
    const root = result.worksheet.root;
    expect(root.path).toBe('home#home-1');
    expect(root.computedFields.map((l) => [l.name, l.value])).toEqual([
      ['roof_age', '12'],
      ['home_age', '28'],
    ]);
    expect(root.calculations.map((l) => [l.name, l.unrounded, l.value])).toEqual([
      ['base_rate', '1150', '1150'],
      ['coverage_a', '250000', '250000'],
      ['coverage_a_factor', '1.075', '1.0750'],
      ['key_factor', '1.3552', '1.3552'],
      ['age_surcharge', '1', '1'],
      ['dwelling_premium', '1675.366', '1675.37'],
      ['deductible_credit', '83.7685', '83.77'],
      ['liability_premium', '30', '30'],
      ['jewelry_premium', '168', '168.00'],
      ['premium', '1789.6', '1789.6'],
    ]);
    const key = line(root.calculations, 'key_factor');
    expect(key.inputs).toEqual([
      { kind: 'field', name: 'zip', value: '78701' },
      { kind: 'field', name: 'construction', value: 'frame' },
      { kind: 'field', name: 'protection_class', value: '6' },
      { kind: 'field', name: 'roof_age', value: '12' },
    ]);
    expect(key.tables).toEqual([
      { table: 'territory_factor', keys: { zip: '78701' }, row: 0, value: '1.12' },
      {
        table: 'construction_protection',
        keys: { construction: 'frame', protection_class: '6' },
        row: 1,
        value: '1.1',
      },
      { table: 'roof_age_factor', keys: { roof_age: '12' }, row: 1, value: '1.1' },
    ]);
    expect(key.round).toEqual({ places: 4, mode: 'half-even' });
    expect(line(root.calculations, 'coverage_a_factor').tables[0]!.interpolation).toMatchObject({
      lower: { row: 1, x: '200000', value: '1' },
      upper: { row: 2, x: '300000', value: '1.15' },
      weight: '0.5',
    });
    expect(line(root.calculations, 'deductible_credit').inputs).toEqual([
      { kind: 'calculation', name: 'dwelling_premium', value: '1675.37' },
      { kind: 'deductible', name: 'dwelling', value: '1000' },
    ]);
    expect(line(root.calculations, 'jewelry_premium').inputs).toEqual([
      { kind: 'children', name: 'sum(scheduled_article.premium)', value: '168' },
    ]);
    expect(root.children.map((c) => [c.path, c.premium])).toEqual([
      ['home#home-1/scheduled_article#ring', '120'],
      ['home#home-1/scheduled_article#watch', '48'],
    ]);
    expect(line(root.children[0]!.calculations, 'premium')).toMatchObject({
      inputs: [
        { kind: 'field', name: 'appraised_value', value: '8000' },
        { kind: 'calculation', name: 'rate_per_100', value: '1.5' },
      ],
      unrounded: '120',
      value: '120.00',
    });
    // The worksheet is plain JSON: it survives storage as the expected side of a known-answer case.
    expect(JSON.parse(JSON.stringify(result.worksheet))).toEqual(result.worksheet);
  });

  it('keeps the fully earned jewelry on cancellation', () => {
    const cancelled = rate(homeowners, {
      ...annual,
      transactionType: 'cancellation',
      effectiveDate: '2026-04-01',
      risk: homeownersScenario,
    });
    // 90 of 365 days: (1789.60 − 168.00) × 90 / 365 = 399.8466 → 399.85; + 168.00 = 567.85 earned.
    expect(cancelled.premium).toBe('567.85');
    expect(cancelled.term.returnPremium).toBe('1221.75');
    // Without the fully earned item the same cancellation earns exactly the pro-rata share.
    const plain = rate(homeowners, {
      ...annual,
      transactionType: 'cancellation',
      effectiveDate: '2026-04-01',
      risk: { ...homeownersScenario, items: homeownersScenario.items!.filter((i) => i.name !== 'scheduled_jewelry') },
    });
    // 1675.37 − 83.77 + 30 = 1621.60; × 90 / 365 = 399.8466 → 399.85.
    expect(plain.termPremium).toBe('1621.60');
    expect(plain.fullyEarnedPremium).toBe('0.00');
    expect(plain.premium).toBe('399.85');
    expect(line(plain.worksheet.root.calculations, 'jewelry_premium')).toMatchObject({
      skipped: 'item_absent',
      value: '0',
    });
    // A risk may mark an item not fully earned for itself.
    const override = rate(homeowners, {
      ...annual,
      transactionType: 'cancellation',
      effectiveDate: '2026-04-01',
      risk: {
        ...homeownersScenario,
        items: homeownersScenario.items!.map((i) =>
          i.name === 'scheduled_jewelry' ? { ...i, fullyEarned: false } : i,
        ),
      },
    });
    // 1789.60 × 90 / 365 = 441.2712… → 441.27.
    expect(override.premium).toBe('441.27');
  });

  it('parses once and rates many times with different answers', () => {
    const other: RiskInput = {
      ...homeownersScenario,
      answers: {
        ...homeownersScenario.answers,
        zip: '99999',
        construction: 'masonry',
        protection_class: 9,
        roof_year: 2000,
      },
      items: [
        { name: 'dwelling', limit: 400000, deductible: 2500 },
        { name: 'personal_liability', limit: 100000 },
      ],
      children: [],
    };
    const r = rate(homeowners, { ...annual, transactionType: 'renewal', risk: other });
    // coverage 400000: 1.15 + 0.25 × 0.5 = 1.275; key = default territory 1 × masonry class 9 (1.30) × roof 26 (1.25) = 1.625
    // dwelling = 1150 × 1.275 × 1.625 = 2382.65625 → 2382.66; credit 12% = 285.9192 → 285.92; liability 18
    // premium = 2382.66 − 285.92 + 18 = 2114.74
    expect(r.premium).toBe('2114.74');
    expect(line(r.worksheet.root.calculations, 'key_factor').tables[0]).toEqual({
      table: 'territory_factor',
      keys: { zip: '99999' },
      row: null,
      value: '1',
      usedDefault: true,
    });
    expect(rate(homeowners, { ...annual, transactionType: 'new_business', risk: homeownersScenario }).premium).toBe(
      '1789.60',
    );
  });

  it('names the risk, calculation and position when an answer is missing or a table has no row', () => {
    const missing = { ...homeownersScenario, answers: { ...homeownersScenario.answers, construction: undefined } };
    expect(() => rate(homeowners, { ...annual, transactionType: 'new_business', risk: missing })).toThrow(
      "home#home-1 › key_factor: field 'construction' has no answer and no default at line 2",
    );
    const noRow = { ...homeownersScenario, answers: { ...homeownersScenario.answers, protection_class: 12 } };
    expect(() => rate(homeowners, { ...annual, transactionType: 'new_business', risk: noRow })).toThrow(
      RateTableLookupError,
    );
    const badDeductible: RiskInput = {
      ...homeownersScenario,
      items: [
        { name: 'dwelling', limit: 250000, deductible: 750 },
        { name: 'personal_liability', limit: 300000 },
      ],
    };
    expect(() => rate(homeowners, { ...annual, transactionType: 'new_business', risk: badDeductible })).toThrow(
      "Rate table 'deductible_credit' has no row for deductible=750 and no default",
    );
  });

  it('evaluates computed fields over answers alone', () => {
    const computed = evaluateComputedFields(homeowners, homeownersScenario);
    expect(computed.fields).toEqual({ roof_age: '12', home_age: '28' });
    expect(computed.children.map((c) => c.path)).toEqual([
      'home#home-1/scheduled_article#ring',
      'home#home-1/scheduled_article#watch',
    ]);
    const old = evaluateComputedFields(homeowners, {
      type: 'home',
      answers: { roof_year: 2030, year_built: 1950, policy_year: '2026' },
    });
    expect(old.fields).toEqual({ roof_age: '0', home_age: '76' });
  });
});

describe('rounding at each step', () => {
  const product = (mode: 'half-up' | 'half-even', premiumRounding?: ProductDefinition['premiumRounding']) =>
    compileProduct({
      name: 'rounding',
      rootRiskType: 'r',
      premiumRounding,
      riskTypes: [
        {
          name: 'r',
          fields: [{ name: 'x', type: 'number' }],
          calculations: [
            { name: 'rate', formula: 'x / 1000', round: { places: 2, mode } },
            { name: 'premium', formula: "rate * 100 + round(0.125, 2, 'half-even') + round(0.125, 2)" },
          ],
        },
      ],
    });
  const run = (p: ReturnType<typeof product>, x: number) =>
    rate(p, { ...annual, transactionType: 'new_business', risk: { type: 'r', answers: { x } } });

  it('rounds a .5 case half-up or half-even as the calculation declares, and carries the rounded value on', () => {
    // x = 2345: rate = 2.345 → half-up 2.35 / half-even 2.34; premium = rate × 100 + 0.12 + 0.13
    const up = run(product('half-up'), 2345);
    const even = run(product('half-even'), 2345);
    expect(up.worksheet.root.calculations[0]).toMatchObject({ unrounded: '2.345', value: '2.35' });
    expect(even.worksheet.root.calculations[0]).toMatchObject({ unrounded: '2.345', value: '2.34' });
    expect(up.premium).toBe('235.25');
    expect(even.premium).toBe('234.25');
    // 2.355 → 2.36 both ways (the even neighbour is 6).
    expect(run(product('half-even'), 2355).premium).toBe('236.25');
  });

  it('rounds the final premium as the product says', () => {
    // x = 1005 → rate 1.005 → half-even 1.00 (0 is even); premium 100 + 0.25 = 100.25 → 0 places half-even = 100
    expect(run(product('half-even', { places: 0, mode: 'half-even' }), 1005).premium).toBe('100');
    // x = 1015 → rate 1.02 (half-even) → 102.25 → 102; with 'up' → 103
    expect(run(product('half-even', { places: 0, mode: 'up' }), 1015).premium).toBe('103');
    expect(run(product('half-even', { places: 1, mode: 'down' }), 1015).premium).toBe('102.2');
  });
});

describe('risk trees', () => {
  // Seven nested risk types l1 … l7; each premium = its own rate + the sum of its children's premiums.
  const levels = 7;
  const types: RiskTypeDefinition[] = Array.from({ length: levels }, (_, i) => ({
    name: `l${i + 1}`,
    ...(i > 0 ? { parent: `l${i}` } : {}),
    fields:
      i === 0 ? [{ name: 'base', type: 'number' as const }] : [{ name: 'units', type: 'number' as const, default: 1 }],
    calculations: [
      {
        name: 'premium',
        formula:
          i === 0
            ? "base + sum(children, 'premium')"
            : i === levels - 1
              ? `base * units / ${i + 1} + count(children)`
              : `base * units / ${i + 1} + sum(children('l${i + 2}'), 'premium')`,
        round: { places: 2, mode: 'half-up' as const },
      },
    ],
  }));
  const tree = compileProduct({ name: 'deep', rootRiskType: 'l1', riskTypes: types });
  const chain = (depth: number, leafChildren: RiskInput[] = []): RiskInput => {
    const build = (level: number): RiskInput => ({
      id: `n${level}`,
      type: `l${Math.min(level, levels)}`,
      answers: level === 1 ? { base: 100 } : { units: 2 },
      children: level < depth ? [build(level + 1), ...(level === depth - 1 ? leafChildren : [])] : [],
    });
    return build(1);
  };

  it('rates a tree seven levels deep, children before parents, reading the ancestor field', () => {
    const r = rate(tree, { ...annual, transactionType: 'new_business', risk: chain(7) });
    // level k (2…7): 100 × 2 / k → 100, 66.67, 50, 40, 33.33, 28.57 (rounded per level); l1 = 100 + all of them
    // 100 + 100 + 66.67 + 50 + 40 + 33.33 + 28.57 = 418.57
    expect(r.premium).toBe('418.57');
    let risk = r.worksheet.root;
    const premiums: (string | null)[] = [];
    for (;;) {
      premiums.push(risk.premium);
      if (!risk.children[0]) break;
      risk = risk.children[0];
    }
    expect(premiums).toEqual(['418.57', '318.57', '218.57', '151.9', '101.9', '61.9', '28.57']);
    expect(risk.path).toBe('l1#n1/l2#n2/l3#n3/l4#n4/l5#n5/l6#n6/l7#n7');
    expect(risk.calculations[0]!.inputs).toEqual([
      { kind: 'ancestor_field', name: 'base', value: '100' },
      { kind: 'field', name: 'units', value: '2' },
      { kind: 'children', name: 'count(*)', value: '0' },
    ]);
  });

  it('refuses an eighth level and a child of the wrong type', () => {
    const tooDeep = chain(7);
    let leaf = tooDeep;
    while (leaf.children?.[0]) leaf = leaf.children[0];
    leaf.children = [{ type: 'l7', answers: {} }];
    expect(() => rate(tree, { ...annual, transactionType: 'new_business', risk: tooDeep })).toThrow(
      /nested deeper than 7 levels/,
    );
    const wrong: RiskInput = { type: 'l1', answers: { base: 1 }, children: [{ type: 'l3' }] };
    expect(() => rate(tree, { ...annual, transactionType: 'new_business', risk: wrong })).toThrow(
      "Risk l1/l3[0]: 'l3' is not a child type of 'l1'",
    );
    expect(() => rate(tree, { ...annual, transactionType: 'new_business', risk: { type: 'l2' } })).toThrow(RatingError);
  });

  it('rejects a product whose risk types nest deeper than seven levels', () => {
    expect(() =>
      compileProduct({
        name: 'deeper',
        rootRiskType: 'l1',
        riskTypes: [...types, { name: 'l8', parent: 'l7', calculations: [] }],
      }),
    ).toThrow("Risk type 'l8' is nested deeper than 7 levels");
  });

  it('raises EvaluationError for a division by zero with its position', () => {
    const p = compileProduct({
      name: 'div',
      rootRiskType: 'r',
      riskTypes: [
        { name: 'r', fields: [{ name: 'n', type: 'number' }], calculations: [{ name: 'premium', formula: '10 / n' }] },
      ],
    });
    try {
      rate(p, { ...annual, transactionType: 'new_business', risk: { type: 'r', answers: { n: 0 } } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EvaluationError);
      expect((error as EvaluationError).position).toEqual({ offset: 3, line: 1, column: 4 });
      expect((error as EvaluationError).message).toBe('r › premium: division by zero at line 1, column 4 (offset 3)');
    }
  });
});
