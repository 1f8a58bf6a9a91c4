import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import { defineServerPlugin, type Principal, type ServerPluginDefinition } from '@atrium/sdk/server';
import { ManualClock } from '../server/clock.js';
import { createIdentityPlugin, type IdentityPluginOptions, type SignInRateLimits } from '../server/plugin.js';

/**
 * A real server with the identity module on a fresh database, its clock under the test's control,
 * and (for routes that need a permission) a stand-in evaluator that lets Administrators through,
 * until the access module supplies the real one.
 */
export interface IdentityTestServer extends TestServer {
  clock: ManualClock;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** The newest code the outbox holds for a destination (phone number or e-mail address). */
  latestCode(destination: string): Promise<string>;
  signIn(username: string, password?: string): Promise<{ status: number; body: any }>;
  /** Signs in an account without MFA and returns its tokens. */
  tokensFor(username: string): Promise<{ access_token: string; refresh_token: string }>;
}

export const DEMO_PASSWORD = 'Atrium!demo1';

const administratorsOnly = defineServerPlugin({
  id: 'test-access',
  provides: {
    accessEvaluator: () => ({
      evaluate: (principal: Principal) => ({
        allowed: principal.effectiveRole === 'Administrator',
        reason: 'denied-by-statement',
      }),
    }),
  },
});

/**
 * Test files sign in dozens of times a minute from one address: their servers allow that unless a
 * test asks for the real limits (throttling.api.test.ts). The limits change no stored data, so the
 * seeded template stays the same.
 */
export const TEST_SIGN_IN_RATE_LIMITS: SignInRateLimits = { perSourcePerMinute: 100_000, allSourcesPerMinute: 100_000 };

export async function startIdentityServer(
  options: {
    clock?: ManualClock;
    plugin?: IdentityPluginOptions;
    extraPlugins?: ServerPluginDefinition[];
    signInRateLimits?: SignInRateLimits;
  } = {},
): Promise<IdentityTestServer> {
  const clock = options.clock ?? new ManualClock(Date.now());
  const server = await startTestServer({
    plugins: [
      createIdentityPlugin({
        signInRateLimits: options.signInRateLimits ?? TEST_SIGN_IN_RATE_LIMITS,
        ...options.plugin,
        clock,
        devOutboxRoute: true,
      }),
      administratorsOnly,
      ...(options.extraPlugins ?? []),
    ],
    // The identity seed depends on its options (password hashing) but not on the clock beyond dating
    // its rows: servers with the default options copy one template.
    template: options.plugin || options.extraPlugins ? undefined : 'identity-administrators-only',
  });
  const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.fetch(path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const test: IdentityTestServer = {
    ...server,
    clock,
    post: (path, body, headers) => send('POST', path, body, headers),
    put: (path, body, headers) => send('PUT', path, body, headers),
    get: (path, headers) => send('GET', path, undefined, headers),
    async latestCode(destination) {
      const response = await send(
        'GET',
        `/api/identity/dev/outbox?destination=${encodeURIComponent(destination)}&limit=1`,
      );
      const body = (await response.json()) as { messages: { code: string }[] };
      const message = body.messages[0];
      if (!message) throw new Error(`No message for ${destination} in the outbox.`);
      return message.code;
    },
    async signIn(username, password = DEMO_PASSWORD) {
      const response = await send('POST', '/api/identity/sign-in', { username, password });
      return { status: response.status, body: await response.json() };
    },
    async tokensFor(username) {
      const { status, body } = await test.signIn(username);
      if (status !== 200 || body.status !== 'AUTHENTICATED')
        throw new Error(`Sign-in of ${username} answered ${status} ${JSON.stringify(body)}`);
      return body.authentication_result;
    },
  };
  return test;
}

export const bearer = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});
