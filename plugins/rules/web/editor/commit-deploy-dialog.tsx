import { Alert, Badge, Box, Button, Code, Group, List, Modal, Progress, Stack, Text, Textarea } from '@mantine/core';
import { useApiClient, useCan, type JobStatusReport } from '@atrium/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { BuildProblemJson, JobJson } from '../../shared/api-types.js';
import { useRulesJob } from './use-build-job.js';

interface ComponentDiffJson {
  fullName: string;
  change: 'added' | 'changed' | 'removed';
  lines: string[];
}
interface CommitResultJson {
  commitId?: number;
  diff?: ComponentDiffJson[];
  problems?: BuildProblemJson[];
  message?: string;
}

const CHANGE_LABELS: Record<ComponentDiffJson['change'], string> = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
};
const CHANGE_COLORS = { added: 'green', changed: 'blue', removed: 'red' } as const;

/** A diff's lines without the empty last one a text ending in a newline leaves. */
const shownLines = (lines: string[]) =>
  lines.length > 1 && (lines.at(-1) === '+' || lines.at(-1) === '-') ? lines.slice(0, -1) : lines;

const resultOf = (job: JobJson | null) => (job?.result ?? {}) as CommitResultJson;

/** Whether the role may commit and deploy (the access evaluation the build routes use). */
export function useBuildRights() {
  const commit = useCan('rules:build', 'commit');
  const deploy = useCan('rules:build', 'deploy');
  return { commit: commit.allowed, deploy: deploy.allowed };
}

/**
 * Commit (a content-hashed snapshot, refused unless the date validates) with the per-component diff
 * it recorded, then deploy that commit (its compiled bundle frozen): both jobs with their progress.
 */
export function CommitDeployDialog(props: {
  projectId: string;
  effectiveDateId: number;
  canDeploy: boolean;
  onClose: () => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const commit = useRulesJob(() =>
    api.post<JobStatusReport>(`/rules/projects/${props.projectId}/build/async-commit/${props.effectiveDateId}/`, {
      message: message.trim(),
    }),
  );
  const committed = commit.phase === 'finished' ? resultOf(commit.job) : null;
  const commitOk = committed !== null && commit.job?.resultStatus === 'SUCCESS';
  const deploy = useRulesJob(() =>
    api.post<JobStatusReport>(
      `/rules/projects/${props.projectId}/build/async-deploy/${props.effectiveDateId}/${committed?.commitId ?? 0}/`,
      {},
    ),
  );
  const deployed = deploy.phase === 'finished' ? deploy.job : null;
  useEffect(() => {
    if (commit.phase === 'finished') void queryClient.invalidateQueries({ queryKey: ['rules'] });
  }, [commit.phase, queryClient]);
  return (
    <Modal opened onClose={props.onClose} title="Commit and deploy" size="xl">
      <Stack>
        {commit.phase === 'ready' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              commit.run();
            }}
          >
            <Stack gap="sm">
              <Text size="sm">
                Commit stores every component of this effective date as it is now, once the date validates.
              </Text>
              <Textarea
                label="Commit message"
                autosize
                minRows={2}
                maxLength={2000}
                value={message}
                onChange={(e) => setMessage(e.currentTarget.value)}
              />
              <Group justify="flex-end">
                <Button type="submit">Commit</Button>
              </Group>
            </Stack>
          </form>
        )}
        <JobProgress title="Commit" job={commit} />
        {committed && !commitOk && (
          <Alert color="red" title={committed.message ?? 'The commit failed.'}>
            {committed.problems && committed.problems.length > 0 && (
              <List size="sm">
                {committed.problems.map((p, i) => (
                  <List.Item key={i}>
                    <Code>{p.component}</Code> {p.message}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {commitOk && (
          <Stack gap="xs" aria-label="Committed changes">
            <Alert color="green">
              {committed.diff && committed.diff.length > 0
                ? `Committed (commit ${committed.commitId}): ${committed.diff.length === 1 ? '1 component changed' : `${committed.diff.length} components changed`}.`
                : (committed.message ?? 'Nothing changed since the last commit.')}
            </Alert>
            {committed.diff?.map((d) => (
              <Box key={d.fullName}>
                <Group gap="xs" mb={4}>
                  <Badge variant="light" color={CHANGE_COLORS[d.change]}>
                    {CHANGE_LABELS[d.change]}
                  </Badge>
                  <Code>{d.fullName}</Code>
                </Group>
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {shownLines(d.lines).map((line, i) => (
                    <Text
                      key={i}
                      span
                      display="block"
                      ff="monospace"
                      size="xs"
                      c={line.startsWith('+') ? 'green.8' : line.startsWith('-') ? 'red.8' : undefined}
                    >
                      {line}
                    </Text>
                  ))}
                </Code>
              </Box>
            ))}
            {props.canDeploy && deploy.phase === 'ready' && (
              <Group justify="flex-end">
                <Button onClick={deploy.run}>Deploy commit {committed.commitId}</Button>
              </Group>
            )}
          </Stack>
        )}
        <JobProgress title="Deploy" job={deploy} />
        {deployed &&
          (deployed.resultStatus === 'SUCCESS' ? (
            <Alert color="green">
              Deployed commit {committed?.commitId}: its rules are in force once the effective date is published.
            </Alert>
          ) : (
            <Alert color="red">{resultOf(deployed).message ?? 'The deploy failed.'}</Alert>
          ))}
      </Stack>
    </Modal>
  );
}

function JobProgress(props: { title: string; job: ReturnType<typeof useRulesJob> }) {
  const { phase, progress, error } = props.job;
  if (phase === 'running')
    return (
      <Stack gap={4}>
        <Text size="sm">{props.title} in progress…</Text>
        <Progress value={progress} aria-label={`${props.title} progress`} animated />
      </Stack>
    );
  if (phase === 'serviceError' || phase === 'timeoutError')
    return (
      <Alert color="red">
        <Group justify="space-between">
          <Text size="sm">{error ?? 'The job took too long to answer.'}</Text>
          <Button size="xs" onClick={props.job.tryAgain}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  return null;
}
