import { compileProduct, type ProductDefinition } from '@atrium/rating';
import { ApiError } from '@atrium/sdk/server';
import { describe, expect, it } from 'vitest';
import { homeownersProduct, homeownersScenario } from '../../../../packages/rating/src/fixtures/homeowners.js';
import { addMonths, baseTermMonths, premiumOut, rateOrRefuse, ratingApiError } from './rating-service.js';

const request = {
  risk: homeownersScenario,
  transactionType: 'cancellation' as const,
  termStart: '2026-01-01',
  termEnd: '2027-01-01',
};

describe('rating service', () => {
  it('turns engine errors into 400s with the engine message and code', () => {
    const product = compileProduct(homeownersProduct);
    const noZip = {
      ...request,
      risk: { ...homeownersScenario, answers: { ...homeownersScenario.answers, construction: 'straw' } },
    };
    let error: unknown;
    try {
      rateOrRefuse(product, noZip);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'rate_table_no_match' });
    expect((error as ApiError).message).toContain(
      "Rate table 'construction_protection' has no row for construction=straw",
    );
    expect((error as ApiError).meta).toMatchObject({ rating_error: { table: 'construction_protection' } });
  });

  it('lists every problem of a product that does not compile', () => {
    const broken: ProductDefinition = {
      ...homeownersProduct,
      riskTypes: homeownersProduct.riskTypes.map((t) =>
        t.name === 'home' ? { ...t, calculations: [...t.calculations, { name: 'oops', formula: '1 +' }] } : t,
      ),
    };
    let error: unknown;
    try {
      compileProduct(broken);
    } catch (e) {
      error = ratingApiError(e);
    }
    expect(error).toMatchObject({ status: 400, code: 'formula_syntax' });
    expect((error as ApiError).meta!.problems).toEqual([
      expect.objectContaining({
        code: 'formula_syntax',
        calculation: 'oops',
        position: expect.objectContaining({ column: 4 }),
      }),
    ]);
    const other = new Error('boom');
    expect(ratingApiError(other)).toBe(other);
  });

  it('shows the premium as the quote does, with the return premium of a cancellation', () => {
    const result = rateOrRefuse(compileProduct(homeownersProduct), { ...request, effectiveDate: '2026-04-01' });
    expect(premiumOut(result.term)).toEqual({
      term: '1789.60',
      pro_rata: '567.85',
      fully_earned: '168.00',
      return: '1221.75',
    });
  });

  it('adds months to dates, clamping to the month end', () => {
    expect(addMonths('2026-01-01', 12)).toBe('2027-01-01');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addMonths('2026-08-15', 6)).toBe('2027-02-15');
    expect(baseTermMonths({ baseTerm: 6 })).toBe(6);
    expect(baseTermMonths({})).toBe(12);
    expect(baseTermMonths({ baseTerm: -1 })).toBe(12);
  });
});
