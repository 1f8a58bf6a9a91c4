import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer } from './access-test-server.js';

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

const create = (body: unknown) => server.admin.post('/api/access/roles', body);

describe('roles', () => {
  it('lists the demo roles 15 a page, with filters and ordering', async () => {
    const body = await (await server.admin.get('/api/access/roles')).json();
    expect(body).toMatchObject({ count: 7, next: null, previous: null });
    expect(body.results).toContainEqual({ id: expect.any(Number), name: 'Administrator', gen2_role: 'admin' });
    const names = (await (await server.admin.get('/api/access/roles?ordering=-name')).json()).results.map(
      (r: { name: string }) => r.name,
    );
    expect(names[0]).toBe('Underwriter');
    expect(
      (await (await server.admin.get('/api/access/roles?name=agen')).json()).results.map(
        (r: { name: string }) => r.name,
      ),
    ).toEqual(['Agent', 'Agency']);
    expect(
      (await (await server.admin.get('/api/access/roles?gen2_role=underwriter')).json()).results.map(
        (r: { name: string }) => r.name,
      ),
    ).toEqual(['Underwriter']);
    expect(await pointersOf(await server.admin.get('/api/access/roles?ordering=created_at'))).toEqual(['?ordering']);
  });

  it('creates, reads, replaces, patches and deletes a role', async () => {
    const created = await create({ name: 'Auditor', gen2_role: 'auditor' });
    expect(created.status).toBe(201);
    const role = await created.json();
    expect(role).toEqual({ id: expect.any(Number), name: 'Auditor', gen2_role: 'auditor' });
    expect(await (await server.admin.get(`/api/access/roles/${role.id}`)).json()).toEqual(role);

    const patched = await (await server.admin.patch(`/api/access/roles/${role.id}`, { gen2_role: 'audit' })).json();
    expect(patched).toEqual({ ...role, gen2_role: 'audit' });
    const replaced = await (
      await server.admin.put(`/api/access/roles/${role.id}`, { id: role.id, name: 'Internal Auditor' })
    ).json();
    expect(replaced).toEqual({ id: role.id, name: 'Internal Auditor', gen2_role: null });

    expect((await server.admin.delete(`/api/access/roles/${role.id}`)).status).toBe(204);
    expect((await server.admin.get(`/api/access/roles/${role.id}`)).status).toBe(404);
  });

  it('refuses duplicate names in any case, bad input and missing roles', async () => {
    const duplicate = await create({ name: 'administrator' });
    expect(duplicate.status).toBe(400);
    expect((await duplicate.json()).errors).toEqual([
      { detail: "A role named 'administrator' already exists.", pointer: '/name' },
    ]);
    expect(await pointersOf(await create({ name: 'Ok', level: 3 }))).toEqual(['/level']);
    expect(await pointersOf(await create({ name: 7 }))).toEqual(['/name']);
    expect(await pointersOf(await create({ name: '' }))).toEqual(['/name']);
    expect(await pointersOf(await create({ name: 'A,B' }))).toEqual(['/name']);
    expect(await pointersOf(await create({ gen2_role: 'x' }))).toEqual(['/name']);
    const agent = (await (await server.admin.get('/api/access/roles?name=agency')).json()).results[0];
    expect(await pointersOf(await server.admin.patch(`/api/access/roles/${agent.id}`, { name: 'Agent' }))).toEqual([
      '/name',
    ]);
    expect((await server.admin.put('/api/access/roles/999999', { name: 'Nobody' })).status).toBe(404);
    expect((await server.admin.patch('/api/access/roles/999999', {})).status).toBe(404);
    expect((await server.admin.delete('/api/access/roles/999999')).status).toBe(404);
  });

  it('takes its assignments along when a role is deleted', async () => {
    const role = await (await create({ name: 'Temporary' })).json();
    await server.admin.post('/api/access/role-user-name-assignments', {
      user_name: 'temp@atrium.test',
      role: 'Temporary',
    });
    expect(
      await (
        await server
          .as('temp@atrium.test')
          .post('/api/access/evaluations', { requests: [{ resource: 'x', action: 'y' }] })
      ).json(),
    ).toEqual({
      results: [{ evaluation: { allowed: false, reason: 'no-matching-statement' } }],
    });
    await server.admin.delete(`/api/access/roles/${role.id}`);
    expect(
      (await (await server.admin.get('/api/access/role-user-name-assignments?user_name=temp@atrium.test')).json())
        .count,
    ).toBe(0);
    expect(
      await (
        await server
          .as('temp@atrium.test')
          .post('/api/access/evaluations', { requests: [{ resource: 'x', action: 'y' }] })
      ).json(),
    ).toEqual({
      results: [{ evaluation: { allowed: false, reason: 'no-role-assignment' } }],
    });
  });
});
