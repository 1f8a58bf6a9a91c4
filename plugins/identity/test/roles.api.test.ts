import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineServerPlugin } from '@atrium/sdk/server';
import { user } from '../server/tables.js';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('roles at sign-in', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const token = async (username: string) => (await server.tokensFor(username)).access_token;
  const session = async (headers: Record<string, string>) =>
    (await server.get('/api/identity/session', headers)).json();

  it("retrieve_all_roles answers the caller's roles in the classic envelope", async () => {
    const response = await server.post(
      '/api/v2/contacts/retrieve_all_roles',
      { login_only: true },
      bearer(await token('multi@atrium.test')),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      data: [{ name: 'Claims Adjuster' }, { name: 'Underwriter' }],
    });
    expect((await server.post('/api/v2/contacts/retrieve_all_roles', { login_only: true })).status).toBe(401);
  });

  it("role-select accepts one of the caller's roles and sets the chosen_role cookie", async () => {
    const access = await token('multi@atrium.test');
    const response = await server.post('/api/access/role-select', { effective_role: 'Underwriter' }, bearer(access));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ effective_role: 'Underwriter' });
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^chosen_role=Underwriter; Path=\/; Max-Age=\d+; SameSite=Lax$/);

    // With several roles and no choice there is no effective role; the cookie or the header choose.
    expect((await session(bearer(access))).effective_role).toBeNull();
    expect((await session(bearer(access, { cookie: cookie.split(';')[0]! }))).effective_role).toBe('Underwriter');
    expect((await session(bearer(access, { 'x-effective-role': 'Claims Adjuster' }))).effective_role).toBe(
      'Claims Adjuster',
    );
    expect((await session(bearer(access, { 'x-effective-role': 'Administrator' }))).effective_role).toBeNull();
  });

  it('role-select refuses a role the caller does not hold', async () => {
    const response = await server.post(
      '/api/access/role-select',
      { effective_role: 'Administrator' },
      bearer(await token('adjuster@atrium.test')),
    );
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toBe(
      "unable to determine effective role: user is not eligible to role 'Administrator'",
    );
  });

  it('role-select tells a user without roles that they are not eligible to any role', async () => {
    await server.atrium.database.db.update(user).set({ roles: [] }).where(eq(user.username, 'author@atrium.test'));
    const access = await token('author@atrium.test');
    const response = await server.post(
      '/api/access/role-select',
      { effective_role: 'Product and Rules Author' },
      bearer(access),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      detail: 'unable to determine effective role: user is not eligible to any role',
      code: 'no-role-assignment',
      ingress_denied: true,
    });
    const roles = await server.post('/api/v2/contacts/retrieve_all_roles', {}, bearer(access));
    expect(await roles.json()).toEqual({ success: true, data: [] });
  });

  it('permission-checked routes see the effective role from the header', async () => {
    const access = await token('admin@atrium.test');
    expect(
      (await server.put('/api/identity/settings/mfa-settings', { mfa_configuration: 'optional' }, bearer(access)))
        .status,
    ).toBe(200);
    const elsewhere = await server.put(
      '/api/identity/settings/mfa-settings',
      { mfa_configuration: 'optional' },
      bearer(access, { 'x-effective-role': 'Agent' }),
    );
    expect(elsewhere.status).toBe(403);
  });
});

describe('roles from the access module when it is installed', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    const directory = defineServerPlugin({
      id: 'test-role-directory',
      provides: {
        roleDirectory: () => ({
          rolesOf: async ({ username }) =>
            username === 'adjuster@atrium.test' ? ['Claims Adjuster', 'Administrator'] : [],
        }),
      },
    });
    server = await startIdentityServer({ extraPlugins: [directory] });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("asks the role directory instead of the user's own roles column", async () => {
    const access = (await server.tokensFor('adjuster@atrium.test')).access_token;
    const roles = await server.post('/api/v2/contacts/retrieve_all_roles', {}, bearer(access));
    expect(await roles.json()).toEqual({
      success: true,
      data: [{ name: 'Claims Adjuster' }, { name: 'Administrator' }],
    });
    const session = await (
      await server.get('/api/identity/session', bearer(access, { 'x-effective-role': 'Administrator' }))
    ).json();
    expect(session).toMatchObject({
      groups: ['Claims Adjuster', 'Administrator'],
      is_admin: true,
      effective_role: 'Administrator',
    });
    const selected = await server.post('/api/access/role-select', { effective_role: 'Administrator' }, bearer(access));
    expect(selected.status).toBe(200);

    const underwriter = (await server.tokensFor('underwriter@atrium.test')).access_token;
    const none = await server.post('/api/access/role-select', { effective_role: 'Underwriter' }, bearer(underwriter));
    expect((await none.json()).detail).toBe('unable to determine effective role: user is not eligible to any role');
  });
});
