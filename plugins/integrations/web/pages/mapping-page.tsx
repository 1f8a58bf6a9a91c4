import { Alert, Anchor, Button, Code, Group, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import IconTransform from '@tabler/icons-react/icons/IconTransform';
import {
  ConfirmButton,
  ErrorState,
  LoadingState,
  PageHeader,
  StatusBadge,
  useApiClient,
  useCan,
  useHostServices,
} from '@atrium/sdk';
import {
  firstDetail,
  mappingDocument,
  mappingKeys,
  MAPPINGS_FETCH_ERROR,
  keys,
  useMapping,
  useMappingVersions,
  type DataMapping,
  type MappingPreview,
  type OutboxEvent,
} from '../api.js';
import { SampleTree } from '../components/sample-tree.js';
import type { InsertAtCursor } from '../editor/mapping-editor.js';
import { formatDate, mappingStatusLabels } from '../labels.js';
import { editMappingRoute, mappingsRoute } from '../routes.js';

const MappingEditor = lazy(() => import('../editor/mapping-editor.js'));
const MappingDiffEditor = lazy(() =>
  import('../editor/mapping-editor.js').then((m) => ({ default: m.MappingDiffEditor })),
);

const CREATE_ERROR = 'An error occurred while creating the Data Mapping. Please try again.';
const UPDATE_ERROR = 'An error occurred while updating the Data Mapping. Please try again.';
const REMOVE_ERROR = 'An error occurred while removing the Data Mapping. Please try again.';
const PREVIEW_DEBOUNCE_MS = 250;

const NEW_EXPRESSION = `{
  "reference": data.claim_number,
  "status": data.status,
  "reported_by": triggering_user
}`;
const NEW_SAMPLE = {
  topic: 'claims.claim.created',
  triggering_user: 'adjuster@atrium.test',
  data: { claim_number: 'CLM-000012', status: 'draft', reserve_amount: '1250.10' },
};

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** New mapping: from, to, the expression and its sample; created as version 1 (a draft). */
export function NewMappingPage() {
  return <MappingWorkbench />;
}

/** One version of a mapping: edit (a draft), save as the next version (a published one), publish, diff. */
export default function EditMappingPage() {
  const { mappingId = '' } = useParams();
  const mapping = useMapping(mappingId);
  if (mapping.isPending) return <LoadingState label="Loading the data mapping" />;
  if (mapping.isError)
    return <ErrorState error={new Error(MAPPINGS_FETCH_ERROR)} onRetry={() => void mapping.refetch()} />;
  return <MappingWorkbench key={`${mapping.data.id}:${mapping.data.status}`} mapping={mapping.data} />;
}

function MappingWorkbench({ mapping }: { mapping?: DataMapping }) {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const canCreate = useCan('integrations:mapping', 'create').allowed;
  const canUpdate = useCan('integrations:mapping', 'update').allowed;
  const canDelete = useCan('integrations:mapping', 'delete').allowed;
  const [from, setFrom] = useState(mapping?.from ?? '');
  const [to, setTo] = useState(mapping?.to ?? '');
  const [expression, setExpression] = useState(mapping?.mapping.expression ?? NEW_EXPRESSION);
  const [sampleText, setSampleText] = useState(pretty(mapping?.mapping.sample ?? NEW_SAMPLE));
  const [busy, setBusy] = useState(false);
  const [diffOpen, setDiffOpen] = useState(false);
  const insertRef = useRef<InsertAtCursor | null>(null);
  const versions = useMappingVersions(mapping?.from, mapping?.to);
  const published = versions.data?.find((v) => v.status === 'published' && v.id !== mapping?.id);
  const editable = mapping ? canUpdate : canCreate;

  const sample = useMemo(() => {
    try {
      return { value: JSON.parse(sampleText) as unknown, error: null };
    } catch (error) {
      return { value: undefined, error: `The sample is not valid JSON: ${(error as Error).message}` };
    }
  }, [sampleText]);

  // The live preview: the expression on the sample, evaluated by the server as delivery would.
  const input = useDebounced({ expression, sample: sample.value }, PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: ['integrations', 'mapping-preview', input.expression, input.sample],
    enabled: input.expression.trim() !== '' && input.sample !== undefined,
    placeholderData: (previous) => previous,
    queryFn: () =>
      api.post<MappingPreview>('/datamapping/preview/', { expression: input.expression, sample: input.sample }),
  });

  const events = useQuery({
    queryKey: [...keys.outbox, 'samples'],
    queryFn: async () => (await api.get<{ results: OutboxEvent[] }>('/events/outbox?page_size=20')).results,
  });

  const value = () => ({ language: 'jsonata', expression, sample: sample.value ?? {} });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: mappingKeys.all });
  };
  const open = (row: { id: string }) => services.navigate(editMappingRoute.link({ mappingId: row.id }));

  const create = async () => {
    setBusy(true);
    try {
      const body = await api.post<{ data: { id: string } }>(
        '/datamapping/mappings/',
        mappingDocument({ from, to, mapping: value() }),
        { jsonApi: true },
      );
      services.showToast({ message: 'Mapping created', kind: 'success' });
      await refresh();
      open(body.data);
    } catch (error) {
      services.showToast({ message: firstDetail(error, CREATE_ERROR), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const save = async (publish: boolean) => {
    if (!mapping) return;
    setBusy(true);
    try {
      const body = await api.patch<{ data: { id: string; attributes: { version: number } } }>(
        `/datamapping/mappings/${mapping.id}`,
        mappingDocument({ mapping: value(), ...(publish ? { status: 'published' } : {}) }, mapping.id),
        { jsonApi: true },
      );
      services.showToast({
        message: publish ? `Version ${body.data.attributes.version} published.` : 'Data Mapping updated',
        kind: 'success',
      });
      await refresh();
      // A published version never changes: its edit came back as the next version, a draft.
      if (body.data.id !== mapping.id) open(body.data);
    } catch (error) {
      services.showToast({ message: firstDetail(error, UPDATE_ERROR), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!mapping) return;
    try {
      await api.delete(`/datamapping/mappings/${mapping.id}`, { jsonApi: true });
      services.showToast({ message: 'Data Mapping removed.', kind: 'success' });
      await refresh();
      services.navigate(mappingsRoute.link({}));
    } catch (error) {
      services.showToast({ message: firstDetail(error, REMOVE_ERROR), kind: 'error' });
    }
  };

  const changed =
    mapping !== undefined &&
    (expression !== mapping.mapping.expression || sampleText !== pretty(mapping.mapping.sample ?? NEW_SAMPLE));
  const isDraft = mapping?.status === 'draft';
  const compareTo = mapping?.status === 'published' ? mapping : published;

  return (
    <Stack>
      <PageHeader
        title={mapping ? `${mapping.from} → ${mapping.to}` : 'New data mapping'}
        icon={IconTransform}
        description={
          mapping ? (
            <Group gap="xs" component="span">
              <span>{`Version ${mapping.version}`}</span>
              <StatusBadge labels={mappingStatusLabels} value={mapping.status} />
              <span>
                {mapping.status === 'published'
                  ? `published ${formatDate(mapping.date_published)}; it never changes — saving makes the next version.`
                  : `created ${formatDate(mapping.date_created)} by ${mapping.created_by}`}
              </span>
            </Group>
          ) : (
            'Reshape an event (or any JSON) for another system with JSONata. It is a draft until you publish it.'
          )
        }
        actions={
          <Group gap="xs">
            {mapping && compareTo && (
              <Button variant="default" onClick={() => setDiffOpen(true)}>
                {`Compare with version ${compareTo.version}`}
              </Button>
            )}
            {!mapping && canCreate && (
              <Button onClick={() => void create()} loading={busy} disabled={!from || !to || !!sample.error}>
                Create mapping
              </Button>
            )}
            {mapping && canUpdate && isDraft && (
              <>
                <Button variant="default" onClick={() => void save(false)} loading={busy} disabled={!!sample.error}>
                  Save draft
                </Button>
                <Button onClick={() => void save(true)} loading={busy} disabled={!!sample.error}>
                  {`Publish version ${mapping.version}`}
                </Button>
              </>
            )}
            {mapping && canUpdate && !isDraft && (
              <Button onClick={() => void save(false)} loading={busy} disabled={!changed || !!sample.error}>
                Save as new version
              </Button>
            )}
            {mapping && canDelete && (
              <ConfirmButton label="data mapping" verb="remove" color="red" onConfirm={remove}>
                Remove
              </ConfirmButton>
            )}
          </Group>
        }
      />
      {!mapping && (
        <Group grow align="flex-start">
          <TextInput
            label="From"
            description="The source shape, e.g. claims.claim"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            required
          />
          <TextInput
            label="To"
            description="The target shape, e.g. acme.claim-notice"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            required
          />
        </Group>
      )}
      <Group align="flex-start" grow wrap="wrap">
        <Stack gap="xs" miw={320}>
          <Title order={2} size="h4">
            Expression
          </Title>
          <Text size="xs" c="dimmed">
            JSONata. Money stays exact with $decimalAdd, $decimalSub, $decimalMul, $decimalDiv, $decimalSum and
            $decimalRound (they answer decimal strings); JSONata&apos;s own + and * compute in floating point.
          </Text>
          <Suspense fallback={<LoadingState label="Loading editor" />}>
            <MappingEditor
              expression={expression}
              onExpressionChange={setExpression}
              sample={sampleText}
              onSampleChange={setSampleText}
              readOnly={!editable}
              onReady={(insert) => (insertRef.current = insert)}
            />
          </Suspense>
          <Select
            label="Use a recent event as the sample"
            placeholder={events.data?.length === 0 ? 'No events yet' : 'Pick an event'}
            data={(events.data ?? []).map((e) => ({
              value: e.event_id,
              label: `${e.topic} — ${formatDate(e.event_date)}`,
            }))}
            value={null}
            disabled={!editable}
            onChange={(id) => {
              const event = events.data?.find((e) => e.event_id === id);
              if (!event) return;
              const { position: _position, ...envelope } = event;
              setSampleText(pretty(envelope));
            }}
          />
        </Stack>
        <Stack gap="xs" miw={280}>
          <Title order={2} size="h4">
            Preview
          </Title>
          {sample.error ? (
            <Alert color="red" title="Sample">
              {sample.error}
            </Alert>
          ) : preview.isError ? (
            <Alert color="red">The preview could not be computed. Please try again.</Alert>
          ) : preview.data?.error ? (
            <Alert color="red" title="The expression fails">
              {preview.data.error}
            </Alert>
          ) : (
            <Code block aria-label="Preview output" data-testid="mapping-preview">
              {preview.data ? pretty(preview.data.result) : '…'}
            </Code>
          )}
          {preview.data?.warnings.map((warning) => (
            <Alert key={warning} color="yellow" title="Money as a number">
              {warning}
            </Alert>
          ))}
          <Title order={2} size="h4">
            Sample fields
          </Title>
          <Text size="xs" c="dimmed">
            Click a field to insert its path at the cursor.
          </Text>
          <Paper withBorder p="xs">
            {sample.value === undefined ? (
              <Text size="sm">Fix the sample to see its fields.</Text>
            ) : (
              <SampleTree value={sample.value} disabled={!editable} onPick={(path) => insertRef.current?.(path)} />
            )}
          </Paper>
          {mapping && versions.data && versions.data.length > 1 && (
            <>
              <Title order={2} size="h4">
                Versions
              </Title>
              <Stack gap={4}>
                {versions.data.map((v) => (
                  <Group key={v.id} gap="xs">
                    {v.id === mapping.id ? (
                      <Text size="sm" fw={600}>{`Version ${v.version}`}</Text>
                    ) : (
                      <Anchor component={Link} size="sm" to={editMappingRoute.link({ mappingId: v.id })}>
                        {`Version ${v.version}`}
                      </Anchor>
                    )}
                    <StatusBadge labels={mappingStatusLabels} value={v.status} />
                  </Group>
                ))}
              </Stack>
            </>
          )}
        </Stack>
      </Group>
      <Modal
        opened={diffOpen}
        onClose={() => setDiffOpen(false)}
        title={compareTo ? `Changes against version ${compareTo.version}` : 'Changes'}
        size="xl"
      >
        {compareTo && (
          <Stack gap="xs">
            <Text size="sm">{`Left: version ${compareTo.version} as published. Right: the text in the editor.`}</Text>
            <Suspense fallback={<LoadingState label="Loading editor" />}>
              <MappingDiffEditor original={compareTo.mapping.expression} modified={expression} />
            </Suspense>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
