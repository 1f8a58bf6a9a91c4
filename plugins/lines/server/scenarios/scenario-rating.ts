import { eq } from 'drizzle-orm';
import type { KnownAnswerCase, RatingRequest, RatingResult, Worksheet } from '@atrium/rating';
import { badRequest, type Queryable } from '@atrium/sdk/server';
import { addMonths, baseTermMonths, compiledVersion, rateOrRefuse, ratingOut } from '../rating/rating-service.js';
import { product, scenario } from '../tables.js';
import { toRiskInput } from './risk-state.js';
import { scenarioRisks, unifiedRiskState, type ScenarioRiskRow, type ScenarioRow } from './scenario-store.js';

/**
 * A scenario as a rating request: its risk tree, its transaction type and dates. The term starts on
 * `term_start` (the effective date when not set) and ends on `term_end` (the product's base term,
 * 12 months unless its settings say otherwise, after the start when not set).
 */
export function scenarioRequest(row: ScenarioRow, risks: ScenarioRiskRow[], baseTerm: number): RatingRequest {
  const tree = unifiedRiskState(risks);
  if (!tree) throw badRequest(`Scenario '${row.name}' has no risks to rate.`, { code: 'no_risks' });
  const termStart = row.termStart ?? row.effectiveDate;
  return {
    risk: toRiskInput(tree),
    transactionType: row.transactionType,
    termStart,
    termEnd: row.termEnd ?? addMonths(termStart, baseTerm),
    effectiveDate: row.effectiveDate,
  };
}

async function productBaseTerm(db: Queryable, productId: number): Promise<number> {
  const [row] = await db.select({ settings: product.settings }).from(product).where(eq(product.id, productId));
  return baseTermMonths(row?.settings);
}

/** Rates a scenario against its version; engine errors are 400 with the engine's message. */
export async function rateScenario(db: Queryable, row: ScenarioRow): Promise<RatingResult> {
  const [compiled, risks, baseTerm] = await Promise.all([
    compiledVersion(db, row.productId, row.productVersionId),
    scenarioRisks(db, row.id),
    // The base term only matters when the scenario does not give its term end.
    row.termEnd === null ? productBaseTerm(db, row.productId) : 12,
  ]);
  return rateOrRefuse(compiled, scenarioRequest(row, risks, baseTerm));
}

/** Rates a scenario and stores the rating as its last one; returns what the API answers. */
export async function rateAndStore(db: Queryable, row: ScenarioRow) {
  const result = await rateScenario(db, row);
  const ratedAt = new Date();
  const out = ratingOut(result, ratedAt);
  await db.update(scenario).set({ lastRating: out, lastRatedAt: ratedAt }).where(eq(scenario.id, row.id));
  return { result, out };
}

export interface KnownAnswerScenario {
  scenarioId: number;
  name: string;
  expectedPremium: string;
  /** Null when the scenario cannot be made a rating request (e.g. it has no risks): see `problem`. */
  knownCase: KnownAnswerCase | null;
  problem: string | null;
}

/** The known-answer cases of a version: its scenarios with an expected premium. */
export async function knownAnswerCases(
  db: Queryable,
  productId: number,
  versionId: number,
): Promise<KnownAnswerScenario[]> {
  const rows = (await db.select().from(scenario).where(eq(scenario.productVersionId, versionId))).filter(
    (r) => r.expectedPremium !== null,
  );
  rows.sort((a, b) => a.id - b.id);
  const baseTerm = await productBaseTerm(db, productId);
  return Promise.all(
    rows.map(async (row) => {
      const base = { scenarioId: row.id, name: row.name, expectedPremium: row.expectedPremium! };
      try {
        const request = scenarioRequest(row, await scenarioRisks(db, row.id), baseTerm);
        return {
          ...base,
          problem: null,
          knownCase: {
            name: row.name,
            request,
            expectedPremium: row.expectedPremium!,
            ...(row.expectedWorksheet ? { expectedWorksheet: row.expectedWorksheet as unknown as Worksheet } : {}),
          },
        };
      } catch (error) {
        return { ...base, knownCase: null, problem: (error as Error).message };
      }
    }),
  );
}
