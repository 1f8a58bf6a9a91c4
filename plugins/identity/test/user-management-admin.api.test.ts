import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';
import { startOpenIdProvider, type TestOpenIdProvider } from './openid-provider.js';
import {
  JSONAPI,
  pointersOf,
  startUserManagementServer,
  UM,
  type UserManagementServer,
} from './user-management-server.js';

/**
 * The administrator's actions on a user — reset-password, set-temporary-password, is_active —
 * change what the user's next sign-in answers and end their sessions; plus link-to-provider,
 * app-clients and the gen2 migration routes.
 */
let server: UserManagementServer;
let admin: string;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  server = await startUserManagementServer();
  admin = await server.tokenOf('admin@atrium.test');
});
afterAll(async () => server?.close());

async function userIdOf(username: string): Promise<string> {
  const body = await (await server.api('GET', `/users?filter[username]=${encodeURIComponent(username)}`, admin)).json();
  return body.data[0].id;
}

async function signedInSession(username: string) {
  const { body } = await server.signIn(username);
  return body.authentication_result as { access_token: string; refresh_token: string };
}

const refresh = (refreshToken: string) =>
  server.json('POST', '/api/identity/tokens/refresh', { refresh_token: refreshToken });

describe('reset-password', () => {
  it('makes the next sign-in answer PasswordResetRequiredException and ends the sessions', async () => {
    const id = await userIdOf('underwriter@atrium.test');
    const session = await signedInSession('underwriter@atrium.test');
    expect((await server.api('GET', '/users/me', session.access_token)).status).toBe(200);

    const reset = await server.api('POST', `/users/${id}/reset-password`, admin);
    expect(reset.status).toBe(200);
    expect((await reset.json()).data.attributes.status).toBe('RESET_REQUIRED');

    expect((await server.api('GET', '/users/me', session.access_token)).status).toBe(401);
    expect((await refresh(session.refresh_token)).status).toBe(400);
    const signIn = await server.signIn('underwriter@atrium.test');
    expect(signIn.status).toBe(400);
    expect(signIn.body).toMatchObject({ code: 'PasswordResetRequiredException' });

    // The user resets with the e-mailed code and signs in again.
    const outbox = await server.fetch('/api/identity/dev/outbox?destination=underwriter%40atrium.test&limit=1');
    const code = ((await outbox.json()) as { messages: { code: string }[] }).messages[0]!.code;
    const confirmed = await server.json('POST', '/api/identity/forgot-password/confirm', {
      username: 'underwriter@atrium.test',
      code,
      password: 'Underwriter!new1',
    });
    expect(confirmed.status).toBe(200);
    expect((await server.signIn('underwriter@atrium.test', 'Underwriter!new1')).body.status).toBe('AUTHENTICATED');
  });

  it('answers 404 for an unknown user and 403 to a caller without the permission', async () => {
    expect((await server.api('POST', `/users/${MISSING}/reset-password`, admin)).status).toBe(404);
    const adjuster = await server.tokenOf('adjuster@atrium.test');
    expect(
      (await server.api('POST', `/users/${await userIdOf('author@atrium.test')}/reset-password`, adjuster)).status,
    ).toBe(403);
  });
});

