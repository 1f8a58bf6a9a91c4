import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantPolicy } from '@atrium/sdk/testing';
import {
  JSONAPI,
  pointersOf,
  startUserManagementServer,
  UM,
  type UserManagementServer,
} from './user-management-server.js';

/** Issue 14, hole 10 (identity parts), on the installation as it ships (the real access module). */
let server: UserManagementServer;
let admin: string;
beforeAll(async () => {
  server = await startUserManagementServer();
  admin = await server.tokenOf('admin@atrium.test');
});
afterAll(async () => {
  await server?.close();
});

describe('profile picture', () => {
  it('refuses javascript: and other schemes; takes http(s) and data:image URLs', async () => {
    const token = await server.tokenOf('adjuster@atrium.test');
    const me = (await (await server.api('GET', '/users/me', token)).json()).data;
    const patch = (picture: string) =>
      server.api('PATCH', '/users/me', token, { data: { type: 'user', id: me.id, attributes: { picture } } });
    for (const hostile of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
    ]) {
      const refused = await patch(hostile);
      expect(refused.status, hostile).toBe(400);
      expect(await pointersOf(refused)).toEqual(['/data/attributes/picture']);
    }
    for (const fine of ['https://cdn.example.com/me.png', 'data:image/png;base64,iVBORw0KGgo=']) {
      const accepted = await patch(fine);
      expect(accepted.status, fine).toBe(200);
      expect((await accepted.json()).data.attributes.picture).toBe(fine);
    }
  });
});

describe('machine clients', () => {
  const asRole = (token: string, role: string) => ({
    accept: JSONAPI,
    'content-type': JSONAPI,
    authorization: `Bearer ${token}`,
    'x-effective-role': role,
  });
  const create = (headers: Record<string, string>, name: string, role: string) =>
    server.fetch(`${UM}/app-clients`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { type: 'app-client', attributes: { name, role } } }),
    });
  const revoke = (headers: Record<string, string>, id: string) => {
    const { ['content-type']: _bodyless, ...rest } = headers;
    return server.fetch(`${UM}/app-clients/${id}`, { method: 'DELETE', headers: rest });
  };
  const clientToken = async (id: string, secret: string) =>
    server.fetch('/api/identity/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });

  it('a user manager cannot create or revoke a client in a role they do not hold', async () => {
    await grantPolicy(server, {
      role: 'User Manager',
      username: 'underwriter@atrium.test',
      policy: {
        name: 'Manages machine clients',
        statements: [{ effect: 'allow', actions: ['create', 'delete'], resources: ['identity:app-client'] }],
      },
    });
    const manager = asRole(await server.tokenOf('underwriter@atrium.test'), 'User Manager');
    const escalation = await create(manager, 'Backdoor', 'Administrator');
    expect(escalation.status).toBe(403);
    expect(await pointersOf(escalation)).toEqual(['/data/attributes/role']);

    const own = await create(manager, 'Manager robot', 'User Manager');
    expect(own.status).toBe(201);

    const byAdmin = await create(asRole(admin, 'Administrator'), 'Admin robot', 'Administrator');
    expect(byAdmin.status).toBe(201);
    const adminClient = (await byAdmin.json()).data.id as string;
    const notTheirs = await revoke(manager, adminClient);
    expect(notTheirs.status).toBe(403);
  });

  it('revokes a client: its secret and its tokens stop working at once', async () => {
    const headers = asRole(admin, 'Administrator');
    const created = await (await create(headers, 'Nightly export', 'Underwriter')).json();
    const { id } = created.data;
    const secret = created.meta.client_secret;
    const issued = await clientToken(id, secret);
    expect(issued.status).toBe(200);
    const { access_token } = await issued.json();
    const signOut = () =>
      server.fetch('/api/identity/global-sign-out', {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}` },
      });
    // The token authenticates (400: a client has no sessions, not 401).
    expect((await signOut()).status).toBe(400);

    const revoked = await revoke(headers, id);
    expect(revoked.status).toBe(204);
    expect((await revoke(headers, id)).status).toBe(404);
    expect((await clientToken(id, secret)).status).toBe(401);
    expect((await signOut()).status).toBe(401);
  });

  it("global sign-out with a machine client's token answers 4xx, not 500", async () => {
    const created = await (await create(asRole(admin, 'Administrator'), 'Batch robot', 'Underwriter')).json();
    const { access_token } = await (await clientToken(created.data.id, created.meta.client_secret)).json();
    const answer = await server.fetch('/api/identity/global-sign-out', {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'NotAuthorizedException' });
  });
});
