import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Grid,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { DataPoint } from '../../shared/data-points.js';
import type { Subject, TemplateVersion } from '../../shared/shapes.js';
import {
  createVersion,
  libraryKeys,
  listAssets,
  listComponents,
  listDataPoints,
  listPreviewRecords,
  listVersions,
  messageOf,
  preview,
  previewVersion,
  publishVersion,
  saveVersion,
  templatesClient,
  versionKeys,
  type PreviewRecord,
  type TemplateItem,
} from '../api.js';
import { documentsRoute } from '../routes.js';
import { openTemplates } from '../tabs/open-templates.js';
import { OpenTemplateTabs } from '../tabs/open-template-tabs.js';

// Monaco is its own chunk, loaded when a template's source is shown.
const TemplateEditor = lazy(() => import('./template-editor.js'));
const NO_POINTS: DataPoint[] = [];
/** The picker's value for the catalogue's sample (record ids are numbers, so they never clash). */
const SAMPLE = 'sample';

const formatDate = (iso: string) =>
  new Date(`${iso.slice(0, 10)}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });

/** The value after it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** How each subject reads in the picker and the badge. */
const SUBJECT_WORDS: Record<Subject, { badge: string; hint: string }> = {
  policy: { badge: 'Policy template', hint: 'Type a policy number or an insured’s name.' },
  claim: { badge: 'Claim template', hint: 'Type a claim number, a policy number or a claimant’s name.' },
  quote: { badge: 'Quote template', hint: 'Type a quote number or an insured’s name.' },
};

/**
 * The server's SVG of the source being edited (authors: debounced, on every change) or of the stored
 * version (readers, who may not preview source). Shown as an image, so nothing in it runs.
 */
function PreviewPane({
  source,
  subject,
  versionId,
  live,
}: {
  source: string;
  subject: Subject;
  versionId: number;
  live: boolean;
}) {
  const api = useApiClient();
  const debounced = useDebounced(source, 400);
  // The test-data picker: the sample, or a real policy, claim or quote (authors; the record's module
  // answers only what the author may read).
  const [record, setRecord] = useState<PreviewRecord | null>(null);
  const [search, setSearch] = useState('');
  const settledSearch = useDebounced(search, 250);
  const picking = live;
  const words = SUBJECT_WORDS[subject];
  const records = useQuery({
    queryKey: ['documents', 'preview-records', subject, settledSearch],
    queryFn: () => listPreviewRecords(api, subject, settledSearch),
    enabled: picking,
    retry: false,
    placeholderData: keepPreviousData,
  });
  const recordId = picking ? (record?.id ?? null) : null;
  const result = useQuery({
    queryKey: live
      ? ['documents', 'preview', subject, recordId, debounced]
      : ['documents', 'version-preview', versionId],
    queryFn: ({ signal }) =>
      live ? preview(api, debounced, subject, signal, recordId) : previewVersion(api, versionId, signal),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
  const url = useMemo(
    () => (result.data ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(result.data.svg)}` : null),
    [result.data],
  );
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3}>Preview</Title>
        {(result.isFetching || (live && debounced !== source)) && (
          <Loader size="xs" role="status" aria-label="Updating preview" />
        )}
      </Group>
      {picking && (
        <Select
          label="Preview with"
          searchable
          size="xs"
          nothingFoundMessage={records.error ? messageOf(records.error) : `No ${subject} matches.`}
          data={[
            { value: SAMPLE, label: `Sample ${subject}` },
            ...(record && !records.data?.some((r) => r.id === record.id) ? [record] : []),
            ...(records.data ?? []),
          ].map((r) => ('value' in r ? r : { value: r.id, label: r.label }))}
          value={record?.id ?? SAMPLE}
          onSearchChange={setSearch}
          onChange={(value) =>
            setRecord(value && value !== SAMPLE ? (records.data?.find((r) => r.id === value) ?? record) : null)
          }
          allowDeselect={false}
          description={records.error ? messageOf(records.error) : words.hint}
        />
      )}
      <Text size="xs" c="dimmed">
        Rendered on the server with {record && picking ? `${subject} ${record.label}` : `the sample ${subject}`}
        {live ? ' as you type.' : '.'}
      </Text>
      {result.error && (
        <Alert color="red" title="The template does not render" data-testid="preview-error">
          {messageOf(result.error)}
        </Alert>
      )}
      {result.data && url && (
        <>
          <Text size="xs" c="dimmed" data-testid="preview-status">
            {result.data.page_count === 1 ? '1 page' : `${result.data.page_count} pages`}
          </Text>
          {result.data.unresolved_paths.length > 0 ? (
            <Alert color="yellow" title="Data points without a value" data-testid="preview-unresolved">
              <Group gap={6}>
                {result.data.unresolved_paths.map((path) => (
                  <Code key={path}>{path}</Code>
                ))}
              </Group>
            </Alert>
          ) : (
            <Text size="xs" c="dimmed" data-testid="preview-unresolved">
              Every data point has a value.
            </Text>
          )}
          <Paper withBorder p={0} style={{ overflow: 'auto', maxHeight: '75vh', background: '#fff' }}>
            <img
              src={url}
              alt="Template preview"
              data-testid="preview-image"
              style={{ width: '100%', display: 'block' }}
            />
          </Paper>
        </>
      )}
    </Stack>
  );
}

