import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useRuntimeStore } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { MyWorkSection } from './my-work-section.js';

/**
 * The dashboard at `/` and `/all-modules`: what the modules say is waiting for the user (My work),
 * then one tile per module the user may open.
 */
export default function AllModulesPage() {
  const agent = useRuntimeStore(
    (r) => r.auth,
    (s) => isAgentRole(s.effectiveRole),
  );
  const carrierModules = useVisibleNav('main');
  const agentModules = useVisibleNav('agent');
  const modules = agent ? agentModules : carrierModules;
  return (
    <Stack gap="lg">
      <Title order={1}>All Modules</Title>
      <MyWorkSection />
      {modules.length === 0 ? (
        <Text c="dimmed">No modules are available to you.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {modules.map(({ entry, href }) => (
            <Card key={entry.id} component={Link} to={href} withBorder padding="lg" className="atrium-module-tile">
              <Text fw={600}>{entry.title}</Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
