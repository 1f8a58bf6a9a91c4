import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * The installation as it ships (every discovered plugin, so the access module's real evaluator and
 * role directory) with helpers for the JSON:API user-management routes.
 */
export const UM = '/api/identity/user-management';
export const JSONAPI = 'application/vnd.api+json';
export const DEMO_PASSWORD = 'Atrium!demo1';

export interface UserManagementServer extends TestServer {
  /** A JSON:API request; `token` signs it. */
  api(method: string, path: string, token: string | null, body?: unknown): Promise<Response>;
  signIn(username: string, password?: string): Promise<{ status: number; body: any }>;
  tokenOf(username: string, password?: string): Promise<string>;
  json(method: string, path: string, body: unknown, token?: string): Promise<Response>;
}

export async function startUserManagementServer(): Promise<UserManagementServer> {
  const server = await startTestServer();
  const json: UserManagementServer['json'] = (method, path, body, token) =>
    server.fetch(path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const test: UserManagementServer = Object.assign(server, {
    api: (method: string, path: string, token: string | null, body?: unknown) =>
      server.fetch(`${UM}${path}`, {
        method,
        headers: {
          accept: JSONAPI,
          ...(body === undefined ? {} : { 'content-type': JSONAPI }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    json,
    async signIn(username: string, password = DEMO_PASSWORD) {
      const response = await json('POST', '/api/identity/sign-in', { username, password });
      return { status: response.status, body: await response.json() };
    },
    async tokenOf(username: string, password = DEMO_PASSWORD) {
      const { status, body } = await test.signIn(username, password);
      if (!body.authentication_result)
        throw new Error(`Sign-in of ${username} answered ${status} ${JSON.stringify(body)}`);
      return body.authentication_result.access_token as string;
    },
  });
  return test;
}

export async function pointersOf(response: Response): Promise<string[]> {
  const body = (await response.json()) as { errors: { source?: { pointer?: string; parameter?: string } }[] };
  return body.errors.map((e) => e.source?.pointer ?? `?${e.source?.parameter}`);
}
