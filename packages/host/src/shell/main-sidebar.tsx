import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { isAgentRole } from '../auth/agent-role.js';
import { useHostRuntime, useRuntimeStore } from '../host-runtime-context.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';

/** Spec order of the agent and agency navigation; entries from plugins are placed by these titles. */
export const AGENT_NAV_ORDER = ['New Quote', 'Policies and Quotes', 'Claims', 'Payments', 'Reports', 'BriteApps'];

function isActive(pathname: string, href: string): boolean {
  const path = href.split('?')[0]!;
  return path === '/'
    ? pathname === '/' || pathname === '/all-modules'
    : pathname === path || pathname.startsWith(`${path}/`);
}

/**
 * The left sidebar: Dashboard, the modules the user may see, Get help. Agents and agencies get the
 * agent navigation instead of the carrier's modules.
 */
export function MainSidebar() {
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
    <Stack component="nav" aria-label="Main" gap={0} h="100%">
      <NavLink component={Link} to="/" label="Dashboard" active={isActive(pathname, '/')} />
      <div style={{ flex: 1, overflowY: 'auto' }}>
        {links.map(({ entry, href }) => (
          <NavLink key={entry.id} component={Link} to={href} label={entry.title} active={isActive(pathname, href)} />
        ))}
      </div>
      <NavLink component="button" label="Get help" onClick={() => runtime.ui.getState().openHelp()} />
    </Stack>
  );
}
