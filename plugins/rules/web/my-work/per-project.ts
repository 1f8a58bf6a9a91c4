import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '@atrium/sdk';
import type { ListJson, ProjectJson } from '../../shared/api-types.js';

/**
 * My work's rules widgets ask each project in turn (`rules/projects/{id}/<list>/`, on its current
 * effective date): every project's rows, each with its project. The project list is one query both
 * widgets share, so All Modules asks for it once.
 */
export async function fetchPerProject<T>(
  api: ApiClient,
  queryClient: QueryClient,
  list: 'uncommittedcomponents' | 'failedtests',
  signal: AbortSignal,
): Promise<{ project: ProjectJson; row: T }[]> {
  const projects = await queryClient.fetchQuery({
    queryKey: ['rules', 'projects', 'my-work'],
    queryFn: ({ signal: own }) => api.get<ListJson<ProjectJson>>('/rules/projects/', { signal: own }),
    staleTime: 30_000,
  });
  const perProject = await Promise.all(
    projects.results.map(async (project) => {
      const rows = await api.get<ListJson<T>>(`/rules/projects/${project.id}/${list}/`, { signal });
      return rows.results.map((row) => ({ project, row }));
    }),
  );
  return perProject.flat();
}
