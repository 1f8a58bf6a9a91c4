import { NavLink, Stack } from '@mantine/core';
import IconLayoutDashboard from '@tabler/icons-react/icons/IconLayoutDashboard';
import IconLayoutSidebarLeftCollapse from '@tabler/icons-react/icons/IconLayoutSidebarLeftCollapse';
import IconLayoutSidebarLeftExpand from '@tabler/icons-react/icons/IconLayoutSidebarLeftExpand';
import IconLifebuoy from '@tabler/icons-react/icons/IconLifebuoy';
import type { NavIcon as NavIconType } from '@atrium/sdk';
import { Link, useLocation } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { NavIcon } from './nav-icon.js';

/** Spec order of the agent and agency navigation; entries from plugins are placed by these titles. */
export const AGENT_NAV_ORDER = ['New Quote', 'Policies and Quotes', 'Claims', 'Payments', 'Reports', 'BriteApps'];

function isActive(pathname: string, href: string): boolean {
  const path = href.split('?')[0]!;
  return path === '/'
    ? pathname === '/' || pathname === '/all-modules'
    : pathname === path || pathname.startsWith(`${path}/`);
}

/**
 * A nav entry's title. It stays in the link's text when the rail is folded (hidden visually, see
 * host.css), so its accessible name and text never change; the native tooltip (`title`) shows it
 * to sighted users. Not Mantine's Tooltip: its positioning library would weigh on the first load.
 */
function Label({ children }: { children: string }) {
  return <span className="atrium-nav-label">{children}</span>;
}

function SidebarLink({
  to,
  title,
  icon,
  active,
  collapsed,
}: {
  to: string;
  title: string;
  icon: NavIconType | undefined;
  active: boolean;
  collapsed: boolean;
}) {
  return (
    <NavLink
      component={Link}
      to={to}
      title={collapsed ? title : undefined}
      label={<Label>{title}</Label>}
      leftSection={<NavIcon icon={icon} />}
      active={active}
      aria-current={active ? 'page' : undefined}
      className="atrium-nav-link"
    />
  );
}

/**
 * The left sidebar: Dashboard, the modules the user may see, Get help, and the button that folds
 * it to an icon rail. Agents and agencies get the agent navigation instead of the carrier's modules.
 */
export function MainSidebar({
  collapsed = false,
  onCollapsedChange,
}: {
  collapsed?: boolean;
  onCollapsedChange?: (collapsed: boolean) => void;
}) {
  const runtime = useHostRuntime();
  const { pathname } = useLocation();
  const agent = useRuntimeStore(
    (r) => r.auth,
    (s) => isAgentRole(s.effectiveRole),
  );
  const moduleLinks = useVisibleNav('main');
  const agentLinks = useVisibleNav('agent');
  const rank = (title: string) => {
    const index = AGENT_NAV_ORDER.indexOf(title);
    return index < 0 ? AGENT_NAV_ORDER.length : index;
  };
  const links = agent ? [...agentLinks].sort((a, b) => rank(a.entry.title) - rank(b.entry.title)) : moduleLinks;
  return (
    <Stack component="nav" aria-label="Main" gap={0} h="100%" className="atrium-sidebar" data-collapsed={collapsed}>
      <SidebarLink
        to="/"
        title="Dashboard"
        icon={IconLayoutDashboard}
        active={isActive(pathname, '/')}
        collapsed={collapsed}
      />
      <div className="atrium-sidebar-scroll">
        {links.map(({ entry, href }) => (
          <SidebarLink
            key={entry.id}
            to={href}
            title={entry.title}
            icon={entry.icon}
            active={isActive(pathname, href)}
            collapsed={collapsed}
          />
        ))}
      </div>
      <NavLink
        component="button"
        title={collapsed ? 'Get help' : undefined}
        label={<Label>Get help</Label>}
        leftSection={<IconLifebuoy size={18} stroke={1.75} aria-hidden />}
        onClick={() => runtime.ui.getState().openHelp()}
        className="atrium-nav-link"
      />
      {onCollapsedChange ? (
        <NavLink
          component="button"
          title={collapsed ? 'Expand sidebar' : undefined}
          label={<Label>{collapsed ? 'Expand sidebar' : 'Collapse sidebar'}</Label>}
          aria-expanded={!collapsed}
          leftSection={
            collapsed ? (
              <IconLayoutSidebarLeftExpand size={18} stroke={1.75} aria-hidden />
            ) : (
              <IconLayoutSidebarLeftCollapse size={18} stroke={1.75} aria-hidden />
            )
          }
          onClick={() => onCollapsedChange(!collapsed)}
          className="atrium-nav-link atrium-sidebar-toggle"
        />
      ) : null}
    </Stack>
  );
}
