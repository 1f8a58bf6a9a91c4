import { Alert, Anchor, Badge, Button, Code, Group, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import IconPlugConnected from '@tabler/icons-react/icons/IconPlugConnected';
import {
  ConfirmButton,
  EmptyState,
  ErrorState,
  LoadingState,
  PageHeader,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
  isApiRequestError,
} from '@atrium/sdk';
import {
  firstDetail,
  integrationKeys,
  INTEGRATIONS_FETCH_ERROR,
  isIntegrationId,
  useIntegration,
  useIntegrationRuns,
  useIntegrations,
  type IntegrationRun,
} from '../api.js';
import { formatDate, prefixLabel, runStatusLabels } from '../labels.js';
import { integrationRoute, integrationsRoute, newIntegrationRoute } from '../routes.js';

const CREATE_ERROR = 'An error occurred while creating the integration. Please try again.';
const DELETE_ERROR = 'An error occurred while deleting the integration. Please try again.';
const RUN_ERROR = 'An error occurred while running the integration. Please try again.';
const stepTypeLabel = (type: string) => (type === 'map' ? 'Data mapping' : type === 'http' ? 'HTTP POST' : type);

/** Integrations (the spec's list at the root): name, category, steps, the latest run's status. */
export default function IntegrationsPage() {
  const list = useIntegrations();
  const canCreate = useCan('integrations:integration', 'create').allowed;
  return (
    <Stack>
      <PageHeader
        title="Integrations"
        icon={IconPlugConnected}
        description="Steps run one after another on an input: data mappings and HTTP posts. Every run is recorded step by step."
        actions={
          canCreate && (
            <Button component={Link} to={newIntegrationRoute.link({})}>
              New integration
            </Button>
          )
        }
      />
      {list.isPending ? (
        <LoadingState label="Loading integrations" />
      ) : list.isError ? (
        <ErrorState error={new Error(INTEGRATIONS_FETCH_ERROR)} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No integrations yet" description="Create one to connect Atrium to another system." />
      ) : (
        <Table aria-label="Integrations" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Category</Table.Th>
              <Table.Th>Steps</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Anchor component={Link} to={integrationRoute.link({ integrationId: item.id })}>
                    {item.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{item.category || '–'}</Table.Td>
                <Table.Td>{item.definition.steps.length}</Table.Td>
                <Table.Td>
                  <StatusBadge labels={runStatusLabels} value={item.status} />
                </Table.Td>
                <Table.Td>{`${formatDate(item.date_created)} by ${item.author}`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const EXAMPLE_DEFINITION = JSON.stringify(
  {
    steps: [
      { name: 'Map the claim', type: 'map', from: 'claims.claim', to: 'acme.claim-notice' },
      { name: 'Post to ACME', type: 'http', url: 'https://hooks.example.com/atrium' },
    ],
  },
  null,
  2,
);

/** New integration: name, category, events and the definition (JSON, checked by the server). */
export function NewIntegrationPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const [events, setEvents] = useState('');
  const [definition, setDefinition] = useState(EXAMPLE_DEFINITION);
  const [busy, setBusy] = useState(false);
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    parsed = JSON.parse(definition);
  } catch (error) {
    parseError = `The definition must be valid JSON: ${(error as Error).message}`;
  }
  const create = async () => {
    setBusy(true);
    try {
      const body = await api.post<{ data: { id: string } }>(
        '/integrations/integrations',
        {
          data: {
            type: 'integration',
            attributes: {
              name,
              category,
              events: events
                .split(',')
                .map((e) => e.trim())
                .filter(Boolean),
              definition: parsed,
            },
          },
        },
        { jsonApi: true },
      );
      services.showToast({ message: 'Integration created.', kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: integrationKeys.all });
      services.navigate(integrationRoute.link({ integrationId: body.data.id }));
    } catch (error) {
      services.showToast({ message: firstDetail(error, CREATE_ERROR), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack maw={760}>
      <PageHeader title="New integration" icon={IconPlugConnected} />
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <TextInput label="Category" value={category} onChange={(e) => setCategory(e.currentTarget.value)} />
      <TextInput
        label="Events"
        description="Topic prefixes, comma-separated (claims, lines.product-version)"
        value={events}
        onChange={(e) => setEvents(e.currentTarget.value)}
      />
      <Textarea
        label="Definition"
        description="Steps: {name, type: 'map', from, to} runs a published data mapping; {name, type: 'http', url} posts the input."
        autosize
        minRows={8}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        value={definition}
        onChange={(e) => setDefinition(e.currentTarget.value)}
        error={parseError}
      />
      <Group>
        <Button onClick={() => void create()} loading={busy} disabled={!name.trim() || parseError !== null}>
          Create integration
        </Button>
        <Button variant="default" component={Link} to={integrationsRoute.link({})}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** One integration: its steps, Run now on a JSON input, and its runs step by step with Retry. */
export function IntegrationPage() {
  const { integrationId = '' } = useParams();
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const item = useIntegration(integrationId);
  const runs = useIntegrationRuns(integrationId);
  const canRun = useCan('integrations:integration', 'execute').allowed;
  const canDelete = useCan('integrations:integration', 'delete').allowed;
  const [input, setInput] = useState('{}');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    parsed = JSON.parse(input);
  } catch (error) {
    parseError = `The input must be valid JSON: ${(error as Error).message}`;
  }
  const refresh = () => queryClient.invalidateQueries({ queryKey: integrationKeys.one(integrationId) });
  const act = async (path: string, body?: unknown) => {
    setBusy(true);
    try {
      const run = await api.post<{ data: { id: string; attributes: IntegrationRun } }>(path, body);
      services.showToast({
        message: run.data.attributes.status === 'succeeded' ? 'The run succeeded.' : 'The run failed; see its steps.',
        kind: run.data.attributes.status === 'succeeded' ? 'success' : 'error',
      });
      setOpen(run.data.id);
    } catch (error) {
      services.showToast({ message: firstDetail(error, RUN_ERROR), kind: 'error' });
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  const remove = async () => {
    try {
      await api.delete(`/integrations/integrations/${integrationId}`, { jsonApi: true });
      services.showToast({ message: 'Integration deleted.', kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: integrationKeys.all });
      services.navigate(integrationsRoute.link({}));
    } catch (error) {
      services.showToast({ message: firstDetail(error, DELETE_ERROR), kind: 'error' });
    }
  };
  // A mistyped or stale address (not an id, or an integration since deleted) says so, with the way
  // back, instead of a load error to retry.
  if (!isIntegrationId(integrationId) || (isApiRequestError(item.error) && item.error.status === 404))
    return (
      <EmptyState
        title="Integration not found."
        description="It may have been deleted, or the address is not an integration's."
        action={
          <Anchor component={Link} to={integrationsRoute.link({})}>
            Back to integrations
          </Anchor>
        }
      />
    );
  if (item.isPending) return <LoadingState label="Loading the integration" />;
  if (item.isError)
    return <ErrorState error={new Error(INTEGRATIONS_FETCH_ERROR)} onRetry={() => void item.refetch()} />;
  const data = item.data;
  return (
    <Stack>
      <PageHeader
        title={data.name}
        icon={IconPlugConnected}
        description={
          <Group gap="xs" component="span">
            <StatusBadge labels={runStatusLabels} value={data.status} />
            <span>{`${data.category || 'No category'} · by ${data.author} · ${formatDate(data.date_created)}`}</span>
          </Group>
        }
        actions={
          canDelete && (
            <ConfirmButton label="integration" verb="delete" color="red" onConfirm={remove}>
              Delete
            </ConfirmButton>
          )
        }
      />
      {data.messages.map((message) => (
        <Alert key={message} color="red" title="The latest run failed">
          {message}
        </Alert>
      ))}
      <Text size="sm">{`Events: ${data.events.length ? data.events.map(prefixLabel).join(', ') : 'none'}`}</Text>
      <Table aria-label="Steps">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Step</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Target</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.definition.steps.map((step, index) => (
            <Table.Tr key={`${index}-${step.name}`}>
              <Table.Td>{index + 1}</Table.Td>
              <Table.Td>{step.name}</Table.Td>
              <Table.Td>{stepTypeLabel(step.type)}</Table.Td>
              <Table.Td>{step.type === 'map' ? `${step.from} → ${step.to}` : step.url}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canRun && (
        <Stack gap="xs">
          <Textarea
            label="Input (JSON)"
            autosize
            minRows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={input}
            onChange={(e) => setInput(e.currentTarget.value)}
            error={parseError}
          />
          <Group>
            <Button
              loading={busy}
              disabled={parseError !== null}
              onClick={() => void act(`/integrations/integrations/${integrationId}/runs`, { input: parsed })}
            >
              Run now
            </Button>
          </Group>
        </Stack>
      )}
      {runs.isPending ? (
        <LoadingState label="Loading runs" />
      ) : runs.isError ? (
        <ErrorState error={new Error(INTEGRATIONS_FETCH_ERROR)} onRetry={() => void runs.refetch()} />
      ) : runs.data.length === 0 ? (
        <EmptyState title="No runs yet" description="Run it on an input to see each step's result." />
      ) : (
        <Table aria-label="Runs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.data.map((run) => (
              <Fragment key={run.id}>
                <Table.Tr>
                  <Table.Td>{formatDate(run.started_at)}</Table.Td>
                  <Table.Td>{run.triggered_by}</Table.Td>
                  <Table.Td>
                    <StatusBadge labels={runStatusLabels} value={run.status} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="subtle" onClick={() => setOpen(open === run.id ? null : run.id)}>
                        {open === run.id ? 'Hide steps' : 'Show steps'}
                      </Button>
                      {canRun && run.status === 'failed' && (
                        <Button
                          size="xs"
                          variant="light"
                          loading={busy}
                          onClick={() => void act(`/integrations/integrations/${integrationId}/runs/${run.id}/retry`)}
                        >
                          Retry failed step
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                {open === run.id && (
                  <Table.Tr>
                    <Table.Td colSpan={4}>
                      <Stack gap="xs">
                        {run.steps.map((step) => (
                          <Stack key={step.position} gap={2}>
                            <Group gap="xs">
                              <Text fw={600} size="sm">{`${step.position}. ${step.name}`}</Text>
                              <StatusBadge labels={runStatusLabels} value={step.status} />
                              {step.attempts > 1 && <Badge variant="light">{`${step.attempts} attempts`}</Badge>}
                            </Group>
                            {step.error && (
                              <Text size="sm" c="red">
                                {step.error}
                              </Text>
                            )}
                            <Code block aria-label={`Step ${step.position} output`}>
                              {JSON.stringify(step.status === 'failed' ? step.input : step.output, null, 2)}
                            </Code>
                          </Stack>
                        ))}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
