import { Anchor, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import IconReportAnalytics from '@tabler/icons-react/icons/IconReportAnalytics';
import { PageHeader } from '@atrium/sdk';
import { Link } from 'react-router-dom';
import { REPORTS } from '../../shared/report-definitions.js';
import { reportRoute } from '../routes.js';

/** The reports one may run; each covers only the records the user may read. */
export default function ReportsPage() {
  return (
    <Stack>
      <PageHeader
        title="Reports"
        icon={IconReportAnalytics}
        description="Each report covers the claims and policies you may see. Run one, then download it as CSV or XLSX."
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="list" aria-label="Reports">
        {REPORTS.map((report) => (
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
    </Stack>
  );
}