describe('set-temporary-password', () => {
  it('answers meta.temporary_password; the next sign-in asks for a new password; sessions end', async () => {
    const id = await userIdOf('author@atrium.test');
    const session = await signedInSession('author@atrium.test');
    const response = await server.api('POST', `/users/${id}/set-temporary-password`, admin);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data.attributes.status).toBe('FORCE_CHANGE_PASSWORD');
    const temporary = body.meta.temporary_password as string;
    expect(temporary.length).toBeGreaterThanOrEqual(16);
    expect((await server.api('GET', '/users/me', session.access_token)).status).toBe(401);
    expect((await server.signIn('author@atrium.test')).status).toBe(400);
    const signIn = await server.signIn('author@atrium.test', temporary);
    expect(signIn.body.status).toBe('NEW_PASSWORD_REQUIRED');
  });

  it('takes a chosen temporary password that satisfies the policy, and refuses one that does not', async () => {
    const id = await userIdOf('sms@atrium.test');
    const chosen = await server.api('POST', `/users/${id}/set-temporary-password`, admin, {
      meta: { temporary_password: 'Chosen!temporary1' },
    });
    expect(chosen.status).toBe(200);
    expect((await chosen.json()).meta.temporary_password).toBe('Chosen!temporary1');
    expect((await server.signIn('sms@atrium.test', 'Chosen!temporary1')).body.status).toBe('NEW_PASSWORD_REQUIRED');
    const weak = await server.api('POST', `/users/${id}/set-temporary-password`, admin, {
      meta: { temporary_password: 'weak' },
    });
    expect(weak.status).toBe(400);
    expect(await pointersOf(weak)).toEqual(['/meta/temporary_password']);
    const unknown = await server.api('POST', `/users/${id}/set-temporary-password`, admin, { meta: { password: 'x' } });
    expect(unknown.status).toBe(400);
    expect(await pointersOf(unknown)).toEqual(['/meta/password']);
    // The refused attempts changed nothing.
    expect((await server.signIn('sms@atrium.test', 'Chosen!temporary1')).body.status).toBe('NEW_PASSWORD_REQUIRED');
    expect((await server.api('POST', `/users/${MISSING}/set-temporary-password`, admin)).status).toBe(404);
  });
});

describe('is_active', () => {
  it('false refuses sign-in and ends the sessions; true lets the user in again', async () => {
    const id = await userIdOf('agent@agency.test');
    const session = await signedInSession('agent@agency.test');
    const patch = (isActive: boolean) =>
      server.api('PATCH', `/users/${id}`, admin, { data: { type: 'user', id, attributes: { is_active: isActive } } });
    const off = await patch(false);
    expect(off.status).toBe(200);
    expect((await off.json()).data.attributes.is_active).toBe(false);
    expect((await server.api('GET', '/users/me', session.access_token)).status).toBe(401);
    expect((await refresh(session.refresh_token)).status).toBe(400);
    const refused = await server.signIn('agent@agency.test');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'NotAuthorizedException', detail: 'User is disabled.' });
    const inactive = await (await server.api('GET', '/users?filter[is_active]=false', admin)).json();
    expect(inactive.data.map((u: { id: string }) => u.id)).toContain(id);

    expect((await patch(true)).status).toBe(200);
    expect((await server.signIn('agent@agency.test')).body.status).toBe('AUTHENTICATED');
  });
});

describe('app-clients', () => {
  it('creates a machine client and shows its secret once', async () => {
    const created = await server.api('POST', '/app-clients', admin, {
      data: { type: 'app-client', attributes: { name: 'Rating engine', role: 'Underwriter' } },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe(JSONAPI);
    const body = await created.json();
    expect(body.data).toMatchObject({ type: 'app-client', attributes: { name: 'Rating engine', role: 'Underwriter' } });
    expect(body.data.attributes.client_id).toBe(body.data.id);
    expect(body.meta.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const duplicate = await server.api('POST', '/app-clients', admin, {
      data: { type: 'app-client', attributes: { name: 'RATING ENGINE', role: 'Underwriter' } },
    });
    expect(duplicate.status).toBe(400);
    expect(await pointersOf(duplicate)).toEqual(['/data/attributes/name']);
    const bad = await server.api('POST', '/app-clients', admin, {
      data: { type: 'app-client', attributes: { name: 7, scopes: ['all'] } },
    });
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad)).sort()).toEqual([
      '/data/attributes/name',
      '/data/attributes/role',
      '/data/attributes/scopes',
    ]);
    const noRole = await server.api('POST', '/app-clients', admin, {
      data: { type: 'app-client', attributes: { name: 'X' } },
    });
    expect(await pointersOf(noRole)).toEqual(['/data/attributes/role']);
  });
});

