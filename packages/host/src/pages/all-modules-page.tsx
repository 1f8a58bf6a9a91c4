import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useRuntimeStore } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { MyWorkSection, useMyWork } from './my-work-section.js';

/**
 * How long the tiles wait for My work's access answers (one batched request, usually well under
 * this) before they show anyway: a slow answer must not hide the page's links.
 */
const TILES_WAIT_MS = 1_500;

/**
 * The tiles show once My work knows which widgets it holds, so that the section appears above them
 * instead of pushing them down after they were drawn (a layout shift: Lighthouse CLS 0.06 on `/`).
 */
function useTilesReady(settled: boolean): boolean {
  // Once shown, the tiles stay: a later role switch re-asks My work, but must not blank the page.
  const [ready, setReady] = useState(settled);
  useEffect(() => {
    if (ready) return;
    if (settled) return setReady(true);
    const timer = setTimeout(() => setReady(true), TILES_WAIT_MS);
    return () => clearTimeout(timer);
  }, [ready, settled]);
  return ready || settled;
}

export default function AllModulesPage() {
  const agent = useRuntimeStore(
    (r) => r.auth,
    (s) => isAgentRole(s.effectiveRole),
  );
  const carrierModules = useVisibleNav('main');
  const agentModules = useVisibleNav('agent');
  const modules = agent ? agentModules : carrierModules;
  const myWork = useMyWork();
  const tilesReady = useTilesReady(myWork.settled);
  return (
    <Stack gap="lg">
      <Title order={1}>All Modules</Title>
      <MyWorkSection allowed={myWork.allowed} />
      {!tilesReady ? null : modules.length === 0 ? (
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
