import type { MountedHost } from '@atrium/host/testing';
import type { ReactElement, ReactNode } from 'react';
import type { HostServices } from '../web/command.js';
import type { Layout } from '../web/layouts.js';
import type { SessionSnapshot, SessionUser } from '../web/plugin-host.js';
import type { PluginManifest } from '../web/plugin-manifest.js';

/**
 * `renderInTestHost(ui, { role, apis, routes })`: renders a plugin component as a page of the real
 * shell in jsdom (route guard, layout, palette, shortcuts, the SDK's host hooks), signed in with a
 * role, against a fake API. The host is imported when the first test calls it, so importing
 * `@atrium/sdk/testing` stays cheap for server-side tests; the shell is torn down when the test
 * finishes. Use it in a file marked `// @vitest-environment jsdom`.
 */

/** What a fake API handler sees. */
export interface TestApiRequest {
  method: string;
  url: URL;
  /** Path parameters of the matching key (`/claims/:claimId`). */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body parsed, the raw string when it is not JSON, undefined without one. */
  body: unknown;
}

/** Returns a JSON body (answered 200) or a Response, maybe as a promise; undefined: not answered. */
export type TestApiHandler = (request: TestApiRequest) => unknown;

/** A JSON body (answered 200), a Response (cloned per call), or a handler. */
export type TestApiAnswer = TestApiHandler | Response | object | string | number | boolean | null;

/**
 * Keys are `'METHOD /path'` or `'/path'` (any method). Paths may leave out the API prefix: `/claims/:id`
 * and `/api/claims/:id` are the same key. `:name` segments match one path segment.
 */
export type TestApis = Record<string, TestApiAnswer>;

export interface RecordedApiRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** The key that answered it, or null (answered by the host's defaults or 404). */
  matchedBy: string | null;
}

export interface TestHostOptions {
  /** The effective role of the signed-in test user. `null`: nobody is signed in. Default 'Administrator'. */
  role?: string | null;
  /** Overrides for the signed-in user (default Jane Doe, holding `role`). */
  user?: Partial<SessionUser>;
  /** The fake API. Anything not answered here and not by the shell's defaults is a 404. */
  apis?: TestApis;
  /**
   * More pages, by path pattern (a route ref's `path` works): `{ [claimRoute.path]: <p>claim</p> }`. Use
   * them to see where links and commands lead.
   */
  routes?: Record<string, ReactNode>;
  /** The path pattern the ui is mounted at. Default '/test-host'. */
  path?: string;
  /** The location to open; default `path`. */
  at?: string;
  /** Layout of the ui's page. Default 'default' (sidebars, top bar, activity sidebar). */
  layout?: Layout;
  /** false: the page is public (no guard redirect when `role` is null). Default true. */
  requiresAuth?: boolean;
  /** Your plugin's manifest(s): their routes, nav, commands, shortcuts and quick search are installed. */
  plugins?: PluginManifest[];
  /** ViewModule answers by module key; default every module is viewable. */
  canView?(moduleKey: string): boolean;
}

export interface TestHost extends Pick<MountedHost, 'container' | 'baseElement' | 'user' | 'asFragment' | 'debug'> {
  /** The router's current location. */
  location(): { pathname: string; search: string; hash: string };
  navigate(to: string): Promise<void>;
  /** Every API call the page made, in order (the shell's own calls included). */
  requests: RecordedApiRequest[];
  /** What `useHostServices()` returns inside the host. */
  services: HostServices;
  /** What `useSession()` returns now. */
  session(): SessionSnapshot;
  /** Switches the effective role, as the user menu's role switcher does. */
  setRole(role: string | null): Promise<void>;
  /** Ends the test host early (it is also torn down when the test finishes). */
  unmount(): void;
}

// Loaded on the first call, not on import: server-side tests import '@atrium/sdk/testing' too.
const loadTestHost = () => import('./mount-in-test-host.js');

/**
 * Loads the shell's code (a few seconds the first time in a test run). Optional: call it in
 * `beforeAll(preloadTestHost, 30_000)` so that cost does not count against the first test's timeout.
 */
export async function preloadTestHost(): Promise<void> {
  await loadTestHost();
}

export async function renderInTestHost(ui: ReactElement, options: TestHostOptions = {}): Promise<TestHost> {
  const { mountInTestHost } = await loadTestHost();
  return mountInTestHost(ui, options);
}
