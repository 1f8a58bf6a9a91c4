import {
  Alert,
  Anchor,
  Button,
  Card,
  FileInput,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { createJobRunnerMachine, jobRunnerPhase, useApiClient, useCan } from '@atrium/sdk';
import {
  downloadTemplate,
  fetchImportRun,
  previewImport,
  resumeImport,
  startImport,
  toJobReport,
  useImportRunClaims,
  useImportRuns,
  type ImportPreview,
  type ImportProblem,
  type ImportRun,
} from '../api/import-api.js';
import { errorMessageOf } from '../api/jsonapi.js';
import { claimsLossDetailRoute } from '../routes.js';
import { formatDateTime, StatusBadge } from '@atrium/sdk';
import { importOutcomeLabels, importRunStatusLabels } from '../claims-labels.js';

/**
 * claims:admin-setup:import-historical-claims — load a carrier's claims from its old system
 * (docs/claims-import.md): download the template, choose a file, see the dry run (counts, totals and
 * every problem by row and column), confirm, follow the run (the SDK's job runner machine polls it),
 * then open the imported claims. Earlier runs are listed below; one whose process stopped shows as
 * interrupted, with Resume for those who may import.
 */

const statusOf = (run: ImportRun) => (run.interrupted ? 'interrupted' : run.status);

function RunStatusBadge({ run }: { run: ImportRun }) {
  return <StatusBadge labels={importRunStatusLabels} value={statusOf(run)} />;
}

/** Resumes an interrupted run; the runs list polls again once the run makes progress. */
function ResumeButton({ run, size = 'xs' }: { run: ImportRun; size?: 'xs' | 'sm' }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const resume = useMutation({
    mutationFn: () => resumeImport(api, run.id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['claims-module', 'imports'] }),
  });
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size={size}
        onClick={() => resume.mutate()}
        loading={resume.isPending}
        aria-label={`Resume import run ${run.id}`}
      >
        Resume
      </Button>
      {resume.error ? (
        <Text size="xs" c="red" role="alert">
          {errorMessageOf(resume.error)}
        </Text>
      ) : null}
    </Stack>
  );
}

