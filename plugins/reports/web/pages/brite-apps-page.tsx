import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import IconApps from '@tabler/icons-react/icons/IconApps';
import { useQuery } from '@tanstack/react-query';
import { EmptyState, ErrorState, LoadingState, PageHeader, useApiClient } from '@atrium/sdk';

interface EnabledPlugin {
  id: string;
  name: string;
  slot_label: string;
}

/**
 * Agent portal: the third-party apps (UI plugins) the carrier enabled, which load for agents in the
 * screens they name (issue 22's runtime, `GET /api/integrations/plugins/enabled`, readable by every
 * role). One card per app with the places it appears (docs/reports.md, "Agent portal").
 */
export default function BriteAppsPage() {
  const api = useApiClient();
  const apps = useQuery({
    queryKey: ['ui-plugins', 'enabled', 'all'],
    queryFn: async () => {
      const { data } = await api.get<{ data: EnabledPlugin[] }>('/integrations/plugins/enabled');
      const byApp = new Map<string, { name: string; places: string[] }>();
      for (const p of data) {
        const app = byApp.get(p.id) ?? { name: p.name, places: [] };
        if (!app.places.includes(p.slot_label)) app.places.push(p.slot_label);
        byApp.set(p.id, app);
      }
      return [...byApp.entries()].map(([id, app]) => ({ id, ...app }));
    },
  });
  return (
    <Stack>
      <PageHeader
        title="BriteApps"
        icon={IconApps}
        description="Apps from other vendors that your carrier enables for agents."
      />
      {apps.isPending ? (
        <LoadingState />
      ) : apps.isError ? (
        <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />
      ) : apps.data.length === 0 ? (
        <EmptyState
          icon={IconApps}
          title="No BriteApps are enabled for agents."
          description="When your carrier enables an app for agents, it appears here."
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} aria-label="BriteApps">
          {apps.data.map((app) => (
            <Card key={app.id} withBorder>
              <Text fw={600}>{app.name}</Text>
              <Text size="sm" c="dimmed">
                Appears in
              </Text>
              <Group gap="xs" mt={4}>
                {app.places.map((place) => (
                  <Badge key={place} variant="light">
                    {place}
                  </Badge>
                ))}
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
