import { act, waitFor } from '@testing-library/react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { onTestFinished } from 'vitest';
import { mountHost, sessionFor } from '@atrium/host/testing';
import { definePlugin } from '../web/define-plugin.js';
import type { PluginRoute } from '../web/plugin-manifest.js';
import type { RecordedApiRequest, TestApiHandler, TestHost, TestHostOptions } from './render-in-test-host.js';

// The body of renderInTestHost (render-in-test-host.ts), loaded only when a test calls it.

const TEST_PLUGIN_ID = 'test-host';
const DEFAULT_PATH = '/test-host';

function compileKey(key: string): { method: string | null; pattern: RegExp; names: string[] } {
  const match = /^(?:([A-Za-z]+)\s+)?(\S+)$/.exec(key.trim());
  if (!match) throw new Error(`renderInTestHost: '${key}' is not 'METHOD /path' or '/path'.`);
  const [, method, rawPath] = match;
  const path =
    rawPath === '/api' || rawPath!.startsWith('/api/')
      ? rawPath!
      : `/api${rawPath!.startsWith('/') ? '' : '/'}${rawPath}`;
  const names: string[] = [];
  const source = path
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { method: method ? method.toUpperCase() : null, pattern: new RegExp(`^${source}/?$`), names };
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

async function toResponse(answer: unknown): Promise<Response | undefined> {
  const value = await answer;
  if (value === undefined) return undefined;
  if (value instanceof Response) return value.clone();
  return new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
}

export async function mountInTestHost(ui: ReactElement, options: TestHostOptions = {}): Promise<TestHost> {
  const path = options.path ?? DEFAULT_PATH;
  const at = options.at ?? path;
  const role = options.role === undefined ? 'Administrator' : options.role;

  let mounted = false;
  function MountProbe({ children }: { children: ReactNode }) {
    useEffect(() => {
      mounted = true;
    }, []);
    return children;
  }

  const routes: PluginRoute[] = [
    {
      name: `${TEST_PLUGIN_ID}:ui`,
      path,
      meta: { layout: options.layout ?? 'default', requiresAuth: options.requiresAuth ?? true },
      loader: async () => ({ default: () => <MountProbe>{ui}</MountProbe> }),
    },
    ...Object.entries(options.routes ?? {}).map(([routePath, element], index): PluginRoute => ({
      name: `${TEST_PLUGIN_ID}:route-${index + 1}`,
      path: routePath,
      meta: { layout: 'default', requiresAuth: false },
      loader: async () => ({ default: () => <>{element ?? <p>{routePath}</p>}</> }),
    })),
  ];
  const testPlugin = definePlugin({ id: TEST_PLUGIN_ID, title: 'Test host', routes });

  const handlers = Object.entries(options.apis ?? {}).map(([key, answer]) => ({ key, answer, ...compileKey(key) }));
  const requests: RecordedApiRequest[] = [];
  const session =
    role === null
      ? null
      : (() => {
          const base = sessionFor(options.user?.name ?? 'Jane Doe', [...(options.user?.roles ?? [role])]);
          return { ...base, user: { ...base.user, ...options.user, roles: [...(options.user?.roles ?? [role])] } };
        })();

  const host = mountHost({
    path: at,
    manifests: [...(options.plugins ?? []), testPlugin],
    session,
    effectiveRole: role,
    viewable: options.canView,
    backend: async (url, init) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      const body = parseBody(init?.body);
      const recorded: RecordedApiRequest = { method, path: url.pathname, search: url.search, body, matchedBy: null };
      requests.push(recorded);
      for (const handler of handlers) {
        if (handler.method && handler.method !== method) continue;
        const match = handler.pattern.exec(url.pathname);
        if (!match) continue;
        const params = Object.fromEntries(handler.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
        const answer =
          typeof handler.answer === 'function'
            ? (handler.answer as TestApiHandler)({
                method,
                url,
                params,
                query: url.searchParams,
                headers: new Headers(init?.headers),
                body,
              })
            : handler.answer;
        const response = await toResponse(answer);
        if (response) {
          recorded.matchedBy = handler.key;
          return response;
        }
      }
      return undefined;
    },
  });
  let disposed = false;
  const dispose = () => {
    if (disposed) return;
    disposed = true;
    host.dispose();
  };
  onTestFinished(dispose);

  // Wait until the page rendered, or the guard sent the user elsewhere (login, /forbidden).
  const atPathname = new URL(at, 'http://host').pathname;
  await waitFor(
    () => {
      const { initialized, navigation, location } = host.router.state;
      const settled = initialized && navigation.state === 'idle';
      if (!mounted && !(settled && location.pathname !== atPathname)) throw new Error('not rendered yet');
    },
    { timeout: 3000 },
  ).catch(() => {
    // The test's own assertions say more than a timeout here would (e.g. the page threw).
  });

  return {
    container: host.container,
    baseElement: host.baseElement,
    user: host.user,
    asFragment: host.asFragment,
    debug: host.debug,
    location: () => host.router.state.location,
    navigate: (to) => act(async () => void (await host.router.navigate(to))),
    requests,
    services: host.runtime.services,
    session: () => host.runtime.pluginHost.session.getSnapshot(),
    setRole: (next) => act(async () => host.auth.getState().setEffectiveRole(next)),
    unmount: dispose,
  };
}
