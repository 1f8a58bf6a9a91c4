import { Suspense } from 'react';
import { LAYOUTS, type Layout, type RegisteredRoute } from '@atrium/sdk';
import type { RouteObject } from 'react-router-dom';
import { lazyPage } from './lazy-page.js';
import type { HostRouteHandle } from './route-handle.js';

/**
 * The router's tree, built from the registered routes: a root route (guard loader, shell overlays)
 * with one pathless child per layout, so moving between pages of the same layout keeps the
 * sidebars mounted. A route without a layout falls back to `default` when it has a name; with
 * neither layout nor name it renders nothing (spec).
 */
export interface RouteTreeParts {
  root: Omit<RouteObject, 'children' | 'index'>;
  layoutElement(layout: Layout): React.ReactNode;
  pageFallback: React.ReactNode;
}

export function layoutOf(route: RegisteredRoute): Layout | undefined {
  return route.meta.layout ?? (route.name ? 'default' : undefined);
}

function PageOf({ route, fallback }: { route: RegisteredRoute; fallback: React.ReactNode }) {
  if (!route.loader) return null;
  const Page = lazyPage(route.loader);
  return (
    <Suspense fallback={fallback}>
      <Page />
    </Suspense>
  );
}

export function buildRouteTree(routes: readonly RegisteredRoute[], parts: RouteTreeParts): RouteObject[] {
  const byLayout = new Map<Layout, RouteObject[]>(LAYOUTS.map((layout) => [layout, []]));
  const bare: RouteObject[] = [];
  for (const route of routes) {
    const handle: HostRouteHandle = { route };
    const id = route.name ?? `${route.pluginId}${route.path}`;
    const layout = layoutOf(route);
    if (!layout) {
      bare.push({ id, path: route.path, handle, element: null });
      continue;
    }
    byLayout
      .get(layout)!
      .push({ id, path: route.path, handle, element: <PageOf route={route} fallback={parts.pageFallback} /> });
  }
  return [
    {
      ...parts.root,
      id: 'root',
      children: [
        ...LAYOUTS.filter((layout) => byLayout.get(layout)!.length > 0).map((layout): RouteObject => ({
          id: `layout:${layout}`,
          element: parts.layoutElement(layout),
          children: byLayout.get(layout)!,
        })),
        ...bare,
      ],
    },
  ];
}