export default function ImportHistoricalClaimsPage() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const canImport = useCan('claims:import', 'create');
  const canRead = useCan('claims:import', 'read');
  const [file, setFile] = useState<File | null>(null);
  const fileRef = useRef<File | null>(null);
  fileRef.current = file;
  const [selectedRun, setSelectedRun] = useState<string | null>(null);
  // The file a run was started for: its preview's button is done; another file may be imported next.
  const [startedFor, setStartedFor] = useState<File | null>(null);

  const preview = useMutation({ mutationFn: (chosen: File) => previewImport(api, chosen) });

  const machine = useMemo(() => createJobRunnerMachine(), []);
  const [state, send] = useMachine(machine, {
    input: {
      start: async () => toJobReport(await startImport(api, fileRef.current!)),
      check: async (job) => toJobReport(await fetchImportRun(api, (job.run as ImportRun).id)),
      pollInterval: 1000,
    },
  });
  const phase = jobRunnerPhase(state.value);
  const current = (state.context.report?.run as ImportRun | undefined) ?? null;

  useEffect(() => {
    // A started or finished run changes the list.
    if (current) void queryClient.invalidateQueries({ queryKey: ['claims-module', 'imports'] });
  }, [current?.id, current?.status, queryClient]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (phase === 'finished' && current) setSelectedRun(current.id);
  }, [phase, current]);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    preview.reset();
    if (chosen) preview.mutate(chosen);
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        Import Historical Claims
      </Title>
      <Text size="sm" c="dimmed" maw={760}>
        Load closed and open claims from the previous system: one row per reserve, payment or recovery, with the claim
        and exposure columns repeated on each row. The file is checked first and nothing is written until you confirm;
        claims imported before are skipped, so the same file can be run again.
      </Text>
      <Group align="flex-end">
        <FileInput
          label="Claims file (CSV or XLSX)"
          placeholder="Choose a file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          clearable
          miw={320}
          value={file}
          onChange={choose}
          disabled={!canImport.allowed || phase === 'running'}
        />
        <Button variant="default" onClick={() => void downloadTemplate(api)}>
          Download template
        </Button>
      </Group>
      {!canImport.allowed && !canImport.pending ? (
        <Alert color="yellow">Importing claims needs the claims:import permission (administrators).</Alert>
      ) : null}
      {preview.isPending ? <Text size="sm">Checking the file…</Text> : null}
      {preview.error ? <Alert color="red">{errorMessageOf(preview.error)}</Alert> : null}
      {preview.data ? (
        <PreviewCard
          preview={preview.data}
          running={phase === 'running'}
          started={startedFor !== null && startedFor === file}
          onConfirm={() => {
            setStartedFor(file);
            send({ type: 'RUN' });
          }}
        />
      ) : null}
      {phase === 'running' ? (
        <Card withBorder aria-label="Import progress">
          <Text size="sm" mb="xs">
            {current?.status === 'running'
              ? `Importing… ${current.claims_processed} of ${current.claims_total} claims`
              : 'Waiting for the import to start…'}
          </Text>
          <Progress value={state.context.progress} />
        </Card>
      ) : null}
      {phase === 'serviceError' || phase === 'timeoutError' ? (
        <Alert color="red" title="The import could not be followed">
          <Stack gap="xs">
            <Text size="sm">{state.context.error ?? 'The import took too long to answer.'}</Text>
            <Group>
              <Button size="xs" onClick={() => send({ type: 'TRY_AGAIN' })}>
                Try again
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {selectedRun ? <RunResult runId={selectedRun} canResume={canImport.allowed} /> : null}
      {canRead.allowed ? (
        <RunsList selected={selectedRun} onSelect={setSelectedRun} canResume={canImport.allowed} />
      ) : null}
    </Stack>
  );
}

