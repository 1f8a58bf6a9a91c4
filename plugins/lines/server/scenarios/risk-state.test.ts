import { compileProduct, rate } from '@atrium/rating';
import { describe, expect, it } from 'vitest';
import { homeownersProduct } from '../../../../packages/rating/src/fixtures/homeowners.js';
import { riskStateInput, toRiskInput, treeDepth, unifiedRiskNode } from './risk-state.js';

const home = {
  id: 'home-1',
  type: { name: 'home' },
  field_answers: { zip: '78701', construction: 'frame', protection_class: 6, year_built: 1998, roof_year: '2014' },
  items: [
    { name: 'dwelling', limit: '250000', deductible: 1000 },
    { name: 'personal_liability', limit: 300000 },
    { name: 'scheduled_jewelry' },
  ],
  children: [
    { id: 'ring', type: { name: 'scheduled_article' }, field_answers: { category: 'jewelry', appraised_value: 8000 } },
    {
      id: 'watch',
      type: { name: 'scheduled_article' },
      field_answers: { category: 'watch', appraised_value: '4000', in_vault: null },
    },
  ],
};

describe('unified risk state → engine input', () => {
  it('rates the demo home to the engine fixture premium', () => {
    const node = unifiedRiskNode.parse(home);
    const input = toRiskInput(node);
    expect(input.items![0]).toEqual({ name: 'dwelling', limit: '250000', deductible: '1000' });
    // A null answer is left out so that the field default (in_vault false) applies.
    expect(input.children![1]!.answers).toEqual({ category: 'watch', appraised_value: '4000' });
    const result = rate(compileProduct(homeownersProduct), {
      risk: input,
      transactionType: 'new_business',
      termStart: '2026-01-01',
      termEnd: '2027-01-01',
    });
    expect(result.premium).toBe('1789.60');
    expect(result.worksheet.root.children.map((c) => c.path)).toEqual([
      'home#home-1/scheduled_article#ring',
      'home#home-1/scheduled_article#watch',
    ]);
  });

  it('refuses amounts that are not decimals and items listed twice', () => {
    const badAmount = riskStateInput.safeParse({ items: [{ name: 'dwelling', limit: '250,000' }] });
    expect(badAmount.success).toBe(false);
    expect(badAmount.error!.issues[0]!.message).toContain('decimal number');
    const twice = riskStateInput.safeParse({ items: [{ name: 'dwelling' }, { name: 'dwelling' }] });
    expect(twice.error!.issues[0]!.message).toBe("Item 'dwelling' is listed twice.");
  });

  it('measures tree depth', () => {
    const leaf = { children: [] };
    expect(treeDepth(leaf)).toBe(1);
    expect(treeDepth({ children: [leaf, { children: [leaf] }] })).toBe(3);
  });
});
