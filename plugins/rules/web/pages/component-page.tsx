import { Alert, Anchor, Badge, Code, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  STATE_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
  type ComponentJson,
  type EffectiveDateJson,
  type ListJson,
} from '../../shared/api-types.js';
import { formatDay } from '../format.js';
import { rulesProjectsRoute } from '../routes.js';

/** One component's text on one of its effective dates (read-only; the editor is slice b). */
export default function ComponentPage() {
  const api = useApiClient();
  const { projectId, componentId } = useParams();
  const [search, setSearch] = useSearchParams();
  const dateId = search.get('effective_date');
  const dates = useQuery({
    queryKey: ['rules', 'component-dates', projectId, componentId],
    queryFn: () =>
      api.get<ListJson<EffectiveDateJson & { component_state: ComponentJson['state'] }>>(
        `/rules/projects/${projectId}/components/${componentId}/effective-dates/`,
      ),
  });
  const component = useQuery({
    queryKey: ['rules', 'component', componentId, dateId],
    queryFn: () =>
      api.get<ComponentJson>(
        dateId
          ? `/rules/brl-components/${componentId}/effective-date/${dateId}/`
          : `/rules/brl-components/${componentId}/`,
      ),
  });
  const c = component.data;
  return (
    <Stack>
      <Anchor component={Link} to={rulesProjectsRoute.link({})}>
        All rules projects
      </Anchor>
      {component.isPending && <Loader aria-label="Loading the component" />}
      {component.isError && <Alert color="red">The component could not be loaded: {component.error.message}</Alert>}
      {c && (
        <>
          <Title order={1}>{c.label || c.name}</Title>
          <Text ff="monospace" c="dimmed">
            {c.full_name}
          </Text>
          <Group gap="xs">
            <Badge variant="light">{TYPE_LABELS[c.component_type]}</Badge>
            <Badge variant="light" color={c.state === 'enabled' ? 'green' : 'gray'}>
              {STATE_LABELS[c.state]}
            </Badge>
            {c.uncommitted && <Badge variant="outline">Uncommitted</Badge>}
            {c.tags.map((t) => (
              <Badge key={`${t.category}.${t.value}`} variant="dot">
                {t.category}: {t.value}
              </Badge>
            ))}
          </Group>
          {dates.data && (
            <Select
              label="Effective date"
              w={280}
              allowDeselect={false}
              value={String(c.effective_date)}
              data={dates.data.results.map((d) => ({
                value: String(d.id),
                label: `${formatDay(d.effective_date)} · ${STATUS_LABELS[d.status]}`,
              }))}
              onChange={(value) => value && setSearch({ effective_date: value })}
            />
          )}
          <Code block aria-label="Component text">
            {c.body}
          </Code>
          <Text size="sm" c="dimmed">
            Changed {new Date(c.date_modified).toLocaleString('en-US')} by {c.modified_by}
          </Text>
        </>
      )}
    </Stack>
  );
}
