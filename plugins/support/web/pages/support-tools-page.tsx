import { Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader, useApiClient, useCan, useHostServices } from '@atrium/sdk';
import { TicketsTable } from '../components/tickets-table.js';
import { releaseDateLabel } from '../release-date.js';
import type { TicketStatusFilter } from '../support-api.js';

interface ReleaseInfo {
  tag: string;
  timestamp: string;
}

/**
 * Support Tools (user menu → Resources): the running release, a ticket form, and the tickets —
 * everyone's for those who manage support, otherwise the user's own.
 */
export default function SupportToolsPage() {
  const api = useApiClient();
  const { openHelp } = useHostServices();
  const manage = useCan('support:ticket', 'manage');
  const [status, setStatus] = useState<TicketStatusFilter>('open');
  const release = useQuery({
    queryKey: ['support', 'release-info'],
    queryFn: ({ signal }) => api.get<{ data: ReleaseInfo }>('/v2/utils/get_release_info', { signal }),
    staleTime: 5 * 60_000,
  });
  const info = release.data?.data;
  return (
    <Stack>
      <PageHeader
        title="Support Tools"
        description="What support needs to know about this site, and the tickets filed from it."
        actions={<Button onClick={() => openHelp()}>Submit a Support Ticket</Button>}
      />
      <Paper withBorder p="md" maw={520}>
        <Title order={2} size="h4" mb="xs">
          Release
        </Title>
        {info ? (
          <Text size="sm">
            Version {info.tag}, released {releaseDateLabel(info.timestamp)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" role="status">
            {release.isError ? 'The release could not be loaded.' : 'Loading the release…'}
          </Text>
        )}
      </Paper>
      <Group justify="space-between" align="end">
        <Title order={2} size="h4">
          {manage.allowed ? 'Support tickets of all users' : 'Your support tickets'}
        </Title>
        <SegmentedControl
          aria-label="Which tickets"
          value={status}
          onChange={(value) => setStatus(value as TicketStatusFilter)}
          data={[
            { value: 'open', label: 'Outstanding' },
            { value: 'closed', label: 'Closed' },
            { value: 'all', label: 'All' },
          ]}
        />
      </Group>
      {manage.pending ? null : (
        <TicketsTable scope={manage.allowed ? 'all' : 'mine'} status={status} showSubmitter={manage.allowed} />
      )}
    </Stack>
  );
}
