import { Anchor } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MyWorkAside, MyWorkDetail, MyWorkList, useApiClient } from '@atrium/sdk';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ComponentJson, ProjectJson } from '../../shared/api-types.js';
import { rulesComponentRoute, rulesProjectsRoute } from '../routes.js';
import { fetchPerProject } from './per-project.js';

/** Components shown in a rules widget; the rest are counted in its footer. */
export const COMPONENTS_SHOWN = 5;

/**
 * A My work list of rule components from every project (`rules/projects/{id}/<list>/`), sorted by
 * `latestFirst`'s date, each opening the component in the editor on its effective date: the body of
 * Uncommitted rule changes and of Failed rule tests.
 */
export function ComponentWorkList<C extends ComponentJson>({
  list,
  latestFirst,
  empty,
  detail,
  aside,
}: {
  list: 'uncommittedcomponents' | 'failedtests';
  /** The ISO date a row sorts by, latest first. */
  latestFirst: (component: C) => string;
  empty: ReactNode;
  /** After the project's name. */
  detail?: (component: C) => string;
  aside: (component: C) => ReactNode;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const rows = useQuery({
    queryKey: ['rules', list, 'my-work'],
    queryFn: async ({ signal }) =>
      (await fetchPerProject<C>(api, queryClient, list, signal)).sort((a, b) =>
        latestFirst(a.row) < latestFirst(b.row) ? 1 : -1,
      ),
  });
  return (
    <MyWorkList
      query={rows}
      rows={(all) => all.slice(0, COMPONENTS_SHOWN)}
      rowKey={({ project, row }: { project: ProjectJson; row: C }) => `${project.id}:${row.id}`}
      empty={empty}
      footer={(all, shown) =>
        all.length > shown.length ? (
          <Anchor component={Link} to={rulesProjectsRoute.link({})} size="sm">
            {all.length - shown.length} more in Rules
          </Anchor>
        ) : null
      }
    >
      {({ project, row }) => (
        <>
          <Anchor
            component={Link}
            to={`${rulesComponentRoute.link({ projectId: project.id, componentId: row.id })}?effective_date=${row.effective_date}`}
            size="sm"
            truncate
            style={{ flex: '0 1 auto', minWidth: 0 }}
          >
            {row.label || row.name}
          </Anchor>
          <MyWorkDetail>
            {project.label || project.name}
            {detail ? ` · ${detail(row)}` : ''}
          </MyWorkDetail>
          <MyWorkAside dimmed>{aside(row)}</MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
