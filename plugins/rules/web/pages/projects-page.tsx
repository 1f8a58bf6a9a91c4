import { Alert, Anchor, Badge, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useApiClient } from '@atrium/sdk';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import {
  STATE_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
  type ComponentJson,
  type ListJson,
  type ProjectJson,
} from '../../shared/api-types.js';
import { formatDay } from '../format.js';
import { rulesComponentRoute } from '../routes.js';

const STATUS_COLORS = { draft: 'yellow', published: 'green', archived: 'gray' } as const;

/** Rules projects: their effective dates and the components of the current one (the latest draft). */
export default function ProjectsPage() {
  const api = useApiClient();
  const projects = useQuery({
    queryKey: ['rules', 'projects'],
    queryFn: () => api.get<ListJson<ProjectJson>>('/rules/projects/'),
  });
  const components = useQueries({
    queries: (projects.data?.results ?? []).map((p) => ({
      queryKey: ['rules', 'components', p.id],
      queryFn: () =>
        api.get<ListJson<ComponentJson>>('/rules/brl-components/', { query: { project_id: String(p.id) } }),
    })),
  });
  return (
    <Stack>
      <Title order={1}>Rules</Title>
      {projects.isPending && <Loader role="status" aria-label="Loading rules projects" />}
      {projects.isError && <Alert color="red">The rules projects could not be loaded: {projects.error.message}</Alert>}
      {projects.data?.results.length === 0 && <Text>There are no rules projects yet.</Text>}
      {projects.data?.results.map((project, index) => {
        const list = components[index];
        return (
          <Paper key={project.id} withBorder p="md">
            <Stack gap="sm">
              <Title order={2}>{project.label}</Title>
              {project.description && <Text c="dimmed">{project.description}</Text>}
              <Group gap="xs" aria-label={`Effective dates of ${project.label}`}>
                {project.effective_dates.map((d) => (
                  <Badge key={d.id} color={STATUS_COLORS[d.status]} variant="light">
                    {formatDay(d.effective_date)} · {STATUS_LABELS[d.status]}
                  </Badge>
                ))}
              </Group>
              {list?.isPending && (
                <Loader size="sm" role="status" aria-label={`Loading the components of ${project.label}`} />
              )}
              {list?.isError && <Alert color="red">The components could not be loaded: {list.error.message}</Alert>}
              {list?.data && (
                <Table aria-label={`Components of ${project.label}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Component</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Folder</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Changes</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.data.results.map((c) => (
                      <Table.Tr key={c.id}>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={rulesComponentRoute.link({ projectId: project.id, componentId: c.id })}
                          >
                            {c.label || c.name}
                          </Anchor>
                          <Text component="code" display="block" size="xs" c="dimmed" ff="monospace">
                            {c.full_name}
                          </Text>
                        </Table.Td>
                        <Table.Td>{TYPE_LABELS[c.component_type]}</Table.Td>
                        <Table.Td>{c.folder || '—'}</Table.Td>
                        <Table.Td>{STATE_LABELS[c.state]}</Table.Td>
                        <Table.Td>
                          {c.uncommitted ? <Badge variant="outline">Uncommitted</Badge> : 'Committed'}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
