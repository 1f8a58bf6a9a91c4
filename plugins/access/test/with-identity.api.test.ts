import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * The installation as it ships (every discovered plugin): a user signs in through identity with the
 * demo password, and the access module's evaluator decides what their token may do. Identity's
 * POST /api/access/role-select lives beside the access module's routes under the same prefix.
 */
const DEMO_PASSWORD = 'Atrium!demo1';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function tokenOf(username: string): Promise<string> {
  const response = await server.fetch('/api/identity/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { authentication_result?: { access_token: string } };
  if (!body.authentication_result)
    throw new Error(`Sign-in of ${username} answered ${response.status} ${JSON.stringify(body)}`);
  return body.authentication_result.access_token;
}

describe('with the identity module', () => {
  it('installs the access module as the evaluator and role directory', () => {
    const providers = server.atrium.plugins
      .filter((p) => p.provides?.accessEvaluator || p.provides?.roleDirectory)
      .map((p) => p.id);
    expect(providers).toEqual(['access']);
  });

  it('lets a signed-in administrator manage access, and refuses an adjuster', async () => {
    const admin = await tokenOf('admin@atrium.test');
    expect((await server.fetch('/api/access/policies', { headers: { authorization: `Bearer ${admin}` } })).status).toBe(
      200,
    );
    const adjuster = await tokenOf('adjuster@atrium.test');
    const refused = await server.fetch('/api/access/policies', { headers: { authorization: `Bearer ${adjuster}` } });
    expect(refused.status).toBe(403);
    const evaluations = await server.fetch('/api/access/evaluations', {
      method: 'POST',
      headers: { authorization: `Bearer ${adjuster}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requests: [
          { resource: 'ui:claims', action: 'ViewModule' },
          { resource: 'ui:access', action: 'ViewModule' },
        ],
      }),
    });
    expect(await evaluations.json()).toEqual({
      results: [
        { evaluation: { allowed: true, reason: 'allowed-by-statement' } },
        { evaluation: { allowed: false, reason: 'no-matching-statement' } },
      ],
    });
  });

  it('asks a user with two roles to choose one (ingress-denied), then acts in the chosen role', async () => {
    const multi = await tokenOf('multi@atrium.test');
    const unchosen = await server.fetch('/api/access/roles', { headers: { authorization: `Bearer ${multi}` } });
    expect(unchosen.status).toBe(403);
    expect(await unchosen.json()).toMatchObject({ ingress_denied: true, annotation: 'no-effective-role' });
    const chosen = await server.fetch('/api/access/evaluations', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${multi}`,
        'x-effective-role': 'Underwriter',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        requests: [
          { resource: 'ui:quote', action: 'ViewModule' },
          { resource: 'ui:claims', action: 'ViewModule' },
        ],
      }),
    });
    expect(
      (await chosen.json()).results.map((r: { evaluation: { allowed: boolean } }) => r.evaluation.allowed),
    ).toEqual([true, false]);
  });

  it("keeps identity's role-select beside the access routes", async () => {
    const multi = await tokenOf('multi@atrium.test');
    const response = await server.fetch('/api/access/role-select', {
      method: 'POST',
      headers: { authorization: `Bearer ${multi}`, 'content-type': 'application/json' },
      body: JSON.stringify({ effective_role: 'Claims Adjuster' }),
    });
    expect(response.status).toBe(200);
  });

  it('lists the access routes in the OpenAPI document with their permissions', async () => {
    const document = await (await server.fetch('/api/docs/json')).json();
    expect(document.paths['/api/access/policies'].get['x-atrium-access']).toEqual({
      resource: 'access:policy',
      action: 'read',
    });
    expect(document.paths['/api/access/evaluations'].post['x-atrium-access']).toBe('authenticated');
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/access/')).length).toBeGreaterThan(15);
  });

  it('signs in the demo claims supervisor in the Claims Supervisor role', async () => {
    const supervisor = await tokenOf('supervisor@atrium.test');
    const response = await server.fetch('/api/access/evaluations', {
      method: 'POST',
      headers: { authorization: `Bearer ${supervisor}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requests: [
          { resource: 'claims:transaction', action: 'approve' },
          { resource: 'claims:payment', action: 'approve', record: { amount: '25000.01' } },
        ],
      }),
    });
    expect(
      ((await response.json()) as { results: { evaluation: { allowed: boolean } }[] }).results.map(
        (r) => r.evaluation.allowed,
      ),
    ).toEqual([true, false]);
  });

  it('gives roles only to users and groups that exist in user management', async () => {
    const admin = await tokenOf('admin@atrium.test');
    const post = (path: string, body: unknown) =>
      server.fetch(`/api/access/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const nobody = await post('role-user-name-assignments', { user_name: 'nobody@atrium.test', role: 'Underwriter' });
    expect(nobody.status).toBe(400);
    expect((await nobody.json()).errors).toEqual([
      { detail: "User 'nobody@atrium.test' does not exist.", pointer: '/user_name' },
    ]);
    const noGroup = await post('role-group-name-assignments', { group_name: 'Nobody at all', role: 'Underwriter' });
    expect(noGroup.status).toBe(400);
    expect((await noGroup.json()).errors).toEqual([
      { detail: "Group 'Nobody at all' does not exist.", pointer: '/group_name' },
    ]);
    const created = await server.fetch('/api/identity/user-management/groups', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${admin}`,
        accept: 'application/vnd.api+json',
        'content-type': 'application/vnd.api+json',
      },
      body: JSON.stringify({ data: { type: 'group', attributes: { name: 'Night Shift' } } }),
    });
    expect(created.status).toBe(201);
    const group = await post('role-group-name-assignments', { group_name: 'night shift', role: 'Underwriter' });
    expect(group.status).toBe(201);

    const existing = await post('role-user-name-assignments', { user_name: 'Author@Atrium.test', role: 'Underwriter' });
    expect(existing.status).toBe(201);
    expect(await existing.json()).toMatchObject({ user_name: 'author@atrium.test', role: 'Underwriter' });
  });

  it("answers the shell's carrier metadata to every signed-in user, in any role or none yet", async () => {
    for (const username of ['agent@agency.test', 'adjuster@atrium.test', 'multi@atrium.test']) {
      const response = await server.fetch('/api/v2/utils/meta', {
        headers: { authorization: `Bearer ${await tokenOf(username)}` },
      });
      expect(response.status, username).toBe(200);
      expect(await response.json()).toMatchObject({ success: true, data: { claim_prefix: 'CLM' } });
    }
    expect((await server.fetch('/api/v2/utils/meta')).status).toBe(401);
  });

  it('writes an event for every change to who may do what: users, roles and assignments', async () => {
    const admin = await tokenOf('admin@atrium.test');
    const call = (method: string, path: string, body: unknown, jsonapi = false) =>
      server.fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${admin}`,
          'content-type': jsonapi ? 'application/vnd.api+json' : 'application/json',
          ...(jsonapi ? { accept: 'application/vnd.api+json' } : {}),
        },
        body: JSON.stringify(body),
      });
    const role = await call('POST', '/api/access/roles', { name: 'SIEM Watchers' });
    expect(role.status).toBe(201);
    const roleId = String(((await role.json()) as { id: number }).id);
    const user = await call(
      'POST',
      '/api/identity/user-management/users',
      { data: { type: 'user', attributes: { username: 'watcher@atrium.test', name: 'Wren Watcher' } } },
      true,
    );
    expect(user.status).toBe(201);
    const userId = ((await user.json()) as { data: { id: string } }).data.id;
    const assigned = await call('POST', '/api/access/role-user-name-assignments', {
      user_name: 'watcher@atrium.test',
      role: 'SIEM Watchers',
    });
    expect(assigned.status).toBe(201);
    const off = await call(
      'PATCH',
      `/api/identity/user-management/users/${userId}`,
      { data: { type: 'user', id: userId, attributes: { is_active: false } } },
      true,
    );
    expect(off.status).toBe(200);

    // This test's changes (other tests change access too).
    const { rows } = await server.atrium.database.pool.query<{ topic: string; data: Record<string, unknown> }>(
      `select topic, data from core.event_outbox
        where (topic like 'access.%' or topic like 'identity.%')
          and (data::text like '%SIEM Watchers%' or data::text like '%watcher@atrium.test%') order by id`,
    );
    expect(rows.map((r) => r.topic)).toEqual([
      'access.role.created',
      'identity.user.created',
      'access.assignment.created',
      'identity.user.updated',
      'identity.user.deactivated',
    ]);
    expect(rows[0]!.data).toEqual({
      id: roleId,
      name: 'SIEM Watchers',
      subject: null,
      changed_by: 'admin@atrium.test',
    });
    expect(rows[2]!.data).toMatchObject({ name: 'SIEM Watchers', subject: "User 'watcher@atrium.test'" });
    expect(rows[3]!.data).toMatchObject({ user_id: userId, is_active: false, changed: ['is_active'] });
    // No secret ever travels in an event: the temporary password is nowhere.
    expect(JSON.stringify(rows)).not.toMatch(/password/i);
  });
});
