import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Kbd,
  List,
  Loader,
  Modal,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { SyncLinesPanel } from '../editor/sync-lines-panel.js';
import { useCan, useApiClient, useHostServices, usePluginContextKey } from '@atrium/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  STATE_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
  type BuildProblemJson,
  type ComponentJson,
  type EffectiveDateJson,
  type JobJson,
  type ListJson,
  type RuleTestJson,
} from '../../shared/api-types.js';
import { brlDiagnostics, formatBrl, type BrlSuggestions, type Diagnostic } from '../editor/brl-service.js';
import type { DiagnosticsRequest } from '../editor/diagnostics.worker.js';
import DiagnosticsWorker from '../editor/diagnostics.worker.ts?worker';
import { onEditorAction, shortcutLabel, type EditorAction } from '../editor/editor-commands.js';
import { CommitDeployDialog, useBuildRights } from '../editor/commit-deploy-dialog.js';
import { TemplateArgumentsForm } from '../editor/template-arguments-form.js';
import { useBuildJob } from '../editor/use-build-job.js';
import { ComponentActions, useComponentRights } from '../projects/component-actions.js';
import { formatDay, serverMessage } from '../format.js';
import { rulesComponentRoute, rulesProjectsRoute } from '../routes.js';

// Monaco is loaded only when the editor opens (its own chunk, bundled: no CDN).
const BrlEditor = lazy(() => import('../editor/brl-editor.js'));
const BrlDiffEditor = lazy(() => import('../editor/brl-editor.js').then((m) => ({ default: m.BrlDiffEditor })));

const BRL_TYPES: ComponentJson['component_type'][] = ['rule', 'template'];

/** The test body as JSON: its parse error, if any. */
function jsonDiagnostics(text: string): Diagnostic[] {
  try {
    JSON.parse(text);
    return [];
  } catch (error) {
    const message = `The test is not JSON: ${(error as Error).message}`;
    return [{ severity: 'error', message, startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 }];
  }
}

/**
 * Problems of the text being edited, as you type (250 ms after the last change): BRL in a web
 * worker running the language service (in the page where workers are not available), tests as JSON.
 */
function useDiagnostics(
  text: string | null,
  type: ComponentJson['component_type'] | undefined,
  suggestions: BrlSuggestions | null,
  name: string | undefined,
): Diagnostic[] {
  const [diagnostics, setDiagnostics] = useState<Diagnostic[]>([]);
  const brl = text !== null && type !== undefined && BRL_TYPES.includes(type);
  const workerRef = useRef<Worker | null>(null);
  const latest = useRef(0);
  useEffect(() => {
    if (!brl || typeof Worker === 'undefined') return;
    const worker = new DiagnosticsWorker();
    worker.onmessage = (event: MessageEvent<{ id: number; diagnostics: Diagnostic[] }>) => {
      if (event.data.id === latest.current) setDiagnostics(event.data.diagnostics);
    };
    workerRef.current = worker;
    return () => {
      worker.terminate();
      workerRef.current = null;
    };
  }, [brl]);
  useEffect(() => {
    if (text === null || !type) {
      setDiagnostics([]);
      return;
    }
    const timer = setTimeout(() => {
      if (!BRL_TYPES.includes(type)) setDiagnostics(type === 'test' ? jsonDiagnostics(text) : []);
      else if (workerRef.current) {
        const request: DiagnosticsRequest = { id: ++latest.current, text, suggestions, name };
        workerRef.current.postMessage(request);
      } else setDiagnostics(brlDiagnostics(text, suggestions, name));
    }, 250);
    return () => clearTimeout(timer);
  }, [text, type, suggestions, name]);
  return diagnostics;
}

function ShortcutButton(props: {
  action: EditorAction;
  label: string;
  onClick: () => void;
  loading?: boolean;
  disabled?: boolean;
  variant?: string;
}) {
  const keys = shortcutLabel(props.action);
  return (
    <Button
      size="xs"
      variant={props.variant ?? 'default'}
      onClick={props.onClick}
      loading={props.loading}
      disabled={props.disabled}
      title={`${props.label} (${keys})`}
      rightSection={
        <Kbd size="xs" aria-hidden>
          {keys}
        </Kbd>
      }
    >
      {props.label}
    </Button>
  );
}

