import { createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it, vi } from 'vitest';
import users from './plugin.js';
import { usersEditRoute, usersManageRoute } from './routes.js';
import { isAgentRole, runBatch, temporaryPasswordOf, toUser, userListParams } from './users-api.js';

describe('users plugin (web)', () => {
  it('registers /users with manage, admin-settings and edit, tied to ui:users, and two palette commands', () => {
    const registry = createPluginRegistry();
    registry.register(users);
    expect(users.moduleKey).toBe('users');
    expect(registry.routes().map((r) => [r.name, r.path])).toEqual([
      ['users:list', '/users'],
      ['users:manage', '/users/manage/:inviteUserContactId?'],
      ['users:admin-settings', '/users/admin-settings'],
      ['users:edit', '/users/edit/:username'],
      ['users:sign-in-providers', '/users/sign-in-providers'],
    ]);
    // Shown only to who may read sign-in providers (the route guard and the sub-navigation check it).
    expect(registry.routes().find((r) => r.name === 'users:sign-in-providers')?.meta.permission).toEqual({
      resource: 'identity:oidc-provider',
      action: 'read',
    });
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Users']);
    expect(registry.danglingNav()).toEqual([]);
    expect(registry.commands().map((c) => c.item.title)).toEqual(['Open Users', 'New User']);
  });

  it('palette commands open the list and the new-user page; links build the spec paths', async () => {
    const navigate = vi.fn();
    const services = { navigate } as never;
    for (const command of users.commands) await command.run(undefined as never, { services, context: {} as never });
    expect(navigate.mock.calls).toEqual([['/users'], ['/users/manage']]);
    expect(usersManageRoute.link({ inviteUserContactId: 42 })).toBe('/users/manage/42');
    expect(usersEditRoute.link({ username: 'ada@atrium.test' })).toBe('/users/edit/ada%40atrium.test');
  });

  it('helpers: agent roles, list parameters, resources, temporary passwords, batches', async () => {
    expect(['Agent', 'Agency', 'Senior Agent', 'Administrator', 'Management', null].map(isAgentRole)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(userListParams({ search: ' ada ', active: 'false', group: 'g1', page: 2 })).toMatchObject({
      'page[number]': 2,
      'page[size]': 15,
      'filter[search]': 'ada',
      'filter[is_active]': 'false',
      'filter[group]': 'g1',
    });
    expect(userListParams({ search: '', active: 'all', group: null, page: 1 })['filter[is_active]']).toBeUndefined();
    const user = toUser({
      type: 'user',
      id: 'u1',
      attributes: { username: 'ada@atrium.test', name: 'Ada', is_active: false, status: 'CONFIRMED' },
      relationships: { groups: { data: [{ type: 'group', id: 'g1' }] } },
    });
    expect(user).toMatchObject({ id: 'u1', username: 'ada@atrium.test', is_active: false, groupIds: ['g1'] });
    expect(temporaryPasswordOf({ data: {}, meta: { temporary_password: 'Tmp-123456789!' } })).toBe('Tmp-123456789!');
    expect(temporaryPasswordOf({ data: {} })).toBeNull();
    const failed = await runBatch(['a', 'b'], async (item) => {
      if (item === 'b') throw new Error('User is gone.');
    });
    expect(failed).toEqual([{ item: 'b', errorMessage: 'User is gone.' }]);
  });
});
