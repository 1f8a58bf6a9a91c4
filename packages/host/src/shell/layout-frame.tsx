import { AppShell } from '@mantine/core';
import type { Layout } from '@atrium/sdk';
import { Outlet } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useRuntimeStore } from '../host-runtime-context.js';
import { ActivitySidebar, useActivityPanels } from './activity-sidebar.js';
import { LiveSiteBanner } from './live-site-banner.js';
import { MainSidebar } from './main-sidebar.js';
import { SubSidebar } from './sub-sidebar.js';
import { TopBar } from './top-bar.js';

/** Agents and agencies get the agency styling (see host.css, `[data-audience='agency']`). */
function useAudience(): 'agency' | 'carrier' {
  return useRuntimeStore(
    (r) => r.auth,
    (s) => (isAgentRole(s.effectiveRole) ? 'agency' : 'carrier'),
  );
}

function Content({ padded }: { padded: boolean }) {
  return (
    <div className="atrium-content" data-padded={padded}>
      <Outlet />
    </div>
  );
}

/** `default` layouts: sidebars, top bar, live-site banner, activity sidebar. */
function AppFrame({ padded }: { padded: boolean }) {
  const audience = useAudience();
  const panels = useActivityPanels();
  const panelOpen = useRuntimeStore(
    (r) => r.activity,
    (s) => s.openPanelId !== null,
  );
  return (
    <AppShell
      data-audience={audience}
      data-layout={padded ? 'default' : 'default--no-container-padding'}
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm' }}
      aside={{
        width: panelOpen ? 392 : 52,
        breakpoint: 'sm',
        collapsed: { desktop: panels.length === 0, mobile: true },
      }}
      padding={0}
    >
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Navbar>
        <MainSidebar />
      </AppShell.Navbar>
      <AppShell.Main>
        <LiveSiteBanner />
        <div className="atrium-main">
          <SubSidebar />
          <Content padded={padded} />
        </div>
      </AppShell.Main>
      {panels.length > 0 ? (
        <AppShell.Aside>
          <ActivitySidebar />
        </AppShell.Aside>
      ) : null}
    </AppShell>
  );
}

/** `full-page` layouts: the top bar over the page, no sidebars. */
function FullPageFrame({ padded }: { padded: boolean }) {
  const audience = useAudience();
  return (
    <AppShell
      data-audience={audience}
      data-layout={padded ? 'full-page' : 'full-page--no-container-padding'}
      header={{ height: 56 }}
      padding={0}
    >
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Main>
        <LiveSiteBanner />
        <Content padded={padded} />
      </AppShell.Main>
    </AppShell>
  );
}

export function LayoutFrame({ layout }: { layout: Layout }) {
  switch (layout) {
    case 'default':
      return <AppFrame padded />;
    case 'default--no-container-padding':
      return <AppFrame padded={false} />;
    case 'full-page':
      return <FullPageFrame padded />;
    case 'full-page--no-container-padding':
      return <FullPageFrame padded={false} />;
    case 'component-only':
      return (
        <div data-layout="component-only">
          <Outlet />
        </div>
      );
  }
}
