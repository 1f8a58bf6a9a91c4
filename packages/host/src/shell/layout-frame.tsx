import { AppShell } from '@mantine/core';
import type { Layout } from '@atrium/sdk';
import { Outlet } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useRuntimeStore } from '../host-runtime-context.js';
import { ActivitySidebar, useActivityPanels } from './activity-sidebar.js';
import { LiveSiteBanner } from './live-site-banner.js';
import { MainSidebar } from './main-sidebar.js';
import { ModuleNav } from './module-nav.js';
import { useSidebarCollapsed } from './sidebar-preferences.js';
import { TopBar } from './top-bar.js';

/** Widths of the shell's columns (px); the content gets the rest and never less than it needs to not scroll the page. */
export const SIDEBAR_WIDTH = 224;
export const SIDEBAR_RAIL_WIDTH = 56;
export const ACTIVITY_STRIP_WIDTH = 48;
export const ACTIVITY_PANEL_WIDTH = 360;

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

/** `default` layouts: sidebars, top bar, live-site banner, the module's pages, activity sidebar. */
function AppFrame({ padded }: { padded: boolean }) {
  const audience = useAudience();
  const panels = useActivityPanels();
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const panelOpen = useRuntimeStore(
    (r) => r.activity,
    (s) => s.openPanelId !== null,
  );
  return (
    <AppShell
      data-audience={audience}
      data-layout={padded ? 'default' : 'default--no-container-padding'}
      header={{ height: 52 }}
      navbar={{ width: collapsed ? SIDEBAR_RAIL_WIDTH : SIDEBAR_WIDTH, breakpoint: 'sm' }}
      aside={{
        width: panelOpen ? ACTIVITY_STRIP_WIDTH + ACTIVITY_PANEL_WIDTH : ACTIVITY_STRIP_WIDTH,
        breakpoint: 'sm',
        collapsed: { desktop: panels.length === 0, mobile: true },
      }}
      padding={0}
    >
      <AppShell.Header>
        <TopBar />
      </AppShell.Header>
      <AppShell.Navbar>
        <MainSidebar collapsed={collapsed} onCollapsedChange={setCollapsed} />
      </AppShell.Navbar>
      <AppShell.Main>
        <LiveSiteBanner />
        <div className="atrium-main">
          <ModuleNav />
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
      header={{ height: 52 }}
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
