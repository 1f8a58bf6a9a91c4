import { Alert, Anchor, Button, Group, Paper, Progress, Select, Stack, Text, TextInput } from '@mantine/core';
import IconDownload from '@tabler/icons-react/icons/IconDownload';
import { useQuery } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  EmptyState,
  PageHeader,
  QueryState,
  Stat,
  StatGrid,
  createJobRunnerMachine,
  errorMessage,
  jobRunnerPhase,
  useApiClient,
  type JobStatusReport,
} from '@atrium/sdk';
import {
  CLAIM_STATUSES,
  CLAIM_STATUS_LABELS,
  REPORTS,
  REPORT_FILTERS,
  type ReportDefinition,
  type ReportRunJson,
} from '../../shared/report-definitions.js';
import { ReportChart } from '../components/report-chart.js';
import { ReportTable, formatCell } from '../components/report-table.js';
import { downloadRun, getAvailable, getOptions, getRun, reportKeys, startRun } from '../reports-api.js';
import { reportsRoute } from '../routes.js';

type FilterName = ReportDefinition['filters'][number];
const FILTER_LABELS: Record<FilterName, string> = {
  lossFrom: 'Loss from',
  lossTo: 'Loss to',
  status: 'Claim status',
  policyNumber: 'Policy',
  from: 'From',
  to: 'To',
  product: 'Product',
};
const PRODUCTS = [
  { value: 'homeowners', label: 'Homeowners' },
  { value: 'personal_auto', label: 'Personal Auto' },
];

const today = () => new Date().toISOString().slice(0, 10);
const yearStart = () => `${new Date().getUTCFullYear()}-01-01`;
function initialValues(report: ReportDefinition): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of report.filters) values[name] = name === 'from' ? yearStart() : name === 'to' ? today() : '';
  return values;
}

/** A report: filters, Run (a job with a progress bar), then its figures, chart, table and downloads. */
export default function ReportPage() {
  const { reportId } = useParams();
  const report = REPORTS.find((r) => r.id === reportId);
  if (!report) {
    return (
      <EmptyState
        title="There is no such report."
        action={
          <Anchor component={Link} to={reportsRoute.link({})}>
            All reports
          </Anchor>
        }
      />
    );
  }
  return <AvailableReport report={report} />;
}

/** A report the role may not run says so instead of offering a Run button the server refuses. */
function AvailableReport({ report }: { report: ReportDefinition }) {
  const api = useApiClient();
  const available = useQuery({ queryKey: reportKeys.available, queryFn: ({ signal }) => getAvailable(api, signal) });
  return (
    <QueryState query={available}>
      {(data) =>
        data.reports.includes(report.id) ? (
          <ReportRunner key={report.id} report={report} />
        ) : (
          <EmptyState
            title={`Your role may not run ${report.title}.`}
            description="It covers records your role may not read."
            action={
              <Anchor component={Link} to={reportsRoute.link({})}>
                All reports
              </Anchor>
            }
          />
        )
      }
    </QueryState>
  );
}

