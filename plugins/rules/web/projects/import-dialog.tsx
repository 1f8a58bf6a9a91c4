import { Alert, Button, FileInput, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useApiClient, useCan, type JobStatusReport } from '@atrium/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { JobJson } from '../../shared/api-types.js';
import { useRulesJob } from '../editor/use-build-job.js';

interface UploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
  maxBytes: number;
}

interface ImportResultJson {
  projectId?: number;
  counts?: { effective_dates: number; packages: number; components: number; versions: number };
  message?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whether the role may import (and so cancel an import): `rules:project` `create`, as the routes check. */
export function useImportRight() {
  return useCan('rules:project', 'create').allowed;
}

/**
 * The browser's half of a direct upload (docs/storage.md): the ticket's fields first, the file last,
 * and no Authorization header — the ticket's signature authorises it.
 */
async function upload(ticket: UploadTicket, file: File) {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', file, file.name);
  const response = await fetch(ticket.url, { method: 'POST', body: form });
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let detail: string | undefined;
    try {
      const body = JSON.parse(text) as { detail?: string; errors?: { detail?: string }[] };
      detail = body.detail ?? body.errors?.[0]?.detail;
    } catch {
      detail = undefined;
    }
    throw new Error(`The file could not be uploaded${detail ? `: ${detail}` : '.'}`);
  }
}

/**
 * Imports a file an export produced as a new project: an upload ticket
 * (`GET rules/projects/import-ui-{uuid}/import/presigned_post_url/`), the direct upload, then the
 * import job (`POST rules/projects/async-import/` with the key), followed by the job runner with its
 * progress and a Cancel. Every effective date of the new project is a draft.
 */
export function ImportDialog(props: { onClose: () => void }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const mayCancel = useImportRight();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [label, setLabel] = useState('');
  const job = useRulesJob(async () => {
    if (!file) throw new Error('Choose an export file to import.');
    const ticket = await api.get<UploadTicket>(
      `/rules/projects/import-ui-${crypto.randomUUID()}/import/presigned_post_url/`,
    );
    if (file.size > ticket.maxBytes)
      throw new Error(
        `The file is larger than ${Math.floor(ticket.maxBytes / 1024 / 1024)} MB; it cannot be imported.`,
      );
    await upload(ticket, file);
    return api.post<JobStatusReport>('/rules/projects/async-import/', {
      key: ticket.key,
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(label.trim() ? { label: label.trim() } : {}),
    });
  });
  const finished = job.phase === 'finished' ? (job.job as JobJson | null) : null;
  const result = (finished?.result ?? {}) as ImportResultJson;
  const imported = finished?.resultStatus === 'SUCCESS' && result.projectId !== undefined;
  // The new project joins the list behind the dialog.
  useEffect(() => {
    if (imported) void queryClient.invalidateQueries({ queryKey: ['rules', 'projects'] });
  }, [imported, queryClient]);
  const failed = job.phase === 'serviceError' || job.phase === 'timeoutError';
  // Also after a refusal (a name the server refuses, an upload that failed): change it and import again.
  const formShown = job.phase === 'ready' || job.phase === 'cancelled' || failed || (finished !== null && !imported);
  return (
    <Modal opened onClose={props.onClose} title="Import a rules project">
      <Stack>
        {formShown && (
          <form
            aria-label="Import a rules project"
            onSubmit={(e) => {
              e.preventDefault();
              if (!file) return;
              if (failed) job.tryAgain();
              else job.run();
            }}
          >
            <Stack gap="sm">
              {job.phase === 'cancelled' && <Alert color="yellow">The import was cancelled.</Alert>}
              {finished && !imported && <Alert color="red">{result.message ?? 'The import failed.'}</Alert>}
              {failed && <Alert color="red">{job.error ?? 'The import took too long to answer.'}</Alert>}
              <Text size="sm">
                A file that Export… produced becomes a new project. Its effective dates are drafts: commit and deploy
                them in the new project.
              </Text>
              <FileInput
                label="Export file"
                placeholder="Choose a .json file"
                accept="application/json,.json"
                value={file}
                onChange={setFile}
                required
                clearable
              />
              <TextInput
                label="Name"
                description="Letters, digits and underscores; empty: the name in the file."
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
              />
              <TextInput
                label="Label"
                description="Empty: the label in the file."
                value={label}
                onChange={(e) => setLabel(e.currentTarget.value)}
              />
              <Group justify="flex-end">
                <Button type="submit" disabled={!file}>
                  Import
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {job.phase === 'running' && (
          <Stack gap={4}>
            <Text size="sm">Import in progress…</Text>
            <Progress value={job.progress} aria-label="Import progress" animated />
            {mayCancel && (
              <Group justify="flex-end">
                <Button variant="default" size="xs" loading={job.cancelling} onClick={() => void job.cancel()}>
                  Cancel import
                </Button>
              </Group>
            )}
          </Stack>
        )}
        {job.cancelError && <Alert color="red">The import could not be cancelled: {job.cancelError}</Alert>}
        {imported && (
          <Stack gap="sm">
            <Alert color="green">
              Imported {plural(result.counts?.components ?? 0, 'component', 'components')} in{' '}
              {plural(result.counts?.packages ?? 0, 'package', 'packages')} on{' '}
              {plural(result.counts?.effective_dates ?? 0, 'effective date', 'effective dates')} (drafts) as a new
              project.
            </Alert>
            <Group justify="flex-end">
              <Button onClick={props.onClose}>Close</Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
