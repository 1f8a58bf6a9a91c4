import { useMemo } from 'react';
import type { NavArea, RegisteredNavEntry } from '@atrium/sdk';
import { useHostRuntime, useWhenContext } from '../host-runtime-context.js';
import { useRouteVisibility } from './use-route-visibility.js';

export interface VisibleNavEntry {
  entry: RegisteredNavEntry;
  href: string;
}

/** A nav area's entries the user may see now (module visibility and the entry's `when`). */
export function useVisibleNav(area: NavArea, pluginId?: string): VisibleNavEntry[] {
  const runtime = useHostRuntime();
  const isVisible = useRouteVisibility();
  const when = useWhenContext();
  return useMemo(() => {
    void when; // re-evaluate `when` clauses whenever the context changes
    return runtime.plugins
      .nav(area)
      .filter((entry) => pluginId === undefined || entry.pluginId === pluginId)
      .filter((entry) => runtime.context.evaluate(entry.when))
      .filter((entry) => isVisible(runtime.plugins.routeByName(entry.to.name)))
      .flatMap((entry) => {
        try {
          return [{ entry, href: entry.to.link(entry.params ?? {}) }];
        } catch {
          // A nav entry whose params do not fit its route is the plugin's bug; leave the link out.
          return [];
        }
      });
  }, [runtime, area, pluginId, isVisible, when]);
}
