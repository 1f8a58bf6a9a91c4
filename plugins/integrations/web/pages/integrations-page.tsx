import { Alert, Anchor, Badge, Button, Code, Group, Stack, Table, Text, Textarea } from '@mantine/core';
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
  type Integration,
  type IntegrationRun,
} from '../api.js';
import { IntegrationForm, type IntegrationFormValues } from '../components/integration-form.js';
import { formatDate, prefixLabel, runStatusLabels } from '../labels.js';
import { integrationRoute, integrationsRoute, newIntegrationRoute } from '../routes.js';

const CREATE_ERROR = 'An error occurred while creating the integration. Please try again.';
const UPDATE_ERROR = 'An error occurred while updating the integration. Please try again.';
const DELETE_ERROR = 'An error occurred while deleting the integration. Please try again.';
const RUN_ERROR = 'An error occurred while running the integration. Please try again.';
/** What started a run: Run now, or the event (its topic). */
const triggerLabel = (run: IntegrationRun) => {
  if (run.trigger !== 'event') return 'Run now';
  const topic = (run.input as { topic?: unknown } | null)?.topic;
  return typeof topic === 'string' ? `Event ${topic}` : 'An event';
};
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
  const [busy, setBusy] = useState(false);
  const create = async (attributes: IntegrationFormValues) => {
    setBusy(true);
    try {
      const body = await api.post<{ data: { id: string } }>(
        '/integrations/integrations',
        { data: { type: 'integration', attributes } },
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
    <Stack>
      <PageHeader title="New integration" icon={IconPlugConnected} />
      <IntegrationForm
        initial={{ name: '', category: '', events: [], definition: EXAMPLE_DEFINITION }}
        submitLabel="Create integration"
        busy={busy}
        onSubmit={(values) => void create(values)}
        cancel={
          <Button variant="default" component={Link} to={integrationsRoute.link({})}>
            Cancel
          </Button>
        }
      />
    </Stack>
  );
}

/** The definition with each step's keys in reading order (the database keeps JSON keys its own way). */
const readableDefinition = (definition: Integration['definition']) => ({
  steps: definition.steps.map((step) =>
    step.type === 'map'
      ? { name: step.name, type: step.type, from: step.from, to: step.to }
      : { name: step.name, type: step.type, url: step.url },
  ),
});

/** Edit: the same fields, saved with PATCH; changed events start runs from the next event on. */
function EditIntegration(props: { item: Integration; onDone: () => void }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { item } = props;
  const save = async (attributes: IntegrationFormValues) => {
    setBusy(true);
    try {
      await api.patch(
        `/integrations/integrations/${item.id}`,
        { data: { type: 'integration', id: item.id, attributes } },
        { jsonApi: true },
      );
      services.showToast({ message: 'Integration updated.', kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: integrationKeys.all });
      props.onDone();
    } catch (error) {
      services.showToast({ message: firstDetail(error, UPDATE_ERROR), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <IntegrationForm
      initial={{
        name: item.name,
        category: item.category,
        events: item.events,
        definition: JSON.stringify(readableDefinition(item.definition), null, 2),
      }}
      submitLabel="Save changes"
      busy={busy}
      onSubmit={(values) => void save(values)}
      cancel={
        <Button variant="default" onClick={props.onDone}>
          Cancel
        </Button>
      }
    />
  );
}

/** One integration: its steps, Run now on a JSON input, and its runs step by step with Retry. */
export function IntegrationPage() {
  const { integrationId = '' } = useParams();
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const item = useIntegration(integrationId);
  const runs = useIntegrationRuns(integrationId, (item.data?.events.length ?? 0) > 0);
  const canRun = useCan('integrations:integration', 'execute').allowed;
  const canUpdate = useCan('integrations:integration', 'update').allowed;
  const [editing, setEditing] = useState(false);
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
  // The newest run (it may have started from an event since the integration was loaded) gives the
  // status and the failed steps' messages.
  const latest = runs.data?.[0];
  const status = latest?.status ?? data.status;
  const messages = latest
    ? latest.steps.filter((step) => step.status === 'failed').map((step) => `${step.name}: ${step.error}`)
    : data.messages;
  if (editing)
    return (
      <Stack>
        <PageHeader title={`Edit ${data.name}`} icon={IconPlugConnected} />
        <EditIntegration item={data} onDone={() => setEditing(false)} />
      </Stack>
    );
  return (
    <Stack>
      <PageHeader
        title={data.name}
        icon={IconPlugConnected}
        description={
          <Group gap="xs" component="span">
            <StatusBadge labels={runStatusLabels} value={status} />
            <span>{`${data.category || 'No category'} · by ${data.author} · ${formatDate(data.date_created)}`}</span>
          </Group>
        }
        actions={
          <Group gap="xs">
            {canUpdate && (
              <Button variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
            )}
            {canDelete && (
              <ConfirmButton label="integration" verb="delete" color="red" onConfirm={remove}>
                Delete
              </ConfirmButton>
            )}
          </Group>
        }
      />
      {messages.map((message) => (
        <Alert key={message} color="red" title="The latest run failed">
          {message}
        </Alert>
      ))}
      <Text size="sm">{`Events that start a run: ${data.events.length ? data.events.map(prefixLabel).join(', ') : 'none (Run now only)'}`}</Text>
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
              <Table.Th>Started by</Table.Th>
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
                  <Table.Td>{triggerLabel(run)}</Table.Td>
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
                    <Table.Td colSpan={5}>
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
