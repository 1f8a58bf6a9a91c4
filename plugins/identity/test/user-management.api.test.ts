import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JSONAPI,
  pointersOf,
  startUserManagementServer,
  UM,
  type UserManagementServer,
} from './user-management-server.js';

/** Users, groups and their relationships through the real access evaluator. */
let server: UserManagementServer;
let admin: string;
let adjuster: string;

beforeAll(async () => {
  server = await startUserManagementServer();
  admin = await server.tokenOf('admin@atrium.test');
  adjuster = await server.tokenOf('adjuster@atrium.test');
});
afterAll(async () => server?.close());

const newUser = (username: string, extra: Record<string, unknown> = {}) => ({
  data: { type: 'user', attributes: { username, name: 'New Person', ...extra } },
});

describe('users/me', () => {
  it('answers the caller as a user resource', async () => {
    const response = await server.api('GET', '/users/me', adjuster);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSONAPI);
    const body = await response.json();
    expect(body.data).toMatchObject({
      type: 'user',
      attributes: { username: 'adjuster@atrium.test', name: 'Casey Adjuster', is_active: true, status: 'CONFIRMED' },
      relationships: { groups: { data: [] } },
    });
    expect((await server.api('GET', '/users/me', null)).status).toBe(401);
  });

  it('changes the name and phone number, and refuses unknown fields, wrong types and another id', async () => {
    const me = (await (await server.api('GET', '/users/me', adjuster)).json()).data;
    const ok = await server.api('PATCH', '/users/me', adjuster, {
      data: { type: 'user', id: me.id, attributes: { name: 'Casey A. Adjuster', phone_number: '+15555550199' } },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.attributes).toMatchObject({
      name: 'Casey A. Adjuster',
      phone_number: '+15555550199',
      phone_number_verified: false,
    });
    const unknown = await server.api('PATCH', '/users/me', adjuster, {
      data: { type: 'user', id: me.id, attributes: { nickname: 'C', is_active: false } },
    });
    expect(unknown.status).toBe(400);
    expect((await pointersOf(unknown)).sort()).toEqual(['/data/attributes/is_active', '/data/attributes/nickname']);
    const wrongType = await server.api('PATCH', '/users/me', adjuster, {
      data: { type: 'user', id: me.id, attributes: { name: 42, phone_number: '555' } },
    });
    expect(wrongType.status).toBe(400);
    expect((await pointersOf(wrongType)).sort()).toEqual(['/data/attributes/name', '/data/attributes/phone_number']);
    const otherId = await server.api('PATCH', '/users/me', adjuster, {
      data: { type: 'user', id: '00000000-0000-4000-8000-000000000000', attributes: { name: 'X' } },
    });
    expect(otherId.status).toBe(409);
    expect((await pointersOf(otherId))[0]).toBe('/data/id');
  });

  it('verifies a new phone number with the code sent to it', async () => {
    const verify = (code?: string) =>
      server.api('POST', '/users/me/verify-attribute', adjuster, {
        data: {
          type: 'attribute-verification',
          attributes: { attribute: 'phone_number', ...(code ? { verification_code: code } : {}) },
        },
      });
    const wrong = await verify('000000');
    expect(wrong.status).toBe(400);
    const wrongBody = await wrong.json();
    expect(wrongBody.errors[0]).toMatchObject({
      code: 'CodeMismatchException',
      source: { pointer: '/data/attributes/verification_code' },
    });
    const outbox = await server.fetch('/api/identity/dev/outbox?destination=%2B15555550199&limit=1');
    const code = ((await outbox.json()) as { messages: { code: string }[] }).messages[0]!.code;
    const ok = await verify(code);
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.attributes.phone_number_verified).toBe(true);
    expect((await verify(code)).status).toBe(400);
    expect((await verify()).status).toBe(202);
    const bad = await server.api('POST', '/users/me/verify-attribute', adjuster, {
      data: { type: 'attribute-verification', attributes: { attribute: 'address', verification_code: 12 } },
    });
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad)).sort()).toEqual([
      '/data/attributes/attribute',
      '/data/attributes/verification_code',
    ]);
  });
});