/** A component's text on one of its effective dates; rules authors edit it on a draft date in Monaco. */
export default function ComponentPage() {
  const api = useApiClient();
  const services = useHostServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { projectId = '', componentId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const dateId = search.get('effective_date');
  const dates = useQuery({
    queryKey: ['rules', 'component-dates', projectId, componentId],
    queryFn: () =>
      api.get<ListJson<EffectiveDateJson & { component_state: ComponentJson['state'] }>>(
        `/rules/projects/${projectId}/components/${componentId}/effective-dates/`,
      ),
  });
  const componentKey = ['rules', 'component', componentId, dateId];
  const component = useQuery({
    queryKey: componentKey,
    queryFn: () =>
      api.get<ComponentJson>(
        dateId
          ? `/rules/brl-components/${componentId}/effective-date/${dateId}/`
          : `/rules/brl-components/${componentId}/`,
      ),
  });
  const c = component.data;
  const date = dates.data?.results.find((d) => d.id === c?.effective_date);
  const uncommitted = useQuery({
    queryKey: ['rules', 'uncommitted', projectId, c?.effective_date],
    enabled: c !== undefined,
    queryFn: () =>
      api.get<ListJson<ComponentJson>>(`/rules/projects/${projectId}/uncommittedcomponents/`, {
        query: { effective_date_id: String(c!.effective_date) },
      }),
  });

  // The same access evaluation the server runs on PUT and on the build calls.
  const canUpdate = useCan('rules:component', 'update');
  const canValidate = useCan('rules:build', 'validate');
  const canTest = useCan('rules:build', 'test');
  const rights = useComponentRights();
  const buildRights = useBuildRights();
  const draft = date?.status === 'draft';
  const editable = canUpdate.allowed && draft;
  const [committing, setCommitting] = useState(false);
  const packages = useQuery({
    queryKey: ['rules', 'packages', Number(projectId)],
    queryFn: () =>
      api.get<ListJson<{ id: number; name: string }>>('/rules/package/', { query: { project_id: projectId } }),
  });

  const [text, setText] = useState<string | null>(null);
  const [showChanges, setShowChanges] = useState(false);
  const editing = text !== null && c !== undefined;
  const dirty = editing && text !== c.body;
  // Leaving the date or the component closes the editor.
  useEffect(() => setText(null), [componentId, dateId]);

  const suggestions = useQuery({
    queryKey: ['rules', 'suggestions', projectId, c?.effective_date],
    // The editor completes and checks against it; the template-argument form reads the templates.
    enabled: c !== undefined && BRL_TYPES.includes(c.component_type),
    queryFn: async () =>
      (
        await api.post<{ suggestions: BrlSuggestions }>('/rules/ontology/get-suggestions/', {
          project_id: Number(projectId),
          effective_date_id: c!.effective_date,
        })
      ).suggestions,
  });
  const committed = useQuery({
    queryKey: ['rules', 'committed', componentId, c?.effective_date, c?.date_modified],
    enabled: showChanges && c !== undefined,
    queryFn: () =>
      api.get<{ body: string | null }>(
        `/rules/brl-components/${componentId}/effective-date/${c!.effective_date}/committed/`,
      ),
  });
  const diagnostics = useDiagnostics(editing ? text : null, c?.component_type, suggestions.data ?? null, c?.name);

  const save = useMutation({
    mutationFn: (body: string) =>
      api.put<ComponentJson>(`/rules/brl-components/${componentId}/effective-date/${c!.effective_date}/`, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(componentKey, saved);
      void queryClient.invalidateQueries({ queryKey: ['rules', 'uncommitted', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['rules', 'components'] });
      services.showToast({ message: `Saved ${saved.label || saved.name}.`, kind: 'success' });
    },
  });
  const validate = useBuildJob('validate', projectId, c?.effective_date ?? null);
  const test = useBuildJob('test', projectId, c?.effective_date ?? null);

  const format = () => {
    if (text === null || !c || !BRL_TYPES.includes(c.component_type)) return;
    const formatted = formatBrl(text);
    if (formatted === null) services.showToast({ message: 'Fix the syntax error first, then format.', kind: 'error' });
    else setText(formatted);
  };
  // Actions from the buttons, the palette and the shortcuts.
  const actions: Record<EditorAction, () => void> = {
    save: () => {
      if (text !== null && dirty && !save.isPending) save.mutate(text);
    },
    format,
    validate: () => {
      if (canValidate.allowed && validate.phase !== 'running') validate.run();
    },
    test: () => {
      if (canTest.allowed && test.phase !== 'running') test.run();
    },
    changes: () => setShowChanges(true),
  };
  const actionsRef = useRef(actions);
  actionsRef.current = actions;
  useEffect(() => (editing ? onEditorAction((a) => actionsRef.current[a]()) : undefined), [editing]);
  usePluginContextKey('rules', 'editorOpen', editing);

  return (
    <Stack>
      <Anchor component={Link} to={rulesProjectsRoute.link({})}>
        All rules projects
      </Anchor>
      {component.isPending && <Loader role="status" aria-label="Loading the component" />}
      {component.isError && <Alert color="red">The component could not be loaded: {component.error.message}</Alert>}
      {c && (
        <>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Title order={1}>{c.label || c.name}</Title>
            <ComponentActions
              component={c}
              packages={packages.data?.results ?? []}
              draft={draft}
              rights={rights}
              onCloned={(copy) =>
                void navigate(
                  `${rulesComponentRoute.link({ projectId, componentId: copy.id })}?effective_date=${copy.effective_date}`,
                )
              }
              onDeleted={() => void navigate(rulesProjectsRoute.link({}))}
            />
          </Group>
          <Text component="code" ff="monospace" c="dimmed">
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
            {uncommitted.data && (
              <Badge variant="light" color={uncommitted.data.count > 0 ? 'yellow' : 'gray'} aria-live="polite">
                {uncommitted.data.count === 1
                  ? '1 uncommitted component'
                  : `${uncommitted.data.count} uncommitted components`}
              </Badge>
            )}
          </Group>
          {dates.data && (
            <Select
              label="Effective date"
              w={280}
              allowDeselect={false}
              disabled={dirty}
              // The chosen date shows at once; the component at that date loads behind it.
              value={dateId ?? String(c.effective_date)}
              data={dates.data.results.map((d) => ({
                value: String(d.id),
                label: `${formatDay(d.effective_date)} · ${STATUS_LABELS[d.status]}`,
              }))}
              onChange={(value) => value && setSearch({ effective_date: value })}
            />
          )}
          {(editable || (buildRights.commit && draft)) && !editing && (
            <Group>
              {editable && (
                <Button size="xs" onClick={() => setText(c.body ?? '')}>
                  Edit
                </Button>
              )}
              {buildRights.commit && draft && (
                <Button size="xs" variant="default" onClick={() => setCommitting(true)}>
                  Commit and deploy…
                </Button>
              )}
            </Group>
          )}
          {c.component_type === 'rule' && suggestions.data && (
            <TemplateArgumentsForm
              text={editing ? text : (c.body ?? '')}
              templates={suggestions.data.templates}
              ontology={suggestions.data.ontology}
              readOnly={!editable}
              saving={save.isPending}
              onApply={(next) => {
                if (editing) setText(next);
                save.mutate(next);
              }}
            />
          )}
          {committing && (
            <CommitDeployDialog
              projectId={projectId}
              effectiveDateId={c.effective_date}
              canDeploy={buildRights.deploy}
              onClose={() => setCommitting(false)}
            />
          )}
          {!editing && (
            <>
              <Code block aria-label="Component text">
                {c.body}
              </Code>
            </>
          )}
          {editing && (
            <Stack gap="xs">
              <Group gap="xs" aria-label="Editor actions" role="toolbar">
                <ShortcutButton
                  action="save"
                  label="Save"
                  variant="filled"
                  onClick={actions.save}
                  loading={save.isPending}
                  disabled={!dirty}
                />
                {BRL_TYPES.includes(c.component_type) && (
                  <ShortcutButton action="format" label="Format" onClick={actions.format} />
                )}
                {canValidate.allowed && (
                  <ShortcutButton
                    action="validate"
                    label="Validate"
                    onClick={actions.validate}
                    loading={validate.phase === 'running'}
                  />
                )}
                {canTest.allowed && (
                  <ShortcutButton
                    action="test"
                    label="Run tests"
                    onClick={actions.test}
                    loading={test.phase === 'running'}
                  />
                )}
                <ShortcutButton action="changes" label="Show changes" onClick={actions.changes} />
                {buildRights.commit && draft && (
                  <Button size="xs" variant="default" disabled={dirty} onClick={() => setCommitting(true)}>
                    Commit and deploy…
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => {
                    if (!dirty || window.confirm('Discard the changes you have not saved?')) setText(null);
                  }}
                >
                  Close editor
                </Button>
                <Text size="sm" c="dimmed" aria-live="polite">
                  {dirty ? 'Unsaved changes' : 'Saved'}
                </Text>
              </Group>
              {save.isError && <Alert color="red">The component could not be saved: {serverMessage(save.error)}</Alert>}
              {suggestions.isError && (
                <Alert color="yellow">
                  Completion is not available: the product&apos;s ontology could not be loaded (
                  {suggestions.error.message}).
                </Alert>
              )}
              <Suspense fallback={<Loader role="status" aria-label="Loading the editor" />}>
                <BrlEditor
                  modelId={`${c.id}-${c.effective_date}`}
                  language={BRL_TYPES.includes(c.component_type) ? 'brl' : 'json'}
                  value={text}
                  onChange={setText}
                  readOnly={!editable}
                  suggestions={suggestions.data ?? null}
                  diagnostics={diagnostics}
                />
              </Suspense>
              <Stack gap={4} aria-label="Problems">
                <Text size="sm" fw={500}>
                  {diagnostics.length === 0
                    ? 'No problems'
                    : diagnostics.length === 1
                      ? '1 problem'
                      : `${diagnostics.length} problems`}
                </Text>
                {diagnostics.length > 0 && (
                  <List size="sm" spacing={2}>
                    {diagnostics.map((d, i) => (
                      <List.Item key={i}>
                        <Text span size="sm" c={d.severity === 'error' ? 'red' : 'yellow.8'}>
                          Line {d.startLine}, column {d.startColumn}:
                        </Text>{' '}
                        {d.message}
                      </List.Item>
                    ))}
                  </List>
                )}
              </Stack>
              <JobPanel title="Validation" job={validate} render={(job) => <ValidateResult job={job} />} />
              <JobPanel title="Rule tests" job={test} render={(job) => <TestResult job={job} />} />
              <Modal opened={showChanges} onClose={() => setShowChanges(false)} title="Uncommitted changes" size="90%">
                {committed.isPending && <Loader role="status" aria-label="Loading the committed text" />}
                {committed.isError && (
                  <Alert color="red">The committed text could not be loaded: {committed.error.message}</Alert>
                )}
                {committed.data && (
                  <Stack gap="xs">
                    <Text size="sm" c="dimmed">
                      {committed.data.body === null
                        ? 'Never committed: the whole text is new. Right: the text in the editor.'
                        : `Left: as last committed. Right: the text in the editor${dirty ? ' (not saved yet)' : ''}.`}
                    </Text>
                    <Suspense fallback={<Loader role="status" aria-label="Loading the changes" />}>
                      <BrlDiffEditor
                        language={BRL_TYPES.includes(c.component_type) ? 'brl' : 'json'}
                        original={committed.data.body ?? ''}
                        modified={text}
                      />
                    </Suspense>
                  </Stack>
                )}
              </Modal>
            </Stack>
          )}
          <SyncLinesPanel projectId={projectId} effectiveDateId={c.effective_date} />
          <Text size="sm" c="dimmed">
            Changed {new Date(c.date_modified).toLocaleString('en-US')} by {c.modified_by}
          </Text>
        </>
      )}
    </Stack>
  );
}

function JobPanel(props: {
  title: string;
  job: ReturnType<typeof useBuildJob>;
  render: (job: JobJson) => React.ReactNode;
}) {
  const { phase, job, progress, error } = props.job;
  if (phase === 'ready') return null;
  return (
    <Stack gap={4} aria-label={props.title}>
      <Text size="sm" fw={500}>
        {props.title}
      </Text>
      {phase === 'running' && <Progress value={progress} aria-label={`${props.title} progress`} />}
      {(phase === 'serviceError' || phase === 'timeoutError') && (
        <Alert color="red">
          <Group justify="space-between">
            <Text size="sm">{error ?? 'The job took too long to answer.'}</Text>
            <Button size="xs" onClick={props.job.tryAgain}>
              Try again
            </Button>
          </Group>
        </Alert>
      )}
      {phase === 'finished' && job && props.render(job)}
    </Stack>
  );
}

const problemsOf = (job: JobJson): BuildProblemJson[] =>
  (job.result && !Array.isArray(job.result) ? job.result.problems : undefined) ?? job.problems ?? [];

function ValidateResult({ job }: { job: JobJson }) {
  const problems = problemsOf(job);
  if (problems.length === 0) return <Alert color="green">The effective date validates: no problems.</Alert>;
  return (
    <Alert color="red" title={problems.length === 1 ? '1 problem' : `${problems.length} problems`}>
      <List size="sm">
        {problems.map((p, i) => (
          <List.Item key={i}>
            {p.component && <Code>{p.component}</Code>} {p.line ? `line ${p.line}, column ${p.column}: ` : ''}
            {p.message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function TestResult({ job }: { job: JobJson }) {
  const tests = Array.isArray(job.result) ? (job.result as RuleTestJson[]) : [];
  const problems = problemsOf(job);
  const passed = tests.filter((t) => t.testPassed).length;
  return (
    <Stack gap={4}>
      <Text size="sm" c={passed === tests.length && problems.length === 0 ? 'green' : 'red'}>
        {passed} of {tests.length} tests passed
      </Text>
      {problems.length > 0 && <ValidateResult job={job} />}
      {tests.length > 0 && (
        <Table aria-label="Test results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Test</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Differences</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tests.map((t) => (
              <Table.Tr key={t.component}>
                <Table.Td ff="monospace">{t.component}</Table.Td>
                <Table.Td>{t.testPassed ? 'Passed' : 'Failed'}</Table.Td>
                <Table.Td>{[...t.differences.map((d) => d.message), ...t.errors].join('; ') || '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
