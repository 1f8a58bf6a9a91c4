// @vitest-environment jsdom
import { createMemoryStorage, createRouteRef, definePlugin } from '@atrium/sdk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthStore } from '../auth/auth-store.js';
import { createHostRuntime } from '../host-runtime.js';
import { HostRuntimeProvider } from '../host-runtime-context.js';
import { sessionFor } from '../testing/mount-host.js';
import { RouteVisibilityProvider, useRouteVisibility } from './use-route-visibility.js';
import { useVisibleNav } from './use-visible-nav.js';

afterEach(cleanup);

const claimsRoute = createRouteRef({ name: 'claims:dashboard', path: '/claims' });
const claimsPlugin = definePlugin({
  id: 'claims-test',
  title: 'Claims',
  moduleKey: 'claims',
  routes: [{ name: claimsRoute.name, path: claimsRoute.path, meta: { layout: 'default' } }],
  nav: [{ id: 'claims.nav', title: 'Claims', to: claimsRoute, area: 'main', order: 1 }],
});

function setup() {
  const auth = createAuthStore({ storage: createMemoryStorage() });
  auth.getState().setSession(sessionFor());
  auth.getState().setEffectiveRole('Adjuster');
  const fetch = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { requests: unknown[] };
    return Response.json({ results: body.requests.map(() => ({ evaluation: true })) });
  });
  const runtime = createHostRuntime({ manifests: [claimsPlugin], auth, fetch, platform: 'other' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <HostRuntimeProvider runtime={runtime}>
        <RouteVisibilityProvider>{children}</RouteVisibilityProvider>
      </HostRuntimeProvider>
    </QueryClientProvider>
  );
  return { runtime, auth, wrapper };
}

describe('useRouteVisibility', () => {
  it('keeps the same visibility test and nav list across renders while the answers stand', async () => {
    // The palette indexes every command whenever the nav list changes; a new list on every render
    // rebuilt that index (10,000 commands) on every keystroke.
    const { runtime, wrapper } = setup();
    const { result, rerender } = renderHook(() => ({ isVisible: useRouteVisibility(), nav: useVisibleNav('main') }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.nav.map((n) => n.entry.id)).toEqual(['claims.nav']));
    const first = result.current;
    rerender();
    rerender();
    expect(result.current.isVisible).toBe(first.isVisible);
    expect(result.current.nav).toBe(first.nav);
    expect(result.current.isVisible(runtime.plugins.routeByName(claimsRoute.name))).toBe(true);
    runtime.dispose();
  });

  it('gives a new test when the role changes', async () => {
    const { runtime, auth, wrapper } = setup();
    const { result } = renderHook(() => useRouteVisibility(), { wrapper });
    await waitFor(() => expect(result.current(runtime.plugins.routeByName(claimsRoute.name))).toBe(true));
    const before = result.current;
    act(() => auth.getState().setEffectiveRole('Underwriter'));
    await waitFor(() => expect(result.current).not.toBe(before));
    runtime.dispose();
  });
});
