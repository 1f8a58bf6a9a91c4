import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import identityPlugin from '@atrium/plugin-identity/server';

/**
 * A real server with identity, access and claims on a fresh seeded database. Callers sign in as the
 * demo users (real tokens, real access policies): the adjuster holds Claims Adjuster (claims:*),
 * the underwriter only reads, the agent reads and creates claims.
 */
export const JSONAPI = 'application/vnd.api+json';
export const BASE = '/api/claims';
const DEMO_PASSWORD = 'Atrium!demo1';

export interface Caller {
  (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface ClaimsTestServer extends TestServer {
  /** A caller signed in as a demo user; `headers` go on every request (e.g. x-effective-role). */
  as(username: string, headers?: Record<string, string>): Promise<Caller>;
  /**
   * As the demo administrator: creates `role` with one policy of `statements` and gives it to
   * `username` (the role is then chosen with x-effective-role).
   */
  grantRole(role: string, username: string, policy: { name: string; statements: unknown[] }): Promise<void>;
}

export async function startClaimsServer(options: { env?: Record<string, string> } = {}): Promise<ClaimsTestServer> {
  const server = await startTestServer({ plugins: [identityPlugin, accessPlugin, claimsPlugin], env: options.env });
  const tokens = new Map<string, string>();
  const tokenOf = async (username: string) => {
    if (tokens.has(username)) return tokens.get(username)!;
    const response = await server.fetch('/api/identity/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: DEMO_PASSWORD }),
    });
    const body = (await response.json()) as { authentication_result?: { access_token: string } };
    if (!body.authentication_result) throw new Error(`Sign-in of ${username} answered ${response.status}`);
    tokens.set(username, body.authentication_result.access_token);
    return body.authentication_result.access_token;
  };
  const adminPost = async (path: string, body: unknown): Promise<{ id?: number }> => {
    const response = await server.fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenOf('admin@atrium.test')}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as { id?: number };
  };
  return Object.assign(server, {
    async as(username: string, always: Record<string, string> = {}): Promise<Caller> {
      const token = await tokenOf(username);
      return (method, path, body, headers = {}) =>
        server.fetch(`${BASE}${path}`, {
          method,
          headers: {
            accept: JSONAPI,
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': JSONAPI }),
            ...always,
            ...headers,
          },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
    },
    async grantRole(role: string, username: string, policy: { name: string; statements: unknown[] }) {
      await adminPost('/api/access/roles', { name: role });
      const created = await adminPost('/api/access/policies', policy);
      await adminPost('/api/access/policy-assignments', { policy_id: created.id, role });
      await adminPost('/api/access/role-user-name-assignments', { user_name: username, role });
    },
  });
}

/** The pointers (or parameter names, as `?name`) of a JSON:API error document. */
export async function pointersOf(response: Response): Promise<string[]> {
  const body = (await response.json()) as {
    errors: { source?: { pointer?: string; parameter?: string; header?: string } }[];
  };
  return body.errors.map(
    (e) => e.source?.pointer ?? (e.source?.parameter ? `?${e.source.parameter}` : `header:${e.source?.header}`),
  );
}

export async function detailOf(response: Response): Promise<string> {
  const body = (await response.json()) as { errors: { detail: string }[] };
  return body.errors[0]!.detail;
}

export const doc = (type: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type, attributes, ...extra },
});
