import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApiClient } from '@atrium/sdk';

interface SyncJson {
  linesVersion: string;
  effectiveDate: string;
  count: number;
  results: { component: string; message: string }[];
}

/**
 * Sync with lines: asks the server which rules of this effective date no longer match the lines
 * product version in force (a renamed or removed field, item or risk type, or a changed type), so
 * the author sees the whole list before a commit is refused for it.
 */
export function SyncLinesPanel({ projectId, effectiveDateId }: { projectId: string; effectiveDateId: number }) {
  const api = useApiClient();
  const [asked, setAsked] = useState(false);
  const sync = useQuery({
    queryKey: ['rules', 'sync-lines', projectId, effectiveDateId],
    enabled: asked,
    queryFn: () =>
      api.get<SyncJson>(`/rules/projects/${projectId}/sync-lines/`, { query: { effectiveDate: effectiveDateId } }),
  });
  return (
    <Stack gap={4} aria-label="Sync with lines">
      <Button
        size="xs"
        variant="light"
        w="fit-content"
        loading={sync.isFetching}
        onClick={() => (asked ? void sync.refetch() : setAsked(true))}
      >
        Sync with lines
      </Button>
      {sync.isError && <Alert color="red">{sync.error.message}</Alert>}
      {sync.data && sync.data.count === 0 && (
        <Text size="sm">Every rule matches lines version {sync.data.linesVersion}.</Text>
      )}
      {sync.data && sync.data.count > 0 && (
        <>
          <Text size="sm" fw={600}>
            {sync.data.count} problem{sync.data.count === 1 ? '' : 's'} against lines version {sync.data.linesVersion}:
          </Text>
          <List size="sm">
            {sync.data.results.map((r, i) => (
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
