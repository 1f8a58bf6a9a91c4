import { isApiRequestError } from '@atrium/sdk';
import { asRecord, str } from './api-shared.js';

/**
 * A refused publish carries the known-answer report (the server spreads it into the problem body or
 * an error's `meta`): per failing case the expected and actual premium and every difference, factor
 * by factor. This finds it wherever it sits, so the screen can list each difference.
 */
export interface FailedCase {
  name: string;
  expected: string | null;
  actual: string | null;
  error: string | null;
  differences: string[];
}

function findCases(value: unknown, depth = 0): unknown[] | null {
  const record = asRecord(value);
  if (Array.isArray(record.cases)) return record.cases;
  if (depth >= 3) return null;
  for (const child of Object.values(record)) {
    const found = Array.isArray(child)
      ? child.map((c) => findCases(c, depth + 1)).find((c) => c !== null)
      : findCases(child, depth + 1);
    if (found) return found;
  }
  return null;
}

export function failedKnownAnswerCases(error: unknown): FailedCase[] {
  if (!isApiRequestError(error)) return [];
  const cases = findCases(error.body) ?? error.errors.map((e) => findCases(e.meta)).find((c) => c !== null) ?? [];
  return cases
    .map(asRecord)
    .filter((c) => c.passed !== true)
    .map((c) => ({
      name: str(c.name) ?? `Scenario ${str(c.scenario_id) ?? ''}`.trim(),
      expected: str(c.expected_premium),
      actual: str(c.actual_premium),
      error: str(asRecord(c.error).message),
      differences: (Array.isArray(c.differences) ? c.differences : [])
        .map((d) => str(asRecord(d).message))
        .filter((m): m is string => m !== null),
    }));
}
