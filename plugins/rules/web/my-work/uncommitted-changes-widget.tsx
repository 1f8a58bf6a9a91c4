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
import type { ComponentJson, ListJson, ProjectJson } from '../../shared/api-types.js';
import { rulesComponentRoute, rulesProjectsRoute } from '../routes.js';

/** Changes shown in the widget, latest first. */
export const UNCOMMITTED_SHOWN = 5;

interface Uncommitted {
  project: ProjectJson;
  component: ComponentJson;
}

/** Every project's components changed since their effective date's last commit, latest change first. */
async function fetchUncommitted(api: ApiClient, signal: AbortSignal): Promise<Uncommitted[]> {
  const projects = await api.get<ListJson<ProjectJson>>('/rules/projects/', { signal });
  const perProject = await Promise.all(
    projects.results.map(async (project) => {
      const changed = await api.get<ListJson<ComponentJson>>(`/rules/projects/${project.id}/uncommittedcomponents/`, {
        signal,
      });
      return changed.results.map((component) => ({ project, component }));
    }),
  );
  return perProject.flat().sort((a, b) => b.component.date_modified.localeCompare(a.component.date_modified));
}

/** My work › Uncommitted rule changes: what rules authors have saved and not yet committed. */
export default function UncommittedChangesWidget() {
  const api = useApiClient();
  const changes = useQuery({
    queryKey: ['rules', 'uncommitted', 'my-work'],
    queryFn: ({ signal }) => fetchUncommitted(api, signal),
  });
  return (
    <MyWorkList
      query={changes}
      rows={(all) => all.slice(0, UNCOMMITTED_SHOWN)}
      rowKey={({ project, component }) => `${project.id}:${component.id}`}
      empty={
        <EmptyState
          title="Everything is committed"
          description="Rule components saved since the last commit show here."
        />
      }
      footer={(all, shown) =>
        all.length > shown.length ? (
          <Anchor component={Link} to={rulesProjectsRoute.link({})} size="sm">
            {all.length - shown.length} more in Rules
          </Anchor>
        ) : null
      }
    >
      {({ project, component }) => (
        <>
          <Anchor
            component={Link}
            to={`${rulesComponentRoute.link({ projectId: project.id, componentId: component.id })}?effective_date=${component.effective_date}`}
            size="sm"
            truncate
            style={{ flex: '0 1 auto', minWidth: 0 }}
          >
            {component.label || component.name}
          </Anchor>
          <MyWorkDetail>{project.label || project.name}</MyWorkDetail>
          <MyWorkAside dimmed>
            {component.modified_by} · {formatDate(component.date_modified)}
          </MyWorkAside>
        </>
      )}
    </MyWorkList>
  );
}