function PreviewCard(props: { preview: ImportPreview; running: boolean; started: boolean; onConfirm: () => void }) {
  const p = props.preview;
  const figures: [string, string | number][] = [
    ['Rows', p.rows],
    ['Claims', p.claims],
    ['To import', p.claims_to_import],
    ['Imported before (skipped)', p.claims_skipped],
    ['With problems', p.claims_with_problems],
    ['Exposures', p.exposures],
    ['Entries', p.entries],
    ['Outstanding reserve', p.totals.reserve_outstanding],
    ['Paid', p.totals.paid],
    ['Recovered', p.totals.recovered],
    ['Total incurred', p.totals.total_incurred],
  ];
  return (
    <Card withBorder aria-label="Preview">
      <Stack>
        <Title order={3} size="h4">
          Preview of {p.file_name}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 6 }}>
          {figures.map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={600} data-figure={label}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        {p.problems_count > 0 ? <ProblemsTable problems={p.problems} total={p.problems_count} /> : null}
        {p.problems_count === 0 ? <Text size="sm">No problems found.</Text> : null}
        <Group>
          <Button onClick={props.onConfirm} disabled={!p.can_import || props.started} loading={props.running}>
            {`Import ${p.claims_to_import} ${p.claims_to_import === 1 ? 'claim' : 'claims'}`}
          </Button>
          {p.claims_with_problems > 0 && p.can_import ? (
            <Text size="sm" c="dimmed">
              Claims with problems are left out and reported; fix them and run the file again.
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

function ProblemsTable({ problems, total }: { problems: ImportProblem[]; total: number }) {
  return (
    <Stack gap="xs">
      <Text fw={600} c="red">
        {total === 1 ? '1 problem' : `${total} problems`}
        {total > problems.length ? ` (the first ${problems.length} are listed)` : ''}
      </Text>
      <Table striped withTableBorder aria-label="Problems">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Column</Table.Th>
            <Table.Th>Claim</Table.Th>
            <Table.Th>Message</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {problems.map((problem, i) => (
            <Table.Tr key={i}>
              <Table.Td>{problem.row ?? ''}</Table.Td>
              <Table.Td>{problem.column ?? ''}</Table.Td>
              <Table.Td>{problem.claim_number ?? ''}</Table.Td>
              <Table.Td>{problem.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function RunResult({ runId, canResume }: { runId: string; canResume: boolean }) {
  const runs = useImportRuns();
  const run = runs.data?.find((r) => r.id === runId) ?? null;
  const claims = useImportRunClaims(runId, `${run?.status}-${run?.claims_processed}`);
  if (!run) return null;
  return (
    <Card withBorder aria-label="Import result">
      <Stack>
        <Group>
          <Title order={3} size="h4">
            Import run {run.id}: {run.file_name}
          </Title>
          <RunStatusBadge run={run} />
        </Group>
        {run.interrupted ? (
          <Alert color="orange" title="Interrupted">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                The import stopped after {run.claims_processed} of {run.claims_total} claims and has made no progress
                since. Resuming imports the claims it has not done yet; the ones done stay as they are.
              </Text>
              {canResume ? <ResumeButton run={run} size="sm" /> : null}
            </Stack>
          </Alert>
        ) : null}
        <Text size="sm">
          {run.claims_imported} imported, {run.claims_skipped} skipped, {run.claims_failed} failed ·{' '}
          {run.exposures_imported} exposures, {run.entries_imported} entries
        </Text>
        {run.error ? <Alert color="red">{run.error}</Alert> : null}
        <Table striped withTableBorder aria-label="Imported claims">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Claim</Table.Th>
              <Table.Th>Row</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>Exposures</Table.Th>
              <Table.Th>Entries</Table.Th>
              <Table.Th>Detail</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(claims.data ?? []).map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  {c.outcome === 'failed' ? (
                    c.claim_number
                  ) : (
                    <Anchor component={Link} to={claimsLossDetailRoute.link({ claimNumber: c.claim_number })}>
                      {c.claim_number}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>{c.first_row}</Table.Td>
                <Table.Td>
                  <StatusBadge labels={importOutcomeLabels} value={c.outcome} />
                </Table.Td>
                <Table.Td>{c.exposures}</Table.Td>
                <Table.Td>{c.entries}</Table.Td>
                <Table.Td>{c.detail ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

function RunsList(props: { selected: string | null; onSelect: (id: string) => void; canResume: boolean }) {
  const { selected, onSelect, canResume } = props;
  const runs = useImportRuns();
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Import runs
      </Title>
      {runs.error ? <Alert color="red">{errorMessageOf(runs.error)}</Alert> : null}
      {runs.data && runs.data.length === 0 ? <Text c="dimmed">No import has been run yet.</Text> : null}
      {runs.data && runs.data.length > 0 ? (
        <Table striped withTableBorder aria-label="Import runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Run</Table.Th>
              <Table.Th>File</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Progress</Table.Th>
              <Table.Th>Imported</Table.Th>
              <Table.Th>Skipped</Table.Th>
              <Table.Th>Failed</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.data.map((run) => (
              <Table.Tr key={run.id} aria-selected={run.id === selected}>
                <Table.Td>{run.id}</Table.Td>
                <Table.Td>{run.file_name}</Table.Td>
                <Table.Td>{run.created_by}</Table.Td>
                <Table.Td>{formatDateTime(run.created_at)}</Table.Td>
                <Table.Td>
                  <RunStatusBadge run={run} />
                </Table.Td>
                <Table.Td>{`${Number(run.progress).toFixed(0)}%`}</Table.Td>
                <Table.Td>{run.claims_imported}</Table.Td>
                <Table.Td>{run.claims_skipped}</Table.Td>
                <Table.Td>{run.claims_failed}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Button size="xs" variant="subtle" onClick={() => onSelect(run.id)}>
                      Show
                    </Button>
                    {run.interrupted && canResume ? <ResumeButton run={run} /> : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
