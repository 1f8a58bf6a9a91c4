import { EmptyState, formatDate } from '@atrium/sdk';
import type { FailedTestJson } from '../../shared/api-types.js';
import { ComponentWorkList } from './component-work-list.js';

/** "2 differences", "1 error": what the run found, in a word or two. */
function findings({ differences, errors }: FailedTestJson['test_result']): string {
  const parts: string[] = [];
  if (differences.length) parts.push(`${differences.length} difference${differences.length === 1 ? '' : 's'}`);
  if (errors.length) parts.push(`${errors.length} error${errors.length === 1 ? '' : 's'}`);
  return parts.join(', ') || 'Failed';
}

/** My work › Failed rule tests: test components whose latest run failed, for those who fix rules. */
export default function FailedTestsWidget() {
  return (
    <ComponentWorkList<FailedTestJson>
      list="failedtests"
      latestFirst={(test) => test.test_result.date_tested}
      empty={<EmptyState title="No failed tests" description="Rule tests whose latest run failed show here." />}
      detail={(test) => findings(test.test_result)}
      aside={(test) => `${test.test_result.tested_by} · ${formatDate(test.test_result.date_tested)}`}
    />
  );
}
