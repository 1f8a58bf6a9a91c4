import { Anchor, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import IconReportAnalytics from '@tabler/icons-react/icons/IconReportAnalytics';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, PageHeader, QueryState, useApiClient } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { REPORTS } from '../../shared/report-definitions.js';
import { getAvailable, reportKeys } from '../reports-api.js';
import { reportRoute } from '../routes.js';

/** The reports the user may run; each covers only the records the user may read. */
export default function ReportsPage() {
  const api = useApiClient();
  const available = useQuery({ queryKey: reportKeys.available, queryFn: ({ signal }) => getAvailable(api, signal) });
  return (
    <Stack>
      <PageHeader
        title="Reports"
        icon={IconReportAnalytics}
        description="Each report covers the claims and policies you may see. Run one, then download it as CSV or XLSX."
      />
      <QueryState
        query={available}
        isEmpty={(data) => data.reports.length === 0}
        empty={
          <EmptyState title="No reports for your role." description="Your role may not read claims or policies." />
        }
      >
        {(data) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="list" aria-label="Reports">
            {REPORTS.filter((report) => data.reports.includes(report.id)).map((report) => (
              <Card key={report.id} withBorder padding="md" role="listitem">
                <Anchor component={Link} to={reportRoute.link({ reportId: report.id })} fw={600}>
                  {report.title}
                </Anchor>
                <Text size="sm" c="dimmed" mt={4}>
                  {report.description}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </QueryState>
    </Stack>
  );
}
