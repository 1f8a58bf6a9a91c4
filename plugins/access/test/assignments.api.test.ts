import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer } from './access-test-server.js';

let server: AccessTestServer;
let customPolicyId: number;
beforeAll(async () => {
  server = await startAccessServer();
  const created = await server.admin.post('/api/access/policies', {
    name: 'Read reports',
    statements: [{ effect: 'allow', actions: ['read'], resources: ['reports:*'] }],
  });
  customPolicyId = (await created.json()).id;
});
afterAll(async () => server?.close());

describe('policy-assignments', () => {
  it('lists the seeded assignments, filtered by policy and role, 10000 a page', async () => {
    const all = await (await server.admin.get('/api/access/policy-assignments')).json();
    expect(all.count).toBe(14);
    expect(all.results).toContainEqual({
      id: expect.any(Number),
      policy_id: expect.any(Number),
      role: 'Administrator',
    });
    const adjuster = await (await server.admin.get('/api/access/policy-assignments?role=claims%20adjuster')).json();
    expect(adjuster.results).toHaveLength(2);
    const basics = adjuster.results[0].policy_id;
    const byPolicy = await (
      await server.admin.get(`/api/access/policy-assignments?policy_id=${basics}&ordering=-role`)
    ).json();
    expect(byPolicy.results.map((a: { role: string }) => a.role)).toEqual([
      'Underwriter',
      'Product and Rules Author',
      'Claims Supervisor',
      'Claims Adjuster',
      'Agent',
      'Agency',
      'Administrator',
    ]);
    const size = await (await server.admin.get('/api/access/policy-assignments?page_size=5')).json();
    expect(size.results).toHaveLength(5);
    expect(await pointersOf(await server.admin.get('/api/access/policy-assignments?policy_id=abc'))).toEqual([
      '?policy_id',
    ]);
  });

  it('assigns a policy to a role, and changes and removes the assignment', async () => {
    const created = await server.admin.post('/api/access/policy-assignments', {
      policy_id: customPolicyId,
      role: 'agent',
    });
    expect(created.status).toBe(201);
    const assignment = await created.json();
    expect(assignment).toEqual({ id: expect.any(Number), policy_id: customPolicyId, role: 'Agent' });
    expect(await (await server.admin.get(`/api/access/policy-assignments/${assignment.id}`)).json()).toEqual(
      assignment,
    );

    const patched = await (
      await server.admin.patch(`/api/access/policy-assignments/${assignment.id}`, { role: 'Agency' })
    ).json();
    expect(patched).toEqual({ ...assignment, role: 'Agency' });
    const replaced = await (
      await server.admin.put(`/api/access/policy-assignments/${assignment.id}`, {
        policy_id: customPolicyId,
        role: 'Underwriter',
      })
    ).json();
    expect(replaced).toEqual({ ...assignment, role: 'Underwriter' });
    expect((await server.admin.delete(`/api/access/policy-assignments/${assignment.id}`)).status).toBe(204);
    expect((await server.admin.get(`/api/access/policy-assignments/${assignment.id}`)).status).toBe(404);
  });

  it('refuses duplicates, unknown policies and roles, and bad input, with pointers', async () => {
    await server.admin.post('/api/access/policy-assignments', { policy_id: customPolicyId, role: 'Agent' });
    const duplicate = await server.admin.post('/api/access/policy-assignments', {
      policy_id: customPolicyId,
      role: 'AGENT',
    });
    expect(duplicate.status).toBe(400);
    expect((await duplicate.json()).errors).toEqual([
      { detail: `Policy ${customPolicyId} is already assigned to role 'AGENT'.`, pointer: '/role' },
    ]);
    const noPolicy = await server.admin.post('/api/access/policy-assignments', { policy_id: 999999, role: 'Agent' });
    expect((await noPolicy.json()).errors).toEqual([
      { detail: 'Policy 999999 does not exist.', pointer: '/policy_id' },
    ]);
    const noRole = await server.admin.post('/api/access/policy-assignments', {
      policy_id: customPolicyId,
      role: 'Astronaut',
    });
    expect((await noRole.json()).errors).toEqual([{ detail: "Role 'Astronaut' does not exist.", pointer: '/role' }]);
    expect(
      await pointersOf(await server.admin.post('/api/access/policy-assignments', { policy_id: '3', role: 'Agent' })),
    ).toEqual(['/policy_id']);
    expect(
      await pointersOf(
        await server.admin.post('/api/access/policy-assignments', { policy_id: 3, role: 'Agent', note: 'x' }),
      ),
    ).toEqual(['/note']);
    expect(await pointersOf(await server.admin.post('/api/access/policy-assignments', { role: 'Agent' }))).toEqual([
      '/policy_id',
    ]);
    expect((await server.admin.patch('/api/access/policy-assignments/999999', { role: 'Agent' })).status).toBe(404);
    expect((await server.admin.delete('/api/access/policy-assignments/999999')).status).toBe(404);
  });

  it('drops the assignments of a deleted policy', async () => {
    const policy = await (
      await server.admin.post('/api/access/policies', { name: 'Goes away', statements: [] })
    ).json();
    await server.admin.post('/api/access/policy-assignments', { policy_id: policy.id, role: 'Agent' });
    await server.admin.delete(`/api/access/policies/${policy.id}`);
    expect((await (await server.admin.get(`/api/access/policy-assignments?policy_id=${policy.id}`)).json()).count).toBe(
      0,
    );
  });
});