describe('client-credentials grant', () => {
  const createClient = async (name: string, role: string) => {
    const response = await server.api('POST', '/app-clients', admin, {
      data: { type: 'app-client', attributes: { name, role } },
    });
    const body = await response.json();
    return { id: body.data.id as string, secret: body.meta.client_secret as string };
  };
  const token = (init: { body: Record<string, unknown>; basic?: string }) =>
    server.fetch('/api/identity/oauth2/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(init.basic ? { authorization: `Basic ${Buffer.from(init.basic).toString('base64')}` } : {}),
      },
      body: JSON.stringify(init.body),
    });

  it('gives a machine client a token that acts in its one role, with the real evaluator', async () => {
    const reporting = await createClient('Reporting', 'Administrator');
    const response = await token({
      body: { grant_type: 'client_credentials' },
      basic: `${reporting.id}:${reporting.secret}`,
    });
    expect(response.status).toBe(200);
    const granted = await response.json();
    expect(granted).toMatchObject({ token_type: 'Bearer', expires_in: 3600, role: 'Administrator' });
    expect((await server.api('GET', '/users', granted.access_token)).status).toBe(200);

    const rating = await createClient('Rating', 'Underwriter');
    const underwriter = await (
      await token({ body: { grant_type: 'client_credentials', client_id: rating.id, client_secret: rating.secret } })
    ).json();
    expect((await server.api('GET', '/users', underwriter.access_token)).status).toBe(403);
    // Its role is fixed: naming another one changes nothing.
    const other = await server.fetch(`${UM}/users`, {
      headers: { authorization: `Bearer ${underwriter.access_token}`, 'x-effective-role': 'Administrator' },
    });
    expect(other.status).toBe(403);
  });

  it('refuses a wrong secret, an unknown client and another grant type', async () => {
    const client = await createClient('Batch', 'Underwriter');
    expect((await token({ body: { grant_type: 'client_credentials' }, basic: `${client.id}:wrong` })).status).toBe(401);
    expect(
      (await token({ body: { grant_type: 'client_credentials' }, basic: `${MISSING}:${client.secret}` })).status,
    ).toBe(401);
    expect((await token({ body: { grant_type: 'client_credentials' } })).status).toBe(401);
    expect((await token({ body: { grant_type: 'password' }, basic: `${client.id}:${client.secret}` })).status).toBe(
      400,
    );
  });
});

describe('gen2 migration without a legacy source', () => {
  it('answers 404 UserNotFoundException with the spec message, for known and unknown usernames alike', async () => {
    for (const username of ['nobody@atrium.test', 'admin@atrium.test']) {
      const migrate = await server.api('POST', '/migrate_gen2_contact', null, {
        data: { type: 'gen2-contact-migration', attributes: { username, password: 'Whatever!1234' } },
      });
      expect(migrate.status).toBe(404);
      expect((await migrate.json()).errors[0]).toMatchObject({
        code: 'UserNotFoundException',
        detail: "We're sorry, but this username could not be found.",
      });
      const forgot = await server.api('POST', '/migrate_gen2_contact_forgot_password', null, {
        data: { type: 'gen2-contact-migration', attributes: { username } },
      });
      expect(forgot.status).toBe(404);
      expect((await forgot.json()).errors[0].code).toBe('UserNotFoundException');
    }
    const bad = await server.api('POST', '/migrate_gen2_contact_forgot_password', null, {
      data: { type: 'gen2-contact-migration', attributes: { username: 3, extra: true } },
    });
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad)).sort()).toEqual(['/data/attributes/extra', '/data/attributes/username']);
  });
});

describe('gen2 migration with a legacy source (the migrateUnknownUser option)', () => {
  let identity: IdentityTestServer;
  let adminToken: string;
  const legacy = new Map([['legacy@atrium.test', 'Legacy!password1']]);

  beforeAll(async () => {
    identity = await startIdentityServer({
      plugin: {
        async migrateUnknownUser({ username, password }) {
          if (legacy.get(username) !== password) return false;
          const created = await identity.fetch(`${UM}/users`, {
            method: 'POST',
            headers: { ...bearer(adminToken), 'content-type': JSONAPI },
            body: JSON.stringify({
              data: { type: 'user', attributes: { username, name: 'Legacy Person', temporary_password: password } },
            }),
          });
          return created.status === 201;
        },
      },
    });
    adminToken = (await identity.tokensFor('admin@atrium.test')).access_token;
  });
  afterAll(async () => identity?.close());

  const migrate = (username: string, password: string) =>
    identity.fetch(`${UM}/migrate_gen2_contact`, {
      method: 'POST',
      headers: { 'content-type': JSONAPI },
      body: JSON.stringify({ data: { type: 'gen2-contact-migration', attributes: { username, password } } }),
    });

  it('migrates an account the legacy source knows, once', async () => {
    expect((await migrate('legacy@atrium.test', 'wrong')).status).toBe(404);
    const migrated = await migrate('Legacy@Atrium.test', 'Legacy!password1');
    expect(migrated.status).toBe(201);
    expect((await migrated.json()).meta).toEqual({ status: 'MIGRATED', username: 'legacy@atrium.test' });
    expect((await migrate('legacy@atrium.test', 'Legacy!password1')).status).toBe(404);
    expect((await identity.signIn('legacy@atrium.test', 'Legacy!password1')).body.status).toBe('NEW_PASSWORD_REQUIRED');
  });
});