describe('JSON:API media types', () => {
  it('answers 415 to a body that is not JSON:API and 406 to an Accept with parameters', async () => {
    const plain = await server.json(
      'POST',
      `${UM}/groups`,
      { data: { type: 'group', attributes: { name: 'X' } } },
      admin,
    );
    expect(plain.status).toBe(415);
    expect(plain.headers.get('content-type')).toContain(JSONAPI);
    const notAcceptable = await server.fetch(`${UM}/groups`, {
      headers: { authorization: `Bearer ${admin}`, accept: `${JSONAPI}; charset=utf-8` },
    });
    expect(notAcceptable.status).toBe(406);
  });
});

describe('permissions', () => {
  it('refuses every user-management route but users/me to a role without the permission (403)', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const calls: [string, string, unknown?][] = [
      ['GET', '/users'],
      ['GET', `/users/${id}`],
      ['POST', '/users', newUser('refused@atrium.test')],
      ['PATCH', `/users/${id}`, { data: { type: 'user', id, attributes: { name: 'X' } } }],
      ['GET', `/users/${id}/relationships/groups`],
      ['POST', `/users/${id}/relationships/groups`, { data: [] }],
      ['DELETE', `/users/${id}/relationships/groups`, { data: [] }],
      ['POST', `/users/${id}/reset-password`],
      ['POST', `/users/${id}/set-temporary-password`],
      [
        'POST',
        `/users/${id}/actions/link-to-provider`,
        { data: { type: 'provider-link', attributes: { provider_name: 'x', provider_user_id: 'y' } } },
      ],
      ['GET', '/groups'],
      ['POST', '/groups', { data: { type: 'group', attributes: { name: 'Nope' } } }],
      ['GET', `/groups/${id}`],
      ['PATCH', `/groups/${id}`, { data: { type: 'group', id, attributes: { name: 'Nope' } } }],
      ['DELETE', `/groups/${id}`],
      ['GET', `/groups/${id}/relationships/members`],
      ['POST', '/app-clients', { data: { type: 'app-client', attributes: { name: 'n', role: 'Underwriter' } } }],
    ];
    for (const [method, path, body] of calls) {
      const response = await server.api(method, path, adjuster, body);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('groups', () => {
  let groupId: string;

  it('creates a group, and refuses a duplicate name in any case, unknown fields and wrong types', async () => {
    const created = await server.api('POST', '/groups', admin, {
      data: { type: 'group', attributes: { name: 'Night Shift', description: 'After hours' } },
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    groupId = body.data.id;
    expect(body.data).toMatchObject({ type: 'group', attributes: { name: 'Night Shift', description: 'After hours' } });
    const duplicate = await server.api('POST', '/groups', admin, {
      data: { type: 'group', attributes: { name: 'night shift' } },
    });
    expect(duplicate.status).toBe(400);
    expect((await duplicate.json()).errors[0]).toMatchObject({
      code: 'GroupExistsException',
      source: { pointer: '/data/attributes/name' },
    });
    const unknown = await server.api('POST', '/groups', admin, {
      data: { type: 'group', attributes: { name: 'A', colour: 'red' } },
    });
    expect(await pointersOf(unknown)).toEqual(['/data/attributes/colour']);
    const wrongType = await server.api('POST', '/groups', admin, {
      data: { type: 'group', attributes: { name: ['A'] } },
    });
    expect(wrongType.status).toBe(400);
    expect(await pointersOf(wrongType)).toEqual(['/data/attributes/name']);
    const missing = await server.api('POST', '/groups', admin, { data: { type: 'group', attributes: {} } });
    expect(missing.status).toBe(400);
    expect(await pointersOf(missing)).toEqual(['/data/attributes/name']);
    const otherType = await server.api('POST', '/groups', admin, { data: { type: 'user', attributes: { name: 'B' } } });
    expect(otherType.status).toBe(409);
  });

  it('pages groups 60 at a time following links.next, and filters by name', async () => {
    for (let i = 0; i < 65; i++) {
      const response = await server.api('POST', '/groups', admin, {
        data: { type: 'group', attributes: { name: `Team ${String(i).padStart(2, '0')}` } },
      });
      expect(response.status).toBe(201);
    }
    const names: string[] = [];
    let next: string | null = `${UM}/groups?filter[name]=team`;
    let pages = 0;
    while (next) {
      const response = await server.fetch(next, { headers: { authorization: `Bearer ${admin}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        data: { attributes: { name: string } }[];
        links: { next: string | null };
        meta: { count: number };
      };
      expect(body.meta.count).toBe(65);
      names.push(...body.data.map((g) => g.attributes.name));
      next = body.links.next;
      pages++;
    }
    expect(pages).toBe(2);
    expect(names).toHaveLength(65);
    expect(names[0]).toBe('Team 00');
    const bad = await server.api('GET', '/groups?page[size]=abc&colour=red', admin);
    expect(bad.status).toBe(400);
  });

  it('renames a group, refuses a taken name, and answers 404 for unknown groups', async () => {
    const renamed = await server.api('PATCH', `/groups/${groupId}`, admin, {
      data: { type: 'group', id: groupId, attributes: { name: 'Night Watch' } },
    });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data.attributes.name).toBe('Night Watch');
    const taken = await server.api('PATCH', `/groups/${groupId}`, admin, {
      data: { type: 'group', id: groupId, attributes: { name: 'TEAM 01' } },
    });
    expect(taken.status).toBe(400);
    expect(await pointersOf(taken)).toEqual(['/data/attributes/name']);
    expect((await (await server.api('GET', `/groups/${groupId}`, admin)).json()).data.attributes.name).toBe(
      'Night Watch',
    );
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (
        await server.api('PATCH', `/groups/${missing}`, admin, {
          data: { type: 'group', id: missing, attributes: { name: 'Z' } },
        })
      ).status,
    ).toBe(404);
    expect((await server.api('GET', '/groups/not-a-uuid', admin)).status).toBe(404);
    expect((await server.api('DELETE', `/groups/${missing}`, admin)).status).toBe(404);
    expect((await server.api('GET', `/groups/${missing}/relationships/members`, admin)).status).toBe(404);
  });

  it('deletes a group', async () => {
    const created = await (
      await server.api('POST', '/groups', admin, { data: { type: 'group', attributes: { name: 'Short Lived' } } })
    ).json();
    expect((await server.api('DELETE', `/groups/${created.data.id}`, admin)).status).toBe(204);
    expect((await server.api('GET', `/groups/${created.data.id}`, admin)).status).toBe(404);
  });
});

describe('users', () => {
  it('creates a user with a temporary password, and refuses a taken username without writing anything', async () => {
    const group = await (
      await server.api('POST', '/groups', admin, { data: { type: 'group', attributes: { name: 'Intake' } } })
    ).json();
    const created = await server.api('POST', '/users', admin, {
      data: {
        type: 'user',
        attributes: { username: 'New.Person@Atrium.test', name: 'New Person', is_employee: true },
        relationships: { groups: { data: [{ type: 'group', id: group.data.id }] } },
      },
    });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.data.attributes).toMatchObject({
      username: 'new.person@atrium.test',
      email: 'new.person@atrium.test',
      status: 'FORCE_CHANGE_PASSWORD',
      is_active: true,
    });
    expect(body.data.relationships.groups.data).toEqual([{ type: 'group', id: group.data.id }]);
    expect(typeof body.meta.temporary_password).toBe('string');
    const signIn = await server.signIn('new.person@atrium.test', body.meta.temporary_password);
    expect(signIn.body.status).toBe('NEW_PASSWORD_REQUIRED');

    const duplicate = await server.api('POST', '/users', admin, newUser('NEW.person@atrium.test'));
    expect(duplicate.status).toBe(400);
    expect((await duplicate.json()).errors[0]).toMatchObject({
      code: 'UsernameExistsException',
      source: { pointer: '/data/attributes/username' },
    });

    // An unknown group: 404, and the user is not created either.
    const unknownGroup = await server.api('POST', '/users', admin, {
      data: {
        type: 'user',
        attributes: { username: 'half@atrium.test', name: 'Half' },
        relationships: { groups: { data: [{ type: 'group', id: '00000000-0000-4000-8000-000000000000' }] } },
      },
    });
    expect(unknownGroup.status).toBe(404);
    expect(await pointersOf(unknownGroup)).toEqual(['/data/relationships/groups/data/0/id']);
    const search = await (await server.api('GET', '/users?filter[username]=half@atrium.test', admin)).json();
    expect(search.data).toEqual([]);
  });

  it('refuses bad user documents with pointers', async () => {
    const bad = await server.api('POST', '/users', admin, {
      data: { type: 'user', attributes: { username: 'not-an-email', name: '', is_employee: 'yes', role: 'x' } },
    });
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad)).sort()).toEqual([
      '/data/attributes/is_employee',
      '/data/attributes/name',
      '/data/attributes/role',
      '/data/attributes/username',
    ]);
    const weak = await server.api(
      'POST',
      '/users',
      admin,
      newUser('weak@atrium.test', { temporary_password: 'short' }),
    );
    expect(weak.status).toBe(400);
    expect(await pointersOf(weak)).toEqual(['/data/attributes/temporary_password']);
    const missing = await server.api('POST', '/users', admin, {
      data: { type: 'user', attributes: { name: 'No Username' } },
    });
    expect(await pointersOf(missing)).toEqual(['/data/attributes/username']);
  });

  it('lists users 200 a page with filters and sorting, and reads one', async () => {
    const all = await server.api('GET', '/users', admin);
    expect(all.status).toBe(200);
    const body = await all.json();
    expect(body.meta.count).toBeGreaterThanOrEqual(9);
    expect(body.links.self).toContain('page%5Bsize%5D=200');
    const usernames = body.data.map((u: { attributes: { username: string } }) => u.attributes.username);
    expect(usernames).toEqual([...usernames].sort());
    const search = await (await server.api('GET', '/users?filter[search]=UNDERWRITER&include=groups', admin)).json();
    expect(search.data.map((u: { attributes: { username: string } }) => u.attributes.username)).toEqual([
      'underwriter@atrium.test',
    ]);
    const sorted = await (await server.api('GET', '/users?sort=-username&page[size]=2', admin)).json();
    expect(sorted.data).toHaveLength(2);
    expect(sorted.links.next).toContain('sort=-username');
    const one = await server.api('GET', `/users/${search.data[0].id}`, admin);
    expect((await one.json()).data.attributes.name).toBe('Uma Underwriter');
    expect((await server.api('GET', '/users/00000000-0000-4000-8000-000000000000', admin)).status).toBe(404);
    expect((await server.api('GET', '/users/123', admin)).status).toBe(404);
    const badQuery = await server.api('GET', '/users?filter[is_active]=maybe&sort=password', admin);
    expect(badQuery.status).toBe(400);
    expect((await pointersOf(badQuery)).sort()).toEqual(['?filter[is_active]', '?sort']);
  });

  it('changes a user, refusing unknown fields, wrong types and a mismatched id', async () => {
    const [target] = (await (await server.api('GET', '/users?filter[username]=author@atrium.test', admin)).json()).data;
    const patch = (attributes: Record<string, unknown>, id = target.id) =>
      server.api('PATCH', `/users/${target.id}`, admin, { data: { type: 'user', id, attributes } });
    const ok = await patch({ name: 'Parker Q. Author', is_employee: false });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.attributes).toMatchObject({ name: 'Parker Q. Author', is_employee: false });
    const bad = await patch({ username: 'x@atrium.test', is_active: 'no' });
    expect(bad.status).toBe(400);
    expect((await pointersOf(bad)).sort()).toEqual(['/data/attributes/is_active', '/data/attributes/username']);
    expect((await patch({ name: 'X' }, '00000000-0000-4000-8000-000000000000')).status).toBe(409);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (await server.api('PATCH', `/users/${missing}`, admin, { data: { type: 'user', id: missing, attributes: {} } }))
        .status,
    ).toBe(404);
  });
});

describe('group membership', () => {
  it('adds and removes groups, lists members, and a group that holds a role gives it to its members', async () => {
    const created = await (
      await server.api(
        'POST',
        '/users',
        admin,
        newUser('joiner@atrium.test', { temporary_password: 'Temporary!pass1' }),
      )
    ).json();
    const id = created.data.id;
    // The new user sets a password and holds no role yet.
    const challenge = await server.signIn('joiner@atrium.test', 'Temporary!pass1');
    const answered = await server.json('POST', '/api/identity/challenges/new-password', {
      username: 'joiner@atrium.test',
      session: challenge.body.session,
      new_password: 'Joiner!password1',
    });
    expect(answered.status).toBe(200);
    const joiner = ((await answered.json()) as { authentication_result: { access_token: string } })
      .authentication_result.access_token;
    expect((await server.api('GET', '/users', joiner)).status).toBe(403);

    const groups = (await (await server.api('GET', '/groups?filter[name]=Administrators', admin)).json()).data;
    let administrators = groups.find((g: { attributes: { name: string } }) => g.attributes.name === 'Administrators');
    if (!administrators) {
      administrators = (
        await (
          await server.api('POST', '/groups', admin, {
            data: { type: 'group', attributes: { name: 'Administrators' } },
          })
        ).json()
      ).data;
    }
    const added = await server.api('POST', `/users/${id}/relationships/groups`, admin, {
      data: [{ type: 'group', id: administrators.id }],
    });
    expect(added.status).toBe(200);
    expect((await added.json()).data).toEqual([{ type: 'group', id: administrators.id }]);
    // Again: no change.
    expect(
      (
        await server.api('POST', `/users/${id}/relationships/groups`, admin, {
          data: [{ type: 'group', id: administrators.id }],
        })
      ).status,
    ).toBe(200);
    expect((await (await server.api('GET', `/users/${id}/relationships/groups`, admin)).json()).data).toHaveLength(1);
    const members = await (await server.api('GET', `/groups/${administrators.id}/relationships/members`, admin)).json();
    expect(members.data).toContainEqual({ type: 'user', id });

    // The access module assigns Administrator to the group Administrators: the member now holds it.
    const me = await server.fetch('/api/identity/session', { headers: { authorization: `Bearer ${joiner}` } });
    expect((await me.json()).groups).toEqual(['Administrator']);
    expect((await server.api('GET', '/users', joiner)).status).toBe(200);
    const myGroups = (await (await server.api('GET', '/users/me?include=groups', joiner)).json()) as {
      data: { relationships: { groups: { data: unknown[] } } };
    };
    expect(myGroups.data.relationships.groups.data).toEqual([{ type: 'group', id: administrators.id }]);

    const unknown = await server.api('POST', `/users/${id}/relationships/groups`, admin, {
      data: [
        { type: 'group', id: administrators.id },
        { type: 'group', id: '00000000-0000-4000-8000-000000000000' },
      ],
    });
    expect(unknown.status).toBe(404);
    expect(await pointersOf(unknown)).toEqual(['/data/1/id']);
    const wrongType = await server.api('POST', `/users/${id}/relationships/groups`, admin, {
      data: [{ type: 'user', id }],
    });
    expect(wrongType.status).toBe(400);
    expect(await pointersOf(wrongType)).toEqual(['/data/0/type']);

    const removed = await server.api('DELETE', `/users/${id}/relationships/groups`, admin, {
      data: [{ type: 'group', id: administrators.id }],
    });
    expect(removed.status).toBe(200);
    expect((await removed.json()).data).toEqual([]);
    expect((await server.api('GET', '/users', joiner)).status).toBe(403);
    expect(
      (await server.api('GET', '/users/00000000-0000-4000-8000-000000000000/relationships/groups', admin)).status,
    ).toBe(404);
  });
});
