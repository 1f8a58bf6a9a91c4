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
  as(username: string): Promise<Caller>;
}

export async function startClaimsServer(): Promise<ClaimsTestServer> {
  const server = await startTestServer({ plugins: [identityPlugin, accessPlugin, claimsPlugin] });
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
  return Object.assign(server, {
    async as(username: string): Promise<Caller> {
      const token = await tokenOf(username);
      return (method, path, body, headers = {}) =>
        server.fetch(`${BASE}${path}`, {
          method,
          headers: {
            accept: JSONAPI,
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': JSONAPI }),
            ...headers,
          },
          body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        });
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
