import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation, useMatches } from 'react-router-dom';
import { isHostRouteHandle } from '../routing/route-handle.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';

/** The current module's own pages (nav entries with area `sub` of the plugin that owns the page). */
export function SubSidebar() {
  const { pathname } = useLocation();
  const handle = useMatches().at(-1)?.handle;
  const pluginId = isHostRouteHandle(handle) ? handle.route.pluginId : '';
  const links = useVisibleNav('sub', pluginId);
  if (links.length === 0) return null;
  return (
    <Stack component="nav" aria-label="Module" gap={0} className="atrium-sub-sidebar">
      {links.map(({ entry, href }) => (
        <NavLink
          key={entry.id}
          component={Link}
          to={href}
          label={entry.title}
          active={pathname === href.split('?')[0]}
        />
      ))}
    </Stack>
  );
}
