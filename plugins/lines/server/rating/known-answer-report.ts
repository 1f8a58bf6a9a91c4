import type { KnownAnswerResult, WorksheetDifference } from '@atrium/rating';

/**
 * How the outcome of a version's known-answer cases is shown: by the run route, and in the body of
 * the refusal when publishing a version whose cases do not all match. Each failing case lists the
 * difference factor by factor (diffWorksheets of the worksheet recorded with the expected premium
 * against the one the version gives now).
 */
export interface KnownAnswerCaseOutcome {
  scenario_id: number;
  name: string;
  passed: boolean;
  expected_premium: string;
  actual_premium: string | null;
  error: { code: string; message: string } | null;
  differences: WorksheetDifference[];
}

export interface KnownAnswerReport {
  passed: boolean;
  /** 'All 3 known-answer cases match.' or what failed, case by case. */
  message: string;
  total: number;
  failed: number;
  cases: KnownAnswerCaseOutcome[];
}

/** At most this many differences are spelled out per case in the message (the body lists them all). */
const MESSAGE_DIFFERENCES = 5;

export function toOutcome(scenarioId: number, result: KnownAnswerResult): KnownAnswerCaseOutcome {
  return {
    scenario_id: scenarioId,
    name: result.name,
    passed: result.passed,
    expected_premium: result.expectedPremium,
    actual_premium: result.actualPremium ?? null,
    error: result.error ?? null,
    differences: result.differences,
  };
}

function caseLine(outcome: KnownAnswerCaseOutcome): string {
  if (outcome.error) return `'${outcome.name}' could not be rated: ${outcome.error.message}`;
  const head = `'${outcome.name}' expected ${outcome.expected_premium}, got ${outcome.actual_premium}`;
  const shown = outcome.differences.filter((d) => !(d.kind === 'premium' && d.name === 'proRataPremium'));
  if (shown.length === 0) return head;
  const listed = shown.slice(0, MESSAGE_DIFFERENCES).map((d) => d.message);
  const more = shown.length > MESSAGE_DIFFERENCES ? `; and ${shown.length - MESSAGE_DIFFERENCES} more` : '';
  return `${head} (${listed.join('; ')}${more})`;
}

export function knownAnswerReport(outcomes: KnownAnswerCaseOutcome[]): KnownAnswerReport {
  const failing = outcomes.filter((o) => !o.passed);
  const total = outcomes.length;
  let message: string;
  if (total === 0) message = 'This version has no known-answer cases.';
  else if (failing.length === 0) message = `All ${total} known-answer case${total === 1 ? '' : 's'} match.`;
  else {
    message =
      `${failing.length} of ${total} known-answer case${total === 1 ? '' : 's'} ` +
      `${failing.length === 1 ? 'differs' : 'differ'}: ${failing.map(caseLine).join('. ')}.`;
  }
  return { passed: failing.length === 0, message, total, failed: failing.length, cases: outcomes };
}

/** The refusal's message when a version cannot be published. */
export function publishRefusalMessage(report: KnownAnswerReport): string {
  return `This version cannot be published: ${report.message}`;
}
