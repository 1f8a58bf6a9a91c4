import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersOf, startAccessServer, type AccessTestServer } from './access-test-server.js';

let server: AccessTestServer;
beforeAll(async () => {
  server = await startAccessServer();
});
afterAll(async () => server?.close());

describe('users and groups', () => {
  it('lists the users that hold roles, with their roles, 15 a page', async () => {
    const body = await (await server.admin.get('/api/access/users')).json();
    expect(body).toMatchObject({ count: 10, next: null, previous: null });
    expect(body.results[0]).toEqual({ username: 'adjuster@atrium.test', roles: ['Claims Adjuster'] });
    expect(body.results).toContainEqual({ username: 'multi@atrium.test', roles: ['Claims Adjuster', 'Underwriter'] });
    const page = await (await server.admin.get('/api/access/users?page_size=4&page=3&ordering=-username')).json();
    expect(page).toMatchObject({
      count: 10,
      next: null,
      previous: '/api/access/users?page_size=4&page=2&ordering=-username',
    });
    expect(page.results.map((u: { username: string }) => u.username)).toEqual([
      'admin@atrium.test',
      'adjuster@atrium.test',
    ]);
  });

  it('filters users by name and by role', async () => {
    const agency = await (await server.admin.get('/api/access/users?username=AGENCY.test')).json();
    expect(agency.results.map((u: { username: string }) => u.username)).toEqual([
      'agency@agency.test',
      'agent@agency.test',
    ]);
    const underwriters = await (await server.admin.get('/api/access/users?role=underwriter')).json();
    expect(underwriters.results).toEqual([
      { username: 'mfa@atrium.test', roles: ['Underwriter'] },
      { username: 'multi@atrium.test', roles: ['Claims Adjuster', 'Underwriter'] },
      { username: 'underwriter@atrium.test', roles: ['Underwriter'] },
    ]);
    expect(await pointersOf(await server.admin.get('/api/access/users?ordering=roles'))).toEqual(['?ordering']);
    expect(await pointersOf(await server.admin.get('/api/access/users?name=x'))).toEqual(['?name']);
  });

  it('reads one user, and answers 404 for one without roles', async () => {
    expect(await (await server.admin.get('/api/access/users/Multi@atrium.test')).json()).toEqual({
      username: 'multi@atrium.test',
      roles: ['Claims Adjuster', 'Underwriter'],
    });
    expect((await server.admin.get('/api/access/users/nobody@atrium.test')).status).toBe(404);
  });

  it('lists and reads groups', async () => {
    await server.admin.post('/api/access/role-group-name-assignments', {
      group_name: 'Underwriting',
      role: 'Underwriter',
    });
    await server.admin.post('/api/access/role-group-name-assignments', { group_name: 'Underwriting', role: 'Agent' });
    const body = await (await server.admin.get('/api/access/groups')).json();
    expect(body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        { name: 'Administrators', roles: ['Administrator'] },
        { name: 'Underwriting', roles: ['Agent', 'Underwriter'] },
      ],
    });
    expect(
      (await (await server.admin.get('/api/access/groups?role=agent')).json()).results.map(
        (g: { name: string }) => g.name,
      ),
    ).toEqual(['Underwriting']);
    expect(await (await server.admin.get('/api/access/groups/administrators')).json()).toEqual({
      name: 'Administrators',
      roles: ['Administrator'],
    });
    expect((await server.admin.get('/api/access/groups/Nobody')).status).toBe(404);
  });
});