function ReportRunner({ report }: { report: ReportDefinition }) {
  const api = useApiClient();
  const [values, setValues] = useState<Record<string, string>>(() => initialValues(report));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [downloading, setDownloading] = useState<'csv' | 'xlsx' | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const filtersRef = useRef<Record<string, unknown>>({});
  const needsPolicies = report.filters.includes('policyNumber');
  const options = useQuery({
    queryKey: reportKeys.options,
    queryFn: ({ signal }) => getOptions(api, signal),
    enabled: needsPolicies,
  });

  const machine = useMemo(() => createJobRunnerMachine(), []);
  const [state, send] = useMachine(machine, {
    input: {
      start: () => startRun(api, report.id, filtersRef.current) as unknown as Promise<JobStatusReport>,
      check: (job) => getRun(api, Number(job.id)) as unknown as Promise<JobStatusReport>,
    },
  });
  const phase = jobRunnerPhase(state.value);
  const run = state.context.report as unknown as ReportRunJson | null;
  const running = phase === 'running';

  function submit(event: FormEvent) {
    event.preventDefault();
    const filters = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
    const parsed = REPORT_FILTERS[report.id].safeParse(filters);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? report.filters[0]);
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    filtersRef.current = parsed.data as Record<string, unknown>;
    send({ type: 'RUN' });
  }

  async function download(format: 'csv' | 'xlsx') {
    if (!run) return;
    setDownloading(format);
    setDownloadError(null);
    try {
      await downloadRun(api, run, format);
    } catch (error) {
      setDownloadError(errorMessage(error, 'The file could not be downloaded.'));
    } finally {
      setDownloading(null);
    }
  }

  const field = (name: FilterName) => {
    const common = {
      key: name,
      label: FILTER_LABELS[name],
      error: errors[name],
      disabled: running,
    };
    if (name === 'status') {
      return (
        <Select
          {...common}
          placeholder="Any status"
          clearable
          data={CLAIM_STATUSES.map((s) => ({ value: s, label: CLAIM_STATUS_LABELS[s]! }))}
          value={values[name] || null}
          onChange={(value) => setValues((v) => ({ ...v, [name]: value ?? '' }))}
          w={200}
        />
      );
    }
    if (name === 'product') {
      return (
        <Select
          {...common}
          placeholder="Every product"
          clearable
          data={PRODUCTS}
          value={values[name] || null}
          onChange={(value) => setValues((v) => ({ ...v, [name]: value ?? '' }))}
          w={200}
        />
      );
    }
    if (name === 'policyNumber') {
      return (
        <Select
          {...common}
          placeholder={options.isLoading ? 'Loading policies…' : 'Choose a policy'}
          searchable
          nothingFoundMessage="No policy of yours matches."
          data={(options.data?.policies ?? []).map((p) => ({ value: p.number, label: p.label }))}
          value={values[name] || null}
          onChange={(value) => setValues((v) => ({ ...v, [name]: value ?? '' }))}
          w={420}
          withAsterisk
        />
      );
    }
    return (
      <TextInput
        {...common}
        type="date"
        value={values[name] ?? ''}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setValues((v) => ({ ...v, [name]: value }));
        }}
        w={170}
        withAsterisk={name === 'from' || name === 'to'}
      />
    );
  };

  const result = phase === 'finished' && run?.status === 'SUCCESS' ? run.result : null;
  return (
    <Stack>
      <PageHeader
        title={report.title}
        description={report.description}
        actions={
          <Anchor component={Link} to={reportsRoute.link({})} size="sm">
            All reports
          </Anchor>
        }
      />
      <Paper withBorder p="sm" radius="sm" component="form" onSubmit={submit} aria-label="Report filters" noValidate>
        <Group align="flex-end" gap="sm">
          {report.filters.map(field)}
          <Button type="submit" loading={running}>
            Run report
          </Button>
        </Group>
        {options.isError ? (
          <Text size="sm" c="red" mt="xs">
            {errorMessage(options.error, 'Your policies could not be loaded.')}
          </Text>
        ) : null}
      </Paper>

      {running ? (
        <Stack gap={4}>
          <Text size="sm">Running the report… {Math.round(state.context.progress)}%</Text>
          <Progress value={state.context.progress} aria-label="Report progress" animated />
          <Group>
            <Button variant="subtle" size="xs" onClick={() => send({ type: 'CANCEL' })}>
              Stop waiting
            </Button>
          </Group>
        </Stack>
      ) : null}
      {phase === 'serviceError' || phase === 'timeoutError' ? (
        <Alert color="red" title="The report could not be run">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {phase === 'timeoutError' ? 'The report took too long.' : (state.context.error ?? 'Service error')}
            </Text>
            <Button size="xs" variant="light" onClick={() => send({ type: 'TRY_AGAIN' })}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {phase === 'finished' && run?.status === 'FAILED' ? (
        <Alert color="red" title="The report could not be run">
          {run.error}
        </Alert>
      ) : null}

      {result ? (
        <Stack>
          <Group justify="space-between" align="center">
            <Text fw={600}>{result.title}</Text>
            <Group gap="xs">
              <Button
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={downloading === 'csv'}
                onClick={() => void download('csv')}
              >
                Download CSV
              </Button>
              <Button
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={downloading === 'xlsx'}
                onClick={() => void download('xlsx')}
              >
                Download XLSX
              </Button>
            </Group>
          </Group>
          {downloadError ? (
            <Alert color="red" title="Download failed">
              {downloadError}
            </Alert>
          ) : null}
          <StatGrid label="Key figures">
            {result.summary.map((figure) => (
              <Stat
                key={figure.label}
                label={figure.label}
                value={formatCell(figure.kind === 'integer' ? Number(figure.value) : figure.value, figure.kind)}
              />
            ))}
          </StatGrid>
          {result.rows.length === 0 ? (
            <EmptyState title="Nothing to report." description="No records you may see match these filters." />
          ) : (
            <>
              {result.chart ? <ReportChart chart={result.chart} /> : null}
              <ReportTable result={result} />
            </>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
