import { createMemoryStorage, type PluginManifest } from '@atrium/sdk';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { createAuthStore } from '../auth/auth-store.js';
import type { AuthSession } from '../auth/session-provider.js';
import { HostApp } from '../host-app.js';
import { createHostPlugin } from '../host-plugin.js';
import { createHostMemoryRouter } from '../host-router.js';
import { createHostRuntime, type HostRuntime } from '../host-runtime.js';
import { installDomPolyfills } from './dom-polyfills.js';

/**
 * Mounts the whole shell (runtime, router, layouts, overlays) in jsdom at a path, with the given
 * plugins, a session or none, and a fake backend. Tests drive it like a user would. Registers no
 * test hooks: the caller disposes it (`renderHost` does in afterEach; the SDK's `renderInTestHost`
 * when the test finishes), so this module may be imported lazily, from inside a test.
 */
export const DEMO_CARRIER = { name: 'Atrium Mutual Insurance', website: 'https://carrier.example.com', logo_url: null };

export function sessionFor(name = 'Jane Doe', roles = ['Administrator']): AuthSession {
  return {
    accessToken: 'test-token',
    expiresAt: Date.now() + 3_600_000,
    user: { id: 'u-1', username: 'jane', name, email: 'jane@example.com', roles },
  };
}

export type FakeBackend = (
  url: URL,
  init: RequestInit | undefined,
) => Response | Promise<Response | undefined> | undefined;

export interface RenderHostOptions {
  path?: string;
  manifests?: PluginManifest[];
  session?: AuthSession | null;
  effectiveRole?: string | null;
  /** ViewModule answers by module key (default: every module viewable). */
  viewable?(moduleKey: string): boolean;
  carrier?: typeof DEMO_CARRIER;
  carrierMeta?: { live_status: boolean };
  /** Answers anything the defaults do not; undefined falls through to 404. */
  backend?: FakeBackend;
  refresh?(current: AuthSession | null): Promise<AuthSession | null>;
  reload?(href: string): void;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface MountedHost extends ReturnType<typeof render> {
  runtime: HostRuntime;
  router: ReturnType<typeof createHostMemoryRouter>;
  auth: ReturnType<typeof createAuthStore>;
  storage: ReturnType<typeof createMemoryStorage>;
  fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  user: ReturnType<typeof userEvent.setup>;
  location(): ReturnType<typeof createHostMemoryRouter>['state']['location'];
  /** Unmounts the shell, disposes the runtime and restores the global fetch. */
  dispose(): void;
}

export function mountHost(options: RenderHostOptions = {}): MountedHost {
  installDomPolyfills();
  const storage = createMemoryStorage();
  const auth = createAuthStore({ storage });
  const session = options.session ?? null;
  auth.getState().installSessionProvider({
    refresh: options.refresh ?? (async (current) => current),
    signOut: async () => {},
  });
  if (session) auth.getState().setSession(session);
  if (options.effectiveRole) auth.getState().setEffectiveRole(options.effectiveRole);

  const viewable = options.viewable ?? (() => true);
  const fetchMock = vi.fn<typeof fetch>(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const answered = await options.backend?.(url, init);
    if (answered) return answered;
    if (url.pathname === '/api/v2/insured/get_primary_carrier')
      return json({ success: true, data: options.carrier ?? DEMO_CARRIER });
    if (url.pathname === '/api/v2/utils/meta')
      return json({ success: true, data: { live_status: false, ...options.carrierMeta } });
    if (url.pathname === '/api/v2/settings/get_setting_value') return json({ success: true, data: 0 });
    if (url.pathname === '/api/access/evaluations') {
      const body = JSON.parse(String(init?.body)) as { requests: { resource: string }[] };
      return json({ results: body.requests.map((r) => ({ evaluation: viewable(r.resource.replace(/^ui:/, '')) })) });
    }
    return json({ errors: [{ detail: 'Not found' }] }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);

  const runtime = createHostRuntime({
    manifests: [createHostPlugin({ withLoginPlaceholder: true }), ...(options.manifests ?? [])],
    auth,
    storage,
    platform: 'other',
    fetch: fetchMock,
  });
  const router = createHostMemoryRouter(runtime, options.path ?? '/', { reload: options.reload });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const user = userEvent.setup();
  const view = render(<HostApp runtime={runtime} router={router} queryClient={queryClient} />);
  return {
    ...view,
    runtime,
    router,
    auth,
    storage,
    fetch: fetchMock,
    user,
    location: () => router.state.location,
    dispose() {
      view.unmount();
      runtime.dispose();
      vi.unstubAllGlobals();
    },
  };
}
