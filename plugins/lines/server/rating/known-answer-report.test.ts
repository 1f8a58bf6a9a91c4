import { compileProduct, rate, runKnownAnswerCases, type ProductDefinition } from '@atrium/rating';
import { describe, expect, it } from 'vitest';
import { homeownersProduct, homeownersScenario } from '../../../../packages/rating/src/fixtures/homeowners.js';
import { knownAnswerReport, publishRefusalMessage, toOutcome } from './known-answer-report.js';

const request = {
  risk: homeownersScenario,
  transactionType: 'new_business' as const,
  termStart: '2026-01-01',
  termEnd: '2027-01-01',
};

function withTerritory(value: number): ProductDefinition {
  return {
    ...homeownersProduct,
    rateTables: homeownersProduct.rateTables!.map((t) =>
      t.name === 'territory_factor'
        ? { ...t, rows: t.rows.map((r) => (r.keys.zip === '78701' ? { ...r, value } : r)) }
        : t,
    ),
  };
}

describe('known-answer report', () => {
  const recorded = rate(compileProduct(homeownersProduct), request);
  const cases = [
    { name: 'Frame home 78701', request, expectedPremium: recorded.premium, expectedWorksheet: recorded.worksheet },
  ];

  it('says all cases match when the version gives the recorded premium', () => {
    const report = knownAnswerReport(
      runKnownAnswerCases(compileProduct(homeownersProduct), cases).map((r) => toOutcome(7, r)),
    );
    expect(report).toMatchObject({ passed: true, total: 1, failed: 0, message: 'All 1 known-answer case match.' });
  });

  it('names the factor that moved when a rate changes', () => {
    const report = knownAnswerReport(
      runKnownAnswerCases(compileProduct(withTerritory(1.2)), cases).map((r) => toOutcome(7, r)),
    );
    expect(report.passed).toBe(false);
    expect(report.cases[0]).toMatchObject({ scenario_id: 7, expected_premium: '1789.60', passed: false });
    const table = report.cases[0]!.differences.find((d) => d.kind === 'table');
    expect(table).toMatchObject({
      calculation: 'key_factor',
      name: 'territory_factor',
      expected: 'territory_factor(zip=78701) = 1.12',
      actual: 'territory_factor(zip=78701) = 1.2',
    });
    const message = publishRefusalMessage(report);
    expect(message).toMatch(
      /^This version cannot be published: 1 of 1 known-answer case differs: 'Frame home 78701' expected 1789\.60, got \d+\.\d\d/,
    );
    expect(message).toContain('home#home-1 › key_factor: expected 1.3552, got');
  });

  it('reports a case that can no longer be rated with the engine message', () => {
    const noRoof = {
      ...homeownersProduct,
      rateTables: homeownersProduct.rateTables!.map((t) =>
        t.name === 'roof_age_factor' ? { ...t, rows: t.rows.slice(0, 1) } : t,
      ),
    };
    const report = knownAnswerReport(runKnownAnswerCases(compileProduct(noRoof), cases).map((r) => toOutcome(3, r)));
    expect(report.cases[0]!.error?.code).toBe('rate_table_no_match');
    expect(report.message).toContain("'Frame home 78701' could not be rated: Rate table 'roof_age_factor' has no row");
  });
});
