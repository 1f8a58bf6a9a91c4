import { Stack } from '@mantine/core';
import IconApps from '@tabler/icons-react/icons/IconApps';
import { EmptyState, PageHeader } from '@atrium/sdk';

/**
 * Agent portal: the third-party apps (plugins) the carrier enables for agents. Third-party plugins
 * are not built yet (issue 22), so none can be enabled: the page says so rather than listing
 * anything (docs/reports.md, "Agent portal").
 */
export default function BriteAppsPage() {
  return (
    <Stack>
      <PageHeader
        title="BriteApps"
        icon={IconApps}
        description="Apps from other vendors that your carrier enables for agents."
      />
      <EmptyState
        icon={IconApps}
        title="No BriteApps are enabled for agents."
        description="When your carrier enables an app for agents, it appears here."
      />
    </Stack>
  );
}
