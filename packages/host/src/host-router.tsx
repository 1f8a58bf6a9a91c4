import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, createMemoryRouter, type RouteObject } from 'react-router-dom';
import type { HostRuntime } from './host-runtime.js';
import { createGuardLoader } from './routing/guard-loader.js';
import { buildRouteTree } from './routing/route-tree.js';
import { LayoutFrame } from './shell/layout-frame.js';
import { RouteErrorPage } from './shell/route-error-page.js';
import { ShellRoot } from './shell/shell-root.js';

function PageLoader() {
  return (
    <Center p="xl">
      <Loader role="status" aria-label="Loading page" />
    </Center>
  );
}

export function buildHostRoutes(runtime: HostRuntime, options: { reload?(href: string): void } = {}): RouteObject[] {
  let tree: RouteObject[] = [];
  const loader = createGuardLoader({ runtime, routes: () => tree, reload: options.reload });
  tree = buildRouteTree(runtime.plugins.routes(), {
    root: {
      element: <ShellRoot />,
      loader,
      // The guard must run before every navigation, not only when params change.
      shouldRevalidate: () => true,
      errorElement: <RouteErrorPage />,
      hydrateFallbackElement: <PageLoader />,
    },
    layoutElement: (layout) => <LayoutFrame layout={layout} />,
    pageFallback: <PageLoader />,
  });
  return tree;
}

export function createHostRouter(runtime: HostRuntime) {
  return createBrowserRouter(buildHostRoutes(runtime));
}

/** For tests: the same routes in memory, starting at `path`. */
export function createHostMemoryRouter(
  runtime: HostRuntime,
  path: string,
  options: { reload?(href: string): void } = {},
) {
  return createMemoryRouter(buildHostRoutes(runtime, options), { initialEntries: [path] });
}