function NewVersionForm({ templateId, onCreated }: { templateId: string; onCreated: (v: TemplateVersion) => void }) {
  const api = useApiClient();
  const [name, setName] = useState('');
  const [date, setDate] = useState('');
  const create = useMutation({
    mutationFn: () => createVersion(api, templateId, { name, effective_date: date }),
    onSuccess: (v) => {
      setName('');
      setDate('');
      onCreated(v);
    },
  });
  return (
    <Stack gap="xs">
      <Group align="flex-end">
        <TextInput label="Version name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Effective date" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
        <Button onClick={() => create.mutate()} loading={create.isPending} disabled={!name.trim() || !date}>
          Create draft version
        </Button>
      </Group>
      {create.error && <Alert color="red">{messageOf(create.error)}</Alert>}
    </Stack>
  );
}

export default function TemplatePage() {
  const { templateId = '' } = useParams();
  const api = useApiClient();
  const { showToast } = useHostServices();
  const queryClient = useQueryClient();
  const canAuthor = useCan('documents:template', 'author').allowed;
  const canPublish = useCan('documents:template', 'publish').allowed;
  const templateQuery = useQuery(templatesClient.findQuery(api, templateId));
  const versions = useQuery({ queryKey: versionKeys(templateId), queryFn: () => listVersions(api, templateId) });
  const subject = (templateQuery.data?.item as unknown as TemplateItem | undefined)?.subject;
  const dataPoints = useQuery({
    queryKey: ['documents', 'data-points', subject],
    queryFn: () => listDataPoints(api, subject!),
    enabled: subject !== undefined,
    staleTime: Infinity,
  });
  // Component and asset names complete inside "/components/…" and "/assets/…" (authors write imports).
  const components = useQuery({
    queryKey: libraryKeys.components,
    queryFn: () => listComponents(api),
    enabled: canAuthor,
    staleTime: 60_000,
  });
  const assets = useQuery({
    queryKey: libraryKeys.assets,
    queryFn: () => listAssets(api),
    enabled: canAuthor,
    staleTime: 60_000,
  });
  const library = useMemo(
    () => ({ components: components.data ?? [], assets: assets.data ?? [] }),
    [components.data, assets.data],
  );
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [source, setSource] = useState('');
  const [loadedId, setLoadedId] = useState<number | null>(null);

  const list = versions.data ?? [];
  const selected = list.find((v) => v.id === selectedId) ?? list.find((v) => v.status === 'draft') ?? list[0] ?? null;
  if (selected && loadedId !== selected.id) {
    setLoadedId(selected.id);
    // What was typed in this draft before switching tabs comes back.
    setSource(
      (selected.status === 'draft' ? openTemplates.bufferOf(templateId, selected.id) : null) ?? selected.source,
    );
  }
  const editable = canAuthor && selected?.status === 'draft';
  const dirty = selected !== null && source !== selected.source;
  const edit = (next: string) => {
    setSource(next);
    if (selected) openTemplates.setBuffer(templateId, selected.id, next === selected.source ? null : next);
  };
  const loadedName = (templateQuery.data?.item as unknown as TemplateItem | undefined)?.name;
  useEffect(() => {
    if (loadedName) openTemplates.open({ id: templateId, name: loadedName });
  }, [templateId, loadedName]);
  // Another template opened in this page (a tab): load its versions' source afresh.
  useEffect(() => {
    setSelectedId(null);
    setLoadedId(null);
  }, [templateId]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: versionKeys(templateId) });
  const save = useMutation({
    mutationFn: () => saveVersion(api, selected!.id, { source }),
    onSuccess: async () => {
      openTemplates.setBuffer(templateId, selected!.id, null);
      await refresh();
      showToast({ message: 'Draft saved.', kind: 'success' });
    },
  });
  const publish = useMutation({
    mutationFn: async (version: TemplateVersion) => {
      if (version.id === selected?.id && dirty) await saveVersion(api, version.id, { source });
      return publishVersion(api, version.id);
    },
    onSuccess: async (v) => {
      openTemplates.setBuffer(templateId, v.id, null);
      await refresh();
      showToast({ message: `Version ${v.number} (${v.name}) published.`, kind: 'success' });
    },
  });

  const template = templateQuery.data?.item as unknown as TemplateItem | undefined;
  if (templateQuery.error) return <Alert color="red">{messageOf(templateQuery.error)}</Alert>;
  if (!template) return <Loader size="sm" role="status" aria-label="Loading template" />;

  return (
    <Stack>
      <Anchor component={Link} to={documentsRoute.link({})} size="sm">
        ← All templates
      </Anchor>
      <OpenTemplateTabs activeId={templateId} />
      <Group>
        <Title order={1}>{template.name}</Title>
        <Badge variant="light">{SUBJECT_WORDS[template.subject].badge}</Badge>
      </Group>
      {template.description && <Text c="dimmed">{template.description}</Text>}

      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3}>
                Source
                {selected
                  ? ` · version ${selected.number} (${selected.status === 'draft' ? 'draft' : 'published'})`
                  : ''}
              </Title>
              {editable && (
                <Button size="xs" onClick={() => save.mutate()} disabled={!dirty} loading={save.isPending}>
                  Save draft
                </Button>
              )}
            </Group>
            {selected && !editable && (
              <Text size="xs" c="dimmed">
                {selected.status === 'published'
                  ? 'A published version is frozen. Create a draft version to change the template.'
                  : 'You may read this draft but not change it.'}
              </Text>
            )}
            {save.error && <Alert color="red">{messageOf(save.error)}</Alert>}
            {selected ? (
              <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading editor" />}>
                <TemplateEditor
                  modelId={String(selected.id)}
                  value={source}
                  onChange={edit}
                  readOnly={!editable}
                  dataPoints={dataPoints.data ?? NO_POINTS}
                  library={library}
                />
              </Suspense>
            ) : (
              <Text c="dimmed">Create a draft version to write the template.</Text>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          {selected ? (
            <PreviewPane source={source} subject={template.subject} versionId={selected.id} live={canAuthor} />
          ) : (
            <Text>No version yet.</Text>
          )}
        </Grid.Col>
      </Grid>

      <Title order={2}>Versions</Title>
      {versions.error && <Alert color="red">{messageOf(versions.error)}</Alert>}
      {publish.error && <Alert color="red">{messageOf(publish.error)}</Alert>}
      <Table striped aria-label="Versions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Version</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Effective date</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Published by</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.map((v) => (
            <Table.Tr key={v.id}>
              <Table.Td>{v.number}</Table.Td>
              <Table.Td>{v.name}</Table.Td>
              <Table.Td>{formatDate(v.effective_date)}</Table.Td>
              <Table.Td>
                <Badge color={v.status === 'published' ? 'green' : 'yellow'} variant="light">
                  {v.status === 'published' ? 'Published' : 'Draft'}
                </Badge>
              </Table.Td>
              <Table.Td>{v.published_by ?? '—'}</Table.Td>
              <Table.Td>
                <Group gap="xs">
                  {v.id !== selected?.id && (
                    <Button size="xs" variant="default" onClick={() => setSelectedId(v.id)}>
                      Open version {v.number}
                    </Button>
                  )}
                  {canPublish && v.status === 'draft' && (
                    <Button size="xs" onClick={() => publish.mutate(v)} loading={publish.isPending}>
                      Publish version {v.number}
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canAuthor && (
        <NewVersionForm
          templateId={templateId}
          onCreated={async (v) => {
            await refresh();
            setSelectedId(v.id);
            showToast({ message: `Draft version ${v.number} created.`, kind: 'success' });
          }}
        />
      )}
    </Stack>
  );
}
