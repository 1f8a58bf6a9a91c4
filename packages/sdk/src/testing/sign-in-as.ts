import type { TestServer } from './test-server.js';

/**
 * API tests as a demo user: `as(server, 'adjuster@atrium.test')` signs in through the identity
 * module (real password check, real token) and answers a caller that sends requests with that
 * token; `grantPolicy` gives a user a role with one policy, as the demo administrator would through
 * the access API. Both need identity and access installed in the server (every demo account has
 * the password `Atrium!demo1`).
 */
export const DEMO_PASSWORD = 'Atrium!demo1';
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export interface Caller {
  /** `body` is sent as JSON (a string as it is); `headers` add to or replace the caller's own. */
  (method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  patch(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  delete(path: string, headers?: Record<string, string>): Promise<Response>;
  /** The bearer token the caller sends. */
  token: string;
}

export interface AsOptions {
  /** Put before every path, e.g. `/api/claims`. */
  base?: string;
  /** Sent on every request (e.g. `x-effective-role`). */
  headers?: Record<string, string>;
  /** `jsonapi`: accept and send `application/vnd.api+json`. Default `json`. */
  mediaType?: 'json' | 'jsonapi';
  password?: string;
}

// One sign-in per server and user: tokens outlive any test.
const tokens = new WeakMap<TestServer, Map<string, Promise<string>>>();

export function signIn(server: TestServer, username: string, password = DEMO_PASSWORD): Promise<string> {
  let byUser = tokens.get(server);
  if (!byUser) tokens.set(server, (byUser = new Map()));
  const key = `${username}\u0000${password}`;
  let token = byUser.get(key);
  if (!token) {
    token = (async () => {
      const response = await server.fetch('/api/identity/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const body = (await response.json()) as { authentication_result?: { access_token: string } };
      if (!body.authentication_result) throw new Error(`Sign-in of ${username} answered ${response.status}.`);
      return body.authentication_result.access_token;
    })();
    token.catch(() => byUser.delete(key));
    byUser.set(key, token);
  }
  return token;
}

export async function as(server: TestServer, username: string, options: AsOptions = {}): Promise<Caller> {
  const token = await signIn(server, username, options.password);
  const mediaType = options.mediaType === 'jsonapi' ? JSONAPI_MEDIA_TYPE : 'application/json';
  const call = ((method, path, body, headers = {}) =>
    server.fetch(`${options.base ?? ''}${path}`, {
      method,
      headers: {
        accept: mediaType,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': mediaType }),
        ...options.headers,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })) as Caller;
  call.get = (path, headers) => call('GET', path, undefined, headers);
  call.post = (path, body, headers) => call('POST', path, body, headers);
  call.patch = (path, body, headers) => call('PATCH', path, body, headers);
  call.delete = (path, headers) => call('DELETE', path, undefined, headers);
  call.token = token;
  return call;
}

/**
 * As the demo administrator: makes `role` (unless it exists) with a new policy of `statements`,
 * and gives the role to `username` when one is named (choose it with `x-effective-role`).
 */
export async function grantPolicy(
  server: TestServer,
  grant: { role: string; policy: { name: string; statements: unknown[] }; username?: string },
): Promise<void> {
  const admin = await as(server, 'admin@atrium.test');
  const post = async (path: string, body: unknown, allowConflict = false) => {
    const response = await admin.post(path, body);
    if (response.status >= 300 && !(allowConflict && response.status === 400)) {
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    }
    return (await response.json()) as { id?: number };
  };
  const roles = (await (await admin.get(`/api/access/roles?name=${encodeURIComponent(grant.role)}`)).json()) as {
    results?: { name: string }[];
  };
  if (!roles.results?.some((r) => r.name.toLowerCase() === grant.role.toLowerCase())) {
    await post('/api/access/roles', { name: grant.role });
  }
  const created = await post('/api/access/policies', grant.policy);
  await post('/api/access/policy-assignments', { policy_id: created.id, role: grant.role });
  if (grant.username) {
    await post('/api/access/role-user-name-assignments', { user_name: grant.username, role: grant.role });
  }
}
