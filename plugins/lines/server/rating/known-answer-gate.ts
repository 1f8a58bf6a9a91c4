import { runKnownAnswerCases } from '@atrium/rating';
import { ApiError, type Queryable } from '@atrium/sdk/server';
import type { BeforePublishContext } from '../catalog/publish-hooks.js';
import { knownAnswerCases } from '../scenarios/scenario-rating.js';
import { compiledVersion } from './rating-service.js';
import {
  knownAnswerReport,
  publishRefusalMessage,
  toOutcome,
  type KnownAnswerCaseOutcome,
  type KnownAnswerReport,
} from './known-answer-report.js';

/**
 * Known-answer cases: the scenarios of a version that carry an expected premium. They are run by
 * `POST …/versions/{v}/known-answer-cases/run/` and before a version is published, which is refused
 * (409, code `known_answer_mismatch`) when any case differs, naming the difference factor by factor.
 */
export async function runVersionCases(db: Queryable, productId: number, versionId: number): Promise<KnownAnswerReport> {
  const scenarios = await knownAnswerCases(db, productId, versionId);
  if (scenarios.length === 0) return knownAnswerReport([]);
  // A version that no longer compiles fails every case with the same problem.
  let compiled;
  try {
    compiled = await compiledVersion(db, productId, versionId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    return knownAnswerReport(
      scenarios.map((s) =>
        failed(s.scenarioId, s.name, s.expectedPremium, error.code ?? 'invalid_definition', error.message),
      ),
    );
  }
  const outcomes: KnownAnswerCaseOutcome[] = [];
  for (const s of scenarios) {
    if (!s.knownCase) {
      outcomes.push(failed(s.scenarioId, s.name, s.expectedPremium, 'no_risks', s.problem ?? 'Cannot be rated.'));
      continue;
    }
    const [result] = runKnownAnswerCases(compiled, [s.knownCase]);
    const outcome = toOutcome(s.scenarioId, result!);
    outcomes.push(outcome);
  }
  return knownAnswerReport(outcomes);
}

function failed(
  scenarioId: number,
  name: string,
  expectedPremium: string,
  code: string,
  message: string,
): KnownAnswerCaseOutcome {
  return {
    scenario_id: scenarioId,
    name,
    passed: false,
    expected_premium: expectedPremium,
    actual_premium: null,
    error: { code, message },
    differences: [],
  };
}

/** The before-publish hook: refuses publishing when a known-answer case of the version differs. */
export async function knownAnswerGate(context: BeforePublishContext): Promise<void> {
  const report = await runVersionCases(context.tx, context.productId, context.versionId);
  if (report.passed) return;
  throw new ApiError(409, publishRefusalMessage(report), {
    code: 'known_answer_mismatch',
    meta: { known_answer_cases: report },
  });
}
