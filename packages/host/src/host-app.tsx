import { atriumCssVariables, atriumTheme } from '@atrium/sdk';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { HostRuntime } from './host-runtime.js';
import { HostRuntimeProvider } from './host-runtime-context.js';
import { RouteVisibilityProvider } from './navigation/use-route-visibility.js';

/** The design system's theme (packages/sdk/src/web/ui/theme.ts, docs/ui.md). */
export const theme = atriumTheme;

export function createQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });
}

type Router = Parameters<typeof RouterProvider>[0]['router'];

export function HostApp({
  runtime,
  router,
  queryClient,
}: {
  runtime: HostRuntime;
  router: Router;
  queryClient?: QueryClient;
}) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={atriumCssVariables}>
      <QueryClientProvider client={client}>
        <HostRuntimeProvider runtime={runtime}>
          <RouteVisibilityProvider>
            <RouterProvider router={router} />
          </RouteVisibilityProvider>
        </HostRuntimeProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
