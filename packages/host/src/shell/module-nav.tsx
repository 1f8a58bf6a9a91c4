import { Link, useLocation, useMatches } from 'react-router-dom';
import { isHostRouteHandle } from '../routing/route-handle.js';
import { useVisibleNav } from '../navigation/use-visible-nav.js';
import { NavIcon } from './nav-icon.js';

/**
 * The current module's own pages (nav entries with area `sub` of the plugin that owns the page), as
 * a strip of links over the content rather than a second sidebar column: the column cost 200 px
 * of every screen. A module with one page needs no strip (the main sidebar's entry is that page).
 */
export function ModuleNav() {
  const { pathname } = useLocation();
  const handle = useMatches().at(-1)?.handle;
  const pluginId = isHostRouteHandle(handle) ? handle.route.pluginId : '';
  const links = useVisibleNav('sub', pluginId);
  if (links.length < 2) return null;
  return (
    <nav aria-label="Module" className="atrium-module-nav">
      {links.map(({ entry, href }) => {
        const active = pathname === href.split('?')[0];
        return (
          <Link
            key={entry.id}
            to={href}
            className="atrium-module-nav-link"
            data-active={active || undefined}
            aria-current={active ? 'page' : undefined}
          >
            {entry.icon ? <NavIcon icon={entry.icon} size={16} /> : null}
            <span>{entry.title}</span>
          </Link>
        );
      })}
    </nav>
  );
}
