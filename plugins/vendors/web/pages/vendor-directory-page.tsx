import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import IconPlugConnected from '@tabler/icons-react/icons/IconPlugConnected';
import { ErrorState, LoadingState, PageHeader, useApiClient } from '@atrium/sdk';
import { ENVIRONMENT_LABELS, STATUS_LABELS, VENDOR_LABELS } from '../../shared/vendors.js';
import { keys, when, type ConnectionView } from '../api.js';
import { docusignRoute, quickbooksRoute } from '../routes.js';
import { statusColor } from './status-color.js';

const pageOf = { quickbooks: quickbooksRoute, docusign: docusignRoute };

/** The vendor directory (spec: Integrations, "Vendor directory: list plus quickbooks and docusign pages"). */
export default function VendorDirectoryPage() {
  const api = useApiClient();
  const directory = useQuery({
    queryKey: keys.directory,
    queryFn: () => api.get<{ results: ConnectionView[] }>('/vendors/connections/'),
  });
  return (
    <Stack>
      <PageHeader
        title="Vendors"
        icon={IconPlugConnected}
        description="Accounting and e-signature vendors Atrium connects to."
      />
      {directory.isPending ? (
        <LoadingState label="Loading vendors" />
      ) : directory.isError ? (
        <ErrorState error={directory.error} onRetry={() => void directory.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {directory.data.results.map((vendor) => (
            <Card key={vendor.vendor} withBorder padding="lg" aria-label={vendor.name}>
              <Group justify="space-between" mb="xs">
                <Anchor component={Link} to={pageOf[vendor.vendor].link({})} fw={600} size="lg">
                  {vendor.name}
                </Anchor>
                <Badge color={statusColor(vendor.status)}>{STATUS_LABELS[vendor.status]}</Badge>
              </Group>
              <Text size="sm" c="dimmed" mb="sm">
                {VENDOR_LABELS[vendor.vendor].kind}: {VENDOR_LABELS[vendor.vendor].description}
              </Text>
              <Text size="sm">Environment: {ENVIRONMENT_LABELS[vendor.environment]}</Text>
              <Text size="sm">Last sync: {when(vendor.last_sync_at)}</Text>
              {vendor.last_error ? (
                <Text size="sm" c="red">
                  Last error: {vendor.last_error}
                </Text>
              ) : null}
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
