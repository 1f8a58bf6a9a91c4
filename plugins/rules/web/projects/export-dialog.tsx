import { Alert, Button, Checkbox, Group, Modal, Progress, Select, Stack, Text } from '@mantine/core';
import { useApiClient, useCan, type JobStatusReport } from '@atrium/sdk';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { JobJson } from '../../shared/api-types.js';
import { useRulesJob } from '../editor/use-build-job.js';
import { serverMessage } from '../format.js';

interface ExportResultJson {
  file?: { name: string; size: number };
  counts?: { effective_dates: number; packages: number; components: number; versions: number };
  message?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whether the role may export (and so cancel an export): `rules:project` `read`, as the routes check. */
export function useExportRight() {
  return useCan('rules:project', 'read').allowed;
}

/**
 * Exports a project — or one package, optionally with the packages it depends on — as a job
 * (`GET rules/projects/{id}/async-export/`), followed by the job runner with its progress and a
 * Cancel, then offers the file (`GET rules/job/{id}/file/`, fetched with the user's token).
 */
export function ExportDialog(props: {
  projectId: number;
  projectLabel: string;
  packages: { id: number; name: string }[];
  onClose: () => void;
}) {
  const api = useApiClient();
  const mayCancel = useExportRight();
  const [packageId, setPackageId] = useState<string | null>(null);
  const [withDependencies, setWithDependencies] = useState(false);
  const job = useRulesJob(() =>
    api.get<JobStatusReport>(`/rules/projects/${props.projectId}/async-export/`, {
      query: packageId ? { package_id: packageId, 'include-dependencies': withDependencies ? 'true' : 'false' } : {},
    }),
  );
  const finished = job.phase === 'finished' ? (job.job as JobJson | null) : null;
  const result = (finished?.result ?? {}) as ExportResultJson;
  const download = useMutation({
    mutationFn: async () => {
      const { blob, fileName } = await api.getBlob(`/rules/job/${String(finished!.id)}/file/`);
      const url = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = fileName ?? result.file?.name ?? 'rules-export.json';
      document.body.appendChild(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
  });
  const title = `Export ${props.projectLabel}`;
  return (
    <Modal opened onClose={props.onClose} title={title}>
      <Stack>
        {(job.phase === 'ready' || job.phase === 'cancelled') && (
          <form
            aria-label={title}
            onSubmit={(e) => {
              e.preventDefault();
              job.run();
            }}
          >
            <Stack gap="sm">
              {job.phase === 'cancelled' && <Alert color="yellow">The export was cancelled.</Alert>}
              <Text size="sm">
                The export is a JSON file with the project&apos;s effective dates, packages, tags and every
                component&apos;s text on each date. Importing it makes a new project whose dates are drafts.
              </Text>
              <Select
                label="What to export"
                data={[
                  { value: '', label: 'The whole project' },
                  ...props.packages.map((p) => ({ value: String(p.id), label: `Package ${p.name}` })),
                ]}
                value={packageId ?? ''}
                onChange={(value) => setPackageId(value ? value : null)}
                allowDeselect={false}
              />
              {packageId && (
                <Checkbox
                  label="Include the packages it depends on"
                  checked={withDependencies}
                  onChange={(e) => setWithDependencies(e.currentTarget.checked)}
                />
              )}
              <Group justify="flex-end">
                <Button type="submit">Export</Button>
              </Group>
            </Stack>
          </form>
        )}
        {job.phase === 'running' && (
          <Stack gap={4}>
            <Text size="sm">Export in progress…</Text>
            <Progress value={job.progress} aria-label="Export progress" animated />
            {mayCancel && (
              <Group justify="flex-end">
                <Button variant="default" size="xs" loading={job.cancelling} onClick={() => void job.cancel()}>
                  Cancel export
                </Button>
              </Group>
            )}
          </Stack>
        )}
        {job.cancelError && <Alert color="red">The export could not be cancelled: {job.cancelError}</Alert>}
        {(job.phase === 'serviceError' || job.phase === 'timeoutError') && (
          <Alert color="red">
            <Group justify="space-between">
              <Text size="sm">{job.error ?? 'The export took too long to answer.'}</Text>
              <Button size="xs" onClick={job.tryAgain}>
                Try again
              </Button>
            </Group>
          </Alert>
        )}
        {finished &&
          (finished.resultStatus === 'SUCCESS' && result.file ? (
            <Stack gap="sm">
              <Alert color="green">
                Exported {plural(result.counts?.components ?? 0, 'component', 'components')} in{' '}
                {plural(result.counts?.packages ?? 0, 'package', 'packages')} on{' '}
                {plural(result.counts?.effective_dates ?? 0, 'effective date', 'effective dates')}.
              </Alert>
              {download.isError && (
                <Alert color="red">The file could not be downloaded: {serverMessage(download.error)}</Alert>
              )}
              <Group justify="flex-end">
                <Button loading={download.isPending} onClick={() => download.mutate()}>
                  Download {result.file.name}
                </Button>
              </Group>
            </Stack>
          ) : (
            <Alert color="red">{result.message ?? 'The export failed.'}</Alert>
          ))}
      </Stack>
    </Modal>
  );
}
