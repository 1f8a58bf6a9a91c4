import { Alert, Button, Group, List, Progress, Stack, Text } from '@mantine/core';
import { useApiClient, useCan, type JobStatusReport } from '@atrium/sdk';
import { useRulesJob } from './use-build-job.js';

interface SyncJson {
  linesVersion: string;
  effectiveDate: string;
  count: number;
  results: { component: string; message: string }[];
}

/** Whether the role may start (and cancel) a sync: `rules:build` `validate`, as the route checks. */
export function useSyncRight() {
  return useCan('rules:build', 'validate').allowed;
}

/**
 * Sync with lines, as a job (`POST rules/projects/{id}/sync/`, followed by the job runner): which
 * rules of this effective date no longer match the lines product version in force (a renamed or
 * removed field, item or risk type, or a changed type), so the author sees the whole list before a
 * commit is refused for it. Shown only to roles that may start it.
 */
export function SyncLinesPanel({ projectId, effectiveDateId }: { projectId: string; effectiveDateId: number }) {
  const api = useApiClient();
  const allowed = useSyncRight();
  const job = useRulesJob(() =>
    api.post<JobStatusReport>(`/rules/projects/${projectId}/sync/`, { effective_date_id: effectiveDateId }),
  );
  if (!allowed) return null;
  const finished = job.phase === 'finished' ? job.job : null;
  const result = (finished?.result ?? null) as (Partial<SyncJson> & { message?: string }) | null;
  const report = result && typeof result.count === 'number' ? (result as SyncJson) : null;
  return (
    <Stack gap={4} aria-label="Sync with lines">
      <Button
        size="xs"
        variant="light"
        w="fit-content"
        loading={job.phase === 'running'}
        onClick={() => (job.phase === 'serviceError' || job.phase === 'timeoutError' ? job.tryAgain() : job.run())}
      >
        Sync with lines
      </Button>
      {job.phase === 'running' && (
        <Group gap="xs" wrap="nowrap">
          <Progress value={job.progress} aria-label="Sync progress" animated w={200} />
          <Button variant="default" size="compact-xs" loading={job.cancelling} onClick={() => void job.cancel()}>
            Cancel sync
          </Button>
        </Group>
      )}
      {job.phase === 'cancelled' && <Text size="sm">The sync was cancelled.</Text>}
      {job.cancelError && <Alert color="red">The sync could not be cancelled: {job.cancelError}</Alert>}
      {(job.phase === 'serviceError' || job.phase === 'timeoutError') && (
        <Alert color="red">{job.error ?? 'The sync took too long to answer.'}</Alert>
      )}
      {finished && !report && <Alert color="red">{result?.message ?? 'The sync failed.'}</Alert>}
      {report && report.count === 0 && <Text size="sm">Every rule matches lines version {report.linesVersion}.</Text>}
      {report && report.count > 0 && (
        <>
          <Text size="sm" fw={600}>
            {report.count} problem{report.count === 1 ? '' : 's'} against lines version {report.linesVersion}:
          </Text>
          <List size="sm">
            {report.results.map((r, i) => (
              <List.Item key={i}>
                {r.component}: {r.message}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Stack>
  );
}
