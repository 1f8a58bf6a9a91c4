import { Anchor, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import IconChartBar from '@tabler/icons-react/icons/IconChartBar';
import { EmptyState, ErrorState, LoadingState, PageHeader, useApiClient } from '@atrium/sdk';
import { keys } from '../api.js';
import { DeliveriesChart } from '../components/deliveries-chart.js';
import { exceptionsRoute, subscriptionsRoute } from '../routes.js';

interface Stats {
  days: { day: string; succeeded: number; failed: number }[];
  totals: { subscriptions: number; active: number; open_exceptions: number; pending: number };
}

/**
 * The integrations dashboard: totals, and deliveries/failures per day over two weeks as a chart and
 * the same figures as a table.
 */
export default function DashboardPage() {
  const api = useApiClient();
  const stats = useQuery({
    queryKey: keys.stats,
    queryFn: () => api.get<Stats>('/integrations/stats', { query: { days: 14 } }),
    refetchInterval: 30_000,
  });
  return (
    <Stack>
      <PageHeader title="Integrations" icon={IconChartBar} description="Webhook deliveries and failures." />
      {stats.isPending ? (
        <LoadingState label="Loading the dashboard" />
      ) : stats.isError ? (
        <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Tile label="Subscriptions" value={stats.data.totals.subscriptions} to={subscriptionsRoute.link({})} />
            <Tile label="Active subscriptions" value={stats.data.totals.active} to={subscriptionsRoute.link({})} />
            <Tile label="Waiting to be delivered" value={stats.data.totals.pending} to={subscriptionsRoute.link({})} />
            <Tile label="Open exceptions" value={stats.data.totals.open_exceptions} to={exceptionsRoute.link({})} />
          </SimpleGrid>
          <Text fw={600}>Deliveries over the last 14 days</Text>
          {stats.data.days.length === 0 ? (
            <EmptyState title="No deliveries in the last 14 days" />
          ) : (
            <>
              <DeliveriesChart days={stats.data.days} />
              <Table aria-label="Deliveries per day">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Day</Table.Th>
                    <Table.Th>Delivered</Table.Th>
                    <Table.Th>Failed attempts</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {stats.data.days.map((d) => (
                    <Table.Tr key={d.day}>
                      <Table.Td>{new Date(`${d.day}T00:00:00Z`).toLocaleDateString()}</Table.Td>
                      <Table.Td>{d.succeeded}</Table.Td>
                      <Table.Td>{d.failed}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </>
          )}
        </>
      )}
    </Stack>
  );
}

function Tile({ label, value, to }: { label: string; value: number; to: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Anchor component={Link} to={to} fz="xl" fw={700}>
        {value}
      </Anchor>
    </Paper>
  );
}