describe('role-user-name-assignments', () => {
  it('lists the demo users by user name and role', async () => {
    const all = await (await server.admin.get('/api/access/role-user-name-assignments?ordering=user_name,role')).json();
    expect(all.count).toBe(11);
    expect(
      all.results
        .filter((a: { user_name: string }) => a.user_name === 'multi@atrium.test')
        .map((a: { role: string }) => a.role),
    ).toEqual(['Claims Adjuster', 'Underwriter']);
    const admins = await (await server.admin.get('/api/access/role-user-name-assignments?role=Administrator')).json();
    expect(admins.results.map((a: { user_name: string }) => a.user_name)).toEqual(['admin@atrium.test']);
    const one = await (
      await server.admin.get('/api/access/role-user-name-assignments?user_name=Agent@Agency.test')
    ).json();
    expect(one.results).toEqual([{ id: expect.any(Number), user_name: 'agent@agency.test', role: 'Agent' }]);
  });

  it('gives a user a role (user names are lower-cased) and takes it away', async () => {
    const created = await server.admin.post('/api/access/role-user-name-assignments', {
      user_name: ' New.Person@Atrium.test ',
      role: 'Underwriter',
    });
    expect(created.status).toBe(201);
    const assignment = await created.json();
    expect(assignment).toEqual({ id: expect.any(Number), user_name: 'new.person@atrium.test', role: 'Underwriter' });
    const evaluate = () =>
      server
        .as('new.person@atrium.test')
        .post('/api/access/evaluations', { requests: [{ resource: 'ui:policies', action: 'ViewModule' }] })
        .then((r) => r.json());
    expect((await evaluate()).results[0].evaluation.allowed).toBe(true);

    const duplicate = await server.admin.post('/api/access/role-user-name-assignments', {
      user_name: 'new.person@atrium.test',
      role: 'Underwriter',
    });
    expect((await duplicate.json()).errors).toEqual([
      { detail: "User 'new.person@atrium.test' already has role 'Underwriter'.", pointer: '/role' },
    ]);
    expect(
      await pointersOf(
        await server.admin.post('/api/access/role-user-name-assignments', { user_name: 'has space', role: 'Agent' }),
      ),
    ).toEqual(['/user_name']);
    expect(
      await pointersOf(
        await server.admin.post('/api/access/role-user-name-assignments', { user: 'x@y', role: 'Agent' }),
      ),
    ).toEqual(['/user_name', '/user']);

    const moved = await (
      await server.admin.put(`/api/access/role-user-name-assignments/${assignment.id}`, {
        user_name: 'new.person@atrium.test',
        role: 'Agent',
      })
    ).json();
    expect(moved.role).toBe('Agent');
    expect((await evaluate()).results[0].evaluation.allowed).toBe(true);
    expect((await server.admin.delete(`/api/access/role-user-name-assignments/${assignment.id}`)).status).toBe(204);
    expect((await evaluate()).results[0].evaluation).toEqual({ allowed: false, reason: 'no-role-assignment' });
  });
});

describe('role-group-name-assignments', () => {
  it('gives every member of a group a role', async () => {
    const seeded = await (await server.admin.get('/api/access/role-group-name-assignments')).json();
    expect(seeded.results).toEqual([{ id: expect.any(Number), group_name: 'Administrators', role: 'Administrator' }]);
    const created = await server.admin.post('/api/access/role-group-name-assignments', {
      group_name: 'Adjusters',
      role: 'Claims Adjuster',
    });
    expect(created.status).toBe(201);
    const assignment = await created.json();
    const groupMember = server.as('group.member@atrium.test', { groups: ['adjusters'] });
    const answer = await (
      await groupMember.post('/api/access/evaluations', { requests: [{ resource: 'ui:claims', action: 'ViewModule' }] })
    ).json();
    expect(answer.results[0].evaluation.allowed).toBe(true);
    expect(
      (await (await server.admin.get('/api/access/role-group-name-assignments?group_name=ADJUSTERS')).json()).count,
    ).toBe(1);
    const duplicate = await server.admin.post('/api/access/role-group-name-assignments', {
      group_name: 'adjusters',
      role: 'Claims Adjuster',
    });
    expect(await pointersOf(duplicate)).toEqual(['/role']);
    const patched = await (
      await server.admin.patch(`/api/access/role-group-name-assignments/${assignment.id}`, {
        group_name: 'Field adjusters',
      })
    ).json();
    expect(patched).toEqual({ ...assignment, group_name: 'Field adjusters' });
    expect((await server.admin.delete(`/api/access/role-group-name-assignments/${assignment.id}`)).status).toBe(204);
    expect((await server.admin.get(`/api/access/role-group-name-assignments/${assignment.id}`)).status).toBe(404);
  });
});
