import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  EmptyState,
  formatDate,
  MyWorkAside,
  MyWorkDetail,
  MyWorkList,
  useApiClient,
  type ApiClient,
} from '@atrium/sdk';
import { Link } from 'react-router-dom';
import type { FailedTestJson, ListJson, ProjectJson } from '../../shared/api-types.js';
import { rulesComponentRoute, rulesProjectsRoute } from '../routes.js';

/** Failed tests shown in the widget, latest run first. */
export const FAILED_TESTS_SHOWN = 5;

interface FailedTest {
  project: ProjectJson;
  test: FailedTestJson;
}

/** Every project's test components whose latest run (on the current effective date) failed. */
async function fetchFailedTests(api: ApiClient, signal: AbortSignal): Promise<FailedTest[]> {
  const projects = await api.get<ListJson<ProjectJson>>('/rules/projects/', { signal });
  const perProject = await Promise.all(
    projects.results.map(async (project) => {
      const failed = await api.get<ListJson<FailedTestJson>>(`/rules/projects/${project.id}/failedtests/`, { signal });
      return failed.results.map((test) => ({ project, test }));
    }),
  );
  return perProject.flat().sort((a, b) => (a.test.test_result.date_tested < b.test.test_result.date_tested ? 1 : -1));
}

/** "2 differences", "1 error": what the run found, in a word or two. */
function findings({ differences, errors }: FailedTestJson['test_result']): string {
  const parts: string[] = [];
  if (differences.length) parts.push(`${differences.length} difference${differences.length === 1 ? '' : 's'}`);
  if (errors.length) parts.push(`${errors.length} error${errors.length === 1 ? '' : 's'}`);
  return parts.join(', ') || 'Failed';
}

/** My work › Failed rule tests: rule tests whose latest run failed, for those who fix rules. */
export default function FailedTestsWidget() {
  const api = useApiClient();
  const failed = useQuery({
    queryKey: ['rules', 'failed-tests', 'my-work'],
    queryFn: ({ signal }) => fetchFailedTests(api, signal),
  });
  return (
    <MyWorkList
      query={failed}
      rows={(all) => all.slice(0, FAILED_TESTS_SHOWN)}
      rowKey={({ project, test }) => `${project.id}:${test.id}`}
      empty={<EmptyState title="No failed tests" description="Rule tests whose latest run failed show here." />}
      footer={(all, shown) =>
        all.length > shown.length ? (
          <Anchor component={Link} to={rulesProjectsRoute.link({})} size="sm">
            {all.length - shown.length} more in Rules
          </Anchor>
        ) : null
      }
    >
      {({ project, test }) => (
        <>
          <Anchor
            component={Link}
            to={`${rulesComponentRoute.link({ projectId: project.id, componentId: test.id })}?effective_date=${test.effective_date}`}
            size="sm"
            truncate
            style={{ flex: '0 1 auto', minWidth: 0 }}
          >
            {test.label || test.name}
          </Anchor>
          <MyWorkDetail>
            {project.label || project.name} · {findings(test.test_result)}
          </MyWorkDetail>
          <MyWorkAside dimmed>
            {test.test_result.tested_by} · {formatDate(test.test_result.date_tested)}
          </MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
