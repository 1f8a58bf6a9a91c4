import { as, grantPolicy, startTestServer, type TestServer } from '@atrium/sdk/testing';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import policiesPlugin from '@atrium/plugin-policies/server';

/**
 * A real server with identity, access, contacts and claims on a fresh seeded database. Callers sign in as the
 * demo users (real tokens, real access policies): the adjuster holds Claims Adjuster (claims:*),
 * the underwriter only reads, the agent reads and creates claims.
 */
export const JSONAPI = 'application/vnd.api+json';
export const BASE = '/api/claims';

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

export async function startClaimsServer(
  options: {
    env?: Record<string, string>;
    /** Installs policies too (the FNOL's real policies). */ policies?: boolean;
    /**
     * Seeds only these plugins, under a template of this name. Without it the server starts from the
     * template of every installed plugin (docs/testing.md), so a seed that depends on which plugins
     * are present (the claims demo without policies) needs its own.
     */
    ownTemplate?: string;
  } = {},
): Promise<ClaimsTestServer> {
  const plugins = options.policies
    ? [identityPlugin, accessPlugin, contactsPlugin, policiesPlugin, claimsPlugin]
    : // Claims' contacts are the contact store's (contacts.records): contacts is always installed.
      [identityPlugin, accessPlugin, contactsPlugin, claimsPlugin];
  const server = await startTestServer({ plugins, env: options.env, template: options.ownTemplate });
  return Object.assign(server, {
    as: (username: string, headers: Record<string, string> = {}): Promise<Caller> =>
      as(server, username, { base: BASE, mediaType: 'jsonapi', headers }),
    grantRole: (role: string, username: string, policy: { name: string; statements: unknown[] }) =>
      grantPolicy(server, { role, username, policy }),
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
