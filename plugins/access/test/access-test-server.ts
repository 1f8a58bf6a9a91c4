import { defineServerPlugin, type Principal, type ServerPluginDefinition } from '@atrium/sdk/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import { createAccessPlugin } from '../server/plugin.js';

/**
 * A real server with the access module on a fresh, seeded database, and a stand-in for identity
 * that resolves callers the way identity will: `Authorization: Bearer test:<user name>` names the
 * user, the role directory of the access module says which roles they hold, `X-Effective-Role`
 * chooses one (a user with one role acts in it), `X-Test-Groups` lists their groups and
 * `X-Test-Attributes` (JSON) their attributes for conditions.
 */
export const EFFECTIVE_ROLE = 'x-effective-role';

const testIdentity = defineServerPlugin({
  id: 'test-identity',
  provides: {
    authenticator: (context) => ({
      async authenticate(request): Promise<Principal | null> {
        const header = request.headers.authorization;
        const match = typeof header === 'string' ? /^Bearer test:(.+)$/.exec(header) : null;
        if (!match) return null;
        const username = match[1]!;
        const groupsHeader = request.headers['x-test-groups'];
        const groups = typeof groupsHeader === 'string' && groupsHeader ? groupsHeader.split(',') : [];
        const roles = await context.services.roleDirectory!.rolesOf({ username, groups });
        const named = request.headers[EFFECTIVE_ROLE];
        const effectiveRole =
          typeof named === 'string' ? (roles.includes(named) ? named : null) : roles.length === 1 ? roles[0]! : null;
        const attributes = request.headers['x-test-attributes'];
        return {
          kind: 'user',
          subject: username,
          username,
          effectiveRole,
          roles,
          attributes: typeof attributes === 'string' ? (JSON.parse(attributes) as Record<string, unknown>) : {},
        };
      },
    }),
  },
});

export interface Caller {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
  put(path: string, body: unknown): Promise<Response>;
  patch(path: string, body: unknown): Promise<Response>;
  delete(path: string): Promise<Response>;
  send(method: string, path: string, init?: { body?: BodyInit; headers?: Record<string, string> }): Promise<Response>;
}

export interface AccessTestServer extends TestServer {
  /** Calls as a user (by user name); null calls without credentials. */
  as(
    username: string | null,
    options?: { role?: string; groups?: string[]; attributes?: Record<string, unknown> },
  ): Caller;
  admin: Caller;
}

export async function startAccessServer(
  extraPlugins: ServerPluginDefinition[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<AccessTestServer> {
  // The stand-in identity writes nothing, so servers of the same plugins seed the same database.
  const server = await startTestServer({
    plugins: [createAccessPlugin(), testIdentity, ...extraPlugins],
    template: 'access-test-identity',
    ...(options.env ? { env: options.env } : {}),
  });
  const as: AccessTestServer['as'] = (username, options = {}) => {
    const headers: Record<string, string> = {};
    if (username) headers.authorization = `Bearer test:${username}`;
    if (options.role) headers[EFFECTIVE_ROLE] = options.role;
    if (options.groups) headers['x-test-groups'] = options.groups.join(',');
    if (options.attributes) headers['x-test-attributes'] = JSON.stringify(options.attributes);
    const send: Caller['send'] = (method, path, init = {}) =>
      server.fetch(path, { method, body: init.body, headers: { ...headers, ...init.headers } });
    const json = (method: string) => (path: string, body: unknown) =>
      send(method, path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return {
      send,
      get: (path) => send('GET', path),
      delete: (path) => send('DELETE', path),
      post: json('POST'),
      put: json('PUT'),
      patch: json('PATCH'),
    };
  };
  return Object.assign(server, { as, admin: as('admin@atrium.test') });
}

/** The pointers of a problem document's errors. */
export async function pointersOf(response: Response): Promise<string[]> {
  const body = (await response.json()) as { errors: { pointer?: string; parameter?: string }[] };
  return body.errors.map((e) => e.pointer ?? `?${e.parameter}`);
}