describe('link-to-provider', () => {
  let idp: TestOpenIdProvider;
  let identity: IdentityTestServer;
  let adminHeaders: Record<string, string>;

  beforeAll(async () => {
    [identity, idp] = await Promise.all([startIdentityServer(), startOpenIdProvider()]);
    adminHeaders = bearer((await identity.tokensFor('admin@atrium.test')).access_token);
    const created = await identity.post(
      '/api/identity/oidc-providers',
      {
        name: 'Carrier SSO',
        issuer: idp.issuer,
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        redirect_uris: [idp.redirectUri],
      },
      adminHeaders,
    );
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await identity?.close();
    await idp?.close();
  });

  const send = (method: string, path: string, body?: unknown) =>
    identity.fetch(`${UM}${path}`, {
      method,
      headers: { ...adminHeaders, ...(body ? { 'content-type': JSONAPI } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const link = (id: string, attributes: Record<string, unknown>) =>
    send('POST', `/users/${id}/actions/link-to-provider`, { data: { type: 'provider-link', attributes } });

  it('links a user to a provider account, which then signs in as that user', async () => {
    const users = await (await send('GET', '/users?filter[username]=adjuster@atrium.test')).json();
    const id = users.data[0].id as string;
    const linked = await link(id, { provider_name: 'carrier sso', provider_user_id: 'casey-at-carrier' });
    expect(linked.status).toBe(201);
    expect((await linked.json()).data).toMatchObject({
      type: 'provider-link',
      attributes: { provider_name: 'Carrier SSO', provider_user_id: 'casey-at-carrier' },
      relationships: { user: { data: { type: 'user', id } } },
    });
    expect((await link(id, { provider_name: 'Carrier SSO', provider_user_id: 'casey-at-carrier' })).status).toBe(200);

    idp.signInAs({ sub: 'casey-at-carrier', email: 'casey@carrier.example', email_verified: true });
    const start = await identity.post('/api/identity/oidc/authorize', {
      provider_id: (await (await identity.get('/api/identity/oidc-providers')).json()).providers[0].id,
      redirect_uri: idp.redirectUri,
    });
    const callback = await idp.authorize(((await start.json()) as { authorization_url: string }).authorization_url);
    const signedIn = await identity.post('/api/identity/oidc/callback', callback);
    expect(signedIn.status).toBe(200);
    const token = ((await signedIn.json()) as { authentication_result: { access_token: string } }).authentication_result
      .access_token;
    const me = await identity.fetch(`${UM}/users/me`, { headers: bearer(token) });
    expect((await me.json()).data.attributes.username).toBe('adjuster@atrium.test');
  });

  it('refuses an unknown provider, an account linked to someone else, bad fields and unknown users', async () => {
    const users = await (await send('GET', '/users?filter[username]=underwriter@atrium.test')).json();
    const id = users.data[0].id as string;
    const unknownProvider = await link(id, { provider_name: 'Nope', provider_user_id: 'x' });
    expect(unknownProvider.status).toBe(400);
    expect(await pointersOf(unknownProvider)).toEqual(['/data/attributes/provider_name']);
    const taken = await link(id, { provider_name: 'Carrier SSO', provider_user_id: 'casey-at-carrier' });
    expect(taken.status).toBe(400);
    expect(await pointersOf(taken)).toEqual(['/data/attributes/provider_user_id']);
    const bad = await link(id, { provider_name: 'Carrier SSO', provider_user_id: 12, extra: 1 });
    expect((await pointersOf(bad)).sort()).toEqual(['/data/attributes/extra', '/data/attributes/provider_user_id']);
    expect((await link(MISSING, { provider_name: 'Carrier SSO', provider_user_id: 'y' })).status).toBe(404);
  });
});
