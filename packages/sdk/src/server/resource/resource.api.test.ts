import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import accessPlugin from '@atrium/plugin-access/server';
import identityPlugin from '@atrium/plugin-identity/server';
import { startTestServer, type TestServer } from '../../testing/test-server.js';
import { createApiClient } from '../../web/api-client.js';
import { isApiRequestError } from '../../web/api-error.js';
import { resourceClient } from '../../web/resource-client.js';
import { noteShape, tagListShape, tagShape, toyPlugin } from './toy-plugin.js';

/**
 * Every route a resource declaration registers, on a real server with the real identity and access
 * modules: notes (JSON:API, scoped to their owner, related to tags), tags (plain style) and their
 * audit entries. The administrator may do everything; the underwriter gets a role that reads and
 * writes their own notes only and may not read tags.
 */
const JSONAPI = 'application/vnd.api+json';
const READER = 'underwriter@atrium.test';

let server: TestServer;
const tokens = new Map<string, string>();

async function tokenOf(username: string): Promise<string> {
  const known = tokens.get(username);
  if (known) return known;
  const response = await server.fetch('/api/identity/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'Atrium!demo1' }),
  });
  const body = (await response.json()) as { authentication_result: { access_token: string } };
  tokens.set(username, body.authentication_result.access_token);
  return body.authentication_result.access_token;
}

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;

async function as(username: string, style: 'jsonapi' | 'plain' = 'jsonapi'): Promise<Call> {
  const token = await tokenOf(username);
  const type = style === 'jsonapi' ? JSONAPI : 'application/json';
  return (method, path, body, headers = {}) =>
    server.fetch(`/api/toy${path}`, {
      method,
      headers: {
        accept: type,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': type }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

const json = async (response: Response) => (await response.json()) as any;
const pointers = async (response: Response) =>
  ((await json(response)).errors as { detail: string; source?: Record<string, string> }[]).map((e) => [
    e.source?.pointer ?? e.source?.parameter ?? e.source?.header ?? e.source?.['parameter'],
    e.detail,
  ]);

let admin: Call;
let adminPlain: Call;
let reader: Call;
let readerPlain: Call;
const tagIds: string[] = [];
const noteIds: string[] = [];

const note = (attributes: Record<string, unknown>, tag?: string) => ({
  data: { type: 'note', attributes, ...(tag ? { relationships: { tag: { data: { type: 'tag', id: tag } } } } : {}) },
});

beforeAll(async () => {
  // The toy module creates its tables when it registers (it has no migrations folder), which the
  // row-only app role may not do: it runs as the database's owner.
  server = await startTestServer({ plugins: [identityPlugin, accessPlugin, toyPlugin], appRole: false });
  const adminToken = await tokenOf('admin@atrium.test');
  const post = async (path: string, body: unknown) => {
    const response = await server.fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  };
  await post('/api/access/roles', { name: 'Own Notes' });
  const policy = await post('/api/access/policies', {
    name: 'Own notes, no tags',
    statements: [
      {
        sid: 'own-notes',
        effect: 'allow',
        actions: ['read', 'create', 'update', 'delete'],
        resources: ['toy:note'],
        conditions: [{ attribute: 'record.owner', operator: 'eq', value: { ref: 'user.username' } }],
      },
    ],
  });
  await post('/api/access/policy-assignments', { policy_id: policy.id, role: 'Own Notes' });
  await post('/api/access/role-user-name-assignments', { user_name: READER, role: 'Own Notes' });
  admin = await as('admin@atrium.test');
  adminPlain = await as('admin@atrium.test', 'plain');
  const readerJson = await as(READER);
  const readerPlainCall = await as(READER, 'plain');
  reader = (m, p, b, h = {}) => readerJson(m, p, b, { 'x-effective-role': 'Own Notes', ...h });
  readerPlain = (m, p, b, h = {}) => readerPlainCall(m, p, b, { 'x-effective-role': 'Own Notes', ...h });

  for (const name of ['red', 'blue']) {
    const created = await adminPlain('POST', '/tags/', { name });
    expect(created.status).toBe(201);
    tagIds.push(String((await json(created)).id));
  }
  const owners = ['admin@atrium.test', READER, READER, 'admin@atrium.test', READER];
  for (const [i, owner] of owners.entries()) {
    const created = await admin('POST', '/notes/', note({ title: `Note ${i}`, owner, rank: 10 - i }, tagIds[i % 2]));
    expect(created.status).toBe(201);
    noteIds.push((await json(created)).data.id);
  }
}, 600_000);
afterAll(async () => server?.close());

describe('a declared JSON:API resource', () => {
  it('pages with page[number]/page[size] and with page/page_size, links in the JSON:API form', async () => {
    const bracket = await json(await admin('GET', '/notes/?page[number]=2&page[size]=2'));
    expect(bracket.data.map((n: any) => n.id)).toEqual(noteIds.slice(2, 4));
    expect(bracket.meta).toEqual({ count: 5, pages: 3 });
    expect(bracket.links.next).toBe('/api/toy/notes/?page%5Bnumber%5D=3&page%5Bsize%5D=2');
    const plain = await json(await admin('GET', '/notes/?page=3&page_size=2'));
    expect(plain.data.map((n: any) => n.id)).toEqual(noteIds.slice(4));
    expect(plain.links.self).toBe('/api/toy/notes/?page%5Bnumber%5D=3&page%5Bsize%5D=2');
    expect(plain.links.next).toBeNull();
    const defaults = await json(await admin('GET', '/notes/'));
    expect(defaults.data).toHaveLength(2);
  });

  it('filters by plain name, filter[name] and alias; orders by a declared ordering only', async () => {
    const byOwner = await json(await admin('GET', `/notes/?owner=${READER}&page[size]=10`));
    expect(byOwner.data.map((n: any) => n.id)).toEqual([noteIds[1], noteIds[2], noteIds[4]]);
    const bracket = await json(await admin('GET', `/notes/?filter[owner]=${READER}&page[size]=10`));
    expect(bracket.meta.count).toBe(3);
    const alias = await json(await admin('GET', `/notes/?filter[tag]=${tagIds[1]}&page[size]=10`));
    expect(alias.data.map((n: any) => n.id)).toEqual([noteIds[1], noteIds[3]]);
    const ranked = await json(await admin('GET', '/notes/?sort=rank&page[size]=10'));
    expect(ranked.data.map((n: any) => n.attributes.rank)).toEqual([6, 7, 8, 9, 10]);
    const unordered = await admin('GET', '/notes/?sort=title');
    expect(unordered.status).toBe(400);
    expect(await pointers(unordered)).toEqual([['sort', expect.any(String)]]);
    const unknown = await admin('GET', '/notes/?colour=red');
    expect(unknown.status).toBe(400);
    expect(await pointers(unknown)).toEqual([['colour', expect.any(String)]]);
    const badPage = await admin('GET', '/notes/?page[size]=0');
    expect(badPage.status).toBe(400);
    expect(await pointers(badPage)).toEqual([['page[size]', expect.any(String)]]);
  });

  it('shows attributes but never write-only ones; sparse fieldsets narrow them', async () => {
    await admin('PATCH', `/notes/${noteIds[0]}/`, {
      data: { type: 'note', id: noteIds[0], attributes: { secret: 's3' } },
    });
    const one = await json(await admin('GET', `/notes/${noteIds[0]}/`));
    expect(one.data.attributes).toEqual({ title: 'Note 0', body: null, owner: 'admin@atrium.test', rank: 10 });
    expect(one.data.relationships.tag.data).toEqual({ type: 'tag', id: tagIds[0] });
    const sparse = await json(await admin('GET', `/notes/${noteIds[0]}/?fields[note]=title`));
    expect(sparse.data.attributes).toEqual({ title: 'Note 0' });
    const relationship = await json(await admin('GET', `/notes/${noteIds[0]}/relationships/tag`));
    expect(relationship.data).toEqual({ type: 'tag', id: tagIds[0] });
  });

  it('includes a related resource only for a caller who may read its type', async () => {
    const withTag = await json(await admin('GET', `/notes/${noteIds[1]}/?include=tag`));
    expect(withTag.included).toEqual([
      expect.objectContaining({ type: 'tag', id: tagIds[1], attributes: { name: 'blue', uses: 2 } }),
    ]);
    expect((await readerPlain('GET', '/tags/')).status).toBe(403);
    const listed = await reader('GET', '/notes/?include=tag&page[size]=10');
    expect(listed.status).toBe(200);
    const body = await json(listed);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.included ?? []).toEqual([]);
    const found = await json(await reader('GET', `/notes/${noteIds[1]}/?include=tag`));
    expect(found.included ?? []).toEqual([]);
    expect((await admin('GET', '/notes/?include=owner')).status).toBe(400);
  });

  it('applies the record scope to lists, finds and writes', async () => {
    const mine = await json(await reader('GET', '/notes/?page[size]=10'));
    expect(mine.data.map((n: any) => n.id)).toEqual([noteIds[1], noteIds[2], noteIds[4]]);
    expect(mine.meta.count).toBe(3);
    expect((await reader('GET', `/notes/${noteIds[0]}/`)).status).toBe(404);
    const patch = await reader('PATCH', `/notes/${noteIds[0]}/`, {
      data: { type: 'note', id: noteIds[0], attributes: { title: 'Mine now' } },
    });
    expect(patch.status).toBe(404);
    expect((await reader('DELETE', `/notes/${noteIds[0]}/`)).status).toBe(404);
    expect((await reader('GET', `/notes/${noteIds[0]}/relationships/tag`)).status).toBe(404);
    expect((await admin('GET', `/notes/${noteIds[0]}/`)).status).toBe(200);
  });

  it('keeps writes inside the record scope: a note for another owner is refused and rolled back', async () => {
    const countAll = async () => (await json(await admin('GET', '/notes/?page[size]=1'))).meta.count as number;
    const before = await countAll();
    const foreign = await reader('POST', '/notes/', note({ title: 'For someone else', owner: 'admin@atrium.test' }));
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).errors[0].detail).toBe('You may not write a note with these values.');
    expect(await countAll()).toBe(before);
    const moved = await reader('PATCH', `/notes/${noteIds[1]}/`, {
      data: { type: 'note', id: noteIds[1], attributes: { owner: 'admin@atrium.test' } },
    });
    expect(moved.status).toBe(403);
    expect((await json(await reader('GET', `/notes/${noteIds[1]}/`))).data.attributes.owner).toBe(READER);
    const own = await reader('POST', '/notes/', note({ title: 'Mine', owner: READER }));
    expect(own.status).toBe(201);
    expect((await reader('DELETE', `/notes/${(await json(own)).data.id}/`)).status).toBe(204);
    expect(await countAll()).toBe(before);
  });

  it('answers an ETag and refuses a PATCH against a stale one with 412', async () => {
    const read = await admin('GET', `/notes/${noteIds[2]}/`);
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const doc = (title: string) => ({ data: { type: 'note', id: noteIds[2], attributes: { title } } });
    const first = await admin('PATCH', `/notes/${noteIds[2]}/`, doc('First'), { 'if-match': etag });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).not.toBe(etag);
    const stale = await admin('PATCH', `/notes/${noteIds[2]}/`, doc('Second'), { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(await pointers(stale)).toEqual([
      ['if-match', 'The note was changed by someone else since you read it. Reload it and try again.'],
    ]);
    expect((await json(await admin('GET', `/notes/${noteIds[2]}/`))).data.attributes.title).toBe('First');
  });

  it('negotiates JSON:API: 415 for a plain JSON body, 406 for a parameterised Accept', async () => {
    const plainBody = await admin('POST', '/notes/', note({ title: 'x', owner: 'a' }), {
      'content-type': 'application/json',
    });
    expect(plainBody.status).toBe(415);
    const accept = await admin('GET', '/notes/', undefined, { accept: `${JSONAPI}; charset=utf-8` });
    expect(accept.status).toBe(406);
    // A plain resource takes JSON (a body of another type is not read at all).
    const xml = await adminPlain('POST', '/tags/', '<tag/>', { 'content-type': 'application/xml' });
    expect(xml.status).toBe(415);
  });

  it('refuses bad input with 400 and pointers; the cross-field hook and relationships too', async () => {
    const wrong = await admin('POST', '/notes/', note({ title: 5, owner: 'a', colour: 'red' }));
    expect(wrong.status).toBe(400);
    expect((await pointers(wrong)).map(([pointer]) => pointer).sort()).toEqual(
      ['/data/attributes/colour', '/data/attributes/title'].sort(),
    );
    const missing = await admin('POST', '/notes/', { data: { type: 'note', attributes: { owner: 'a' } } });
    expect(await pointers(missing)).toContainEqual(['/data/attributes/title', expect.any(String)]);
    const same = await admin('POST', '/notes/', note({ title: 'Same', body: 'Same', owner: 'a' }));
    expect(await pointers(same)).toEqual([['/data/attributes/body', 'The body must say more than the title.']]);
    const badTag = await admin('POST', '/notes/', note({ title: 'T', owner: 'a' }, 'x1'));
    expect(await pointers(badTag)).toEqual([['/data/relationships/tag/data/id', "'x1' is not a valid id."]]);
    const mismatch = await admin('PATCH', `/notes/${noteIds[0]}/`, {
      data: { type: 'note', id: '999', attributes: {} },
    });
    expect(mismatch.status).toBe(409);
    expect((await admin('GET', '/notes/abc/')).status).toBe(404);
  });

  it('deletes, audits every write in its transaction and runs the side-effect hook', async () => {
    const created = await admin('POST', '/notes/', note({ title: 'Short-lived', owner: 'a' }, tagIds[0]));
    const id = (await json(created)).data.id;
    expect((await admin('DELETE', `/notes/${id}/`)).status).toBe(204);
    expect((await admin('GET', `/notes/${id}/`)).status).toBe(404);
    const entries = await json(await adminPlain('GET', `/audit/?entity_type=note&page_size=100`));
    const actions = entries.results.filter((e: any) => e.entity_id === id).map((e: any) => e.action);
    expect(actions).toEqual(['create', 'delete']);
    const red = await json(await adminPlain('GET', `/tags/${tagIds[0]}/`));
    expect(red.uses).toBe(4);
  });
});

describe('events of a declared resource', () => {
  it('writes created, updated and deleted to the outbox in the write, with the record and the user', async () => {
    const created = await admin('POST', '/notes/', note({ title: 'Eventful', owner: 'events' }));
    const id = (await json(created)).data.id as string;
    const refused = await admin('PATCH', `/notes/${id}/`, {
      data: { type: 'note', id, attributes: { rank: 5000 } },
    });
    expect(refused.status).toBe(400);
    const changed = await admin('PATCH', `/notes/${id}/`, {
      data: { type: 'note', id, attributes: { rank: 7 } },
    });
    expect(changed.status).toBe(200);
    expect((await admin('DELETE', `/notes/${id}/`)).status).toBe(204);
    const { rows } = await server.atrium.database.db.execute<{ topic: string; triggering_user: string; data: any }>(
      sql`select topic, triggering_user, data from core.event_outbox
          where topic like 'toy.note.%' and data->>'id' = ${id} order by id`,
    );
    expect(rows.map((row) => [row.topic, row.triggering_user, row.data.rank])).toEqual([
      ['toy.note.created', 'admin@atrium.test', 0],
      ['toy.note.updated', 'admin@atrium.test', 7],
      ['toy.note.deleted', 'admin@atrium.test', 7],
    ]);
    expect(rows[0]!.data).toEqual({ id: Number(id), title: 'Eventful', body: null, owner: 'events', rank: 0 });
    const catalogue = await server.fetch('/api/event-catalogue', {
      headers: { authorization: `Bearer ${await tokenOf('admin@atrium.test')}` },
    });
    expect(JSON.stringify(await json(catalogue))).toContain('toy.note.updated');
  });
});

describe("events in the write's transaction", () => {
  it('leaves no row, audit entry or event when afterWrite refuses after they were written', async () => {
    const count = async (query: ReturnType<typeof sql>) =>
      Number((await server.atrium.database.db.execute<{ n: string }>(query)).rows[0]!.n);
    const events = sql`select count(*) as n from core.event_outbox where topic like 'toy.note.%'`;
    const audits = sql`select count(*) as n from toy.audit where entity_type = 'note'`;
    const notes = sql`select count(*) as n from toy.note`;
    const before = [await count(events), await count(audits), await count(notes)];
    const refused = await admin('POST', '/notes/', note({ title: 'Rolled back', owner: 'events' }));
    expect(refused.status).toBe(409);
    expect((await json(refused)).errors[0].detail).toBe('This note may not be kept.');
    expect([await count(events), await count(audits), await count(notes)]).toEqual(before);
    // The same note under another title is kept, with its audit entry and its created event.
    expect((await admin('POST', '/notes/', note({ title: 'Kept', owner: 'events' }))).status).toBe(201);
    expect([await count(events), await count(audits), await count(notes)]).toEqual(before.map((n) => n + 1));
  });
});

describe('a declared plain resource', () => {
  it('answers {count, next, previous, results} with either paging form', async () => {
    const first = await json(await adminPlain('GET', '/tags/?page=1&page_size=1'));
    expect(first).toEqual({
      count: 2,
      next: '/api/toy/tags/?page=2&page_size=1',
      previous: null,
      results: [{ id: Number(tagIds[1]), name: 'blue', uses: expect.any(Number) }],
    });
    const second = await json(await adminPlain('GET', '/tags/?page[number]=2&page[size]=1'));
    expect(second.results.map((t: any) => t.name)).toEqual(['red']);
    expect(second.previous).toBe('/api/toy/tags/?page%5Bsize%5D=1&page=1');
    const ordered = await json(await adminPlain('GET', '/tags/?ordering=-name'));
    expect(ordered.results.map((t: any) => t.name)).toEqual(['red', 'blue']);
  });

  it('creates, changes and refuses with plain pointers', async () => {
    const created = await adminPlain('POST', '/tags/', { name: 'green' });
    expect(created.status).toBe(201);
    const { id } = await json(created);
    const changed = await adminPlain('PATCH', `/tags/${id}/`, { name: 'lime' });
    expect((await json(changed)).name).toBe('lime');
    const empty = await adminPlain('POST', '/tags/', { name: '' });
    expect(empty.status).toBe(400);
    expect((await json(empty)).errors).toContainEqual(
      expect.objectContaining({ pointer: '/name', detail: 'Name is required.' }),
    );
    const twice = await adminPlain('POST', '/tags/', { name: 'red' });
    expect(twice.status).toBe(400);
    expect((await json(twice)).errors).toContainEqual(
      expect.objectContaining({ pointer: '/name', detail: 'A tag named red already exists.' }),
    );
    expect((await adminPlain('DELETE', `/tags/${id}/`)).status).toBe(204);
    expect((await adminPlain('DELETE', `/tags/${tagIds[0]}/`)).status).toBe(409);
  });
});

describe('the web client derived from the shared shapes', () => {
  const api = () =>
    createApiClient({
      baseUrl: `${server.url}/api`,
      getToken: () => tokens.get('admin@atrium.test'),
      getEffectiveRole: () => null,
    });
  const notesClient = resourceClient(noteShape);
  const tagsClient = resourceClient(tagShape);

  it('lists a page, every page and filters, in each style', async () => {
    const page = await notesClient.list(api(), { page: 1, size: 2, ordering: '-rank' });
    expect(page.count).toBeGreaterThanOrEqual(5);
    expect(page.items.map((n) => n.rank)).toEqual([10, 9]);
    expect(page.items[0]).toEqual(expect.objectContaining({ title: 'Note 0', tag_id: tagIds[0] }));
    const all = await notesClient.listAll(api(), { filters: { owner: READER } });
    expect(all.map((n) => n.id)).toEqual([noteIds[1], noteIds[2], noteIds[4]]);
    const tagsAll = await tagsClient.listAll(api(), { ordering: 'name' });
    expect(tagsAll.map((t) => t.name)).toEqual(['blue', 'red']);
    expect(notesClient.keys.list({ page: 2 })).toEqual(['resource', 'note', 'list', { page: 2 }]);
  });

  it('creates, finds with the ETag and sends it as If-Match (412 when stale)', async () => {
    const created = await notesClient.create(api(), {
      attributes: { title: 'From the client', owner: READER },
      relationships: { tag: tagIds[1]! },
    });
    expect(created.item.tag_id).toBe(tagIds[1]);
    const { item, etag } = await notesClient.find(api(), created.item.id);
    expect(etag).toBeTruthy();
    const changed = await notesClient.update(api(), item.id, { attributes: { rank: 3 } }, etag);
    expect(changed.item.rank).toBe(3);
    const stale = await notesClient.update(api(), item.id, { attributes: { rank: 4 } }, etag).catch((e: unknown) => e);
    expect(isApiRequestError(stale) && stale.status).toBe(412);
    await notesClient.remove(api(), item.id);
    const gone = await notesClient.find(api(), item.id).catch((e: unknown) => e);
    expect(isApiRequestError(gone) && gone.status).toBe(404);
  });
});

describe('an unpaged plain resource with a second URL key and an expand hook', () => {
  it('answers every row as {count, results}, searched over its columns in any case', async () => {
    const all = await json(await adminPlain('GET', '/tag-list/'));
    expect(Object.keys(all)).toEqual(['count', 'results']);
    expect(all.results.map((t: any) => t.name)).toEqual(['blue', 'red']);
    // The expand hook's counts: notes 0, 2 and 4 carry red, 1 and 3 blue (the client's note is gone).
    expect(all.results).toEqual([
      { id: Number(tagIds[1]), name: 'blue', notes: 2 },
      { id: Number(tagIds[0]), name: 'red', notes: 3 },
    ]);
    const searched = await json(await adminPlain('GET', '/tag-list/?search=%20RE%20'));
    expect(searched).toEqual({ count: 1, results: [expect.objectContaining({ name: 'red' })] });
    expect((await json(await adminPlain('GET', '/tag-list/?q=lu'))).results.map((t: any) => t.name)).toEqual(['blue']);
    expect((await json(await adminPlain('GET', '/tag-list/?search=%25'))).count).toBe(0);
    expect((await json(await adminPlain('GET', '/tag-list/?search='))).count).toBe(2);
    expect((await adminPlain('GET', '/tag-list/?page=1')).status).toBe(400);
    const client = resourceClient(tagListShape);
    const page = await client.list(
      createApiClient({
        baseUrl: `${server.url}/api`,
        getToken: () => tokens.get('admin@atrium.test'),
        getEffectiveRole: () => null,
      }),
    );
    expect(page).toEqual(expect.objectContaining({ count: 2, pages: 1 }));
  });

  it('finds a row by id or by name in any case, with its own 404 wording', async () => {
    const byId = await adminPlain('GET', `/tag-list/${tagIds[0]}/`);
    expect(await json(byId)).toEqual({ id: Number(tagIds[0]), name: 'red', notes: 3 });
    const byName = await adminPlain('GET', '/tag-list/RED/');
    expect(byName.headers.get('etag')).toBe(byId.headers.get('etag'));
    expect((await json(await adminPlain('GET', '/tag-list/nope/'))).errors[0].detail).toBe("Tag 'nope' not found.");
    expect((await json(await adminPlain('GET', '/tag-list/99999999999/'))).errors[0].detail).toBe(
      'Tag 99999999999 not found.',
    );
    // `trim`: spaces around the URL's key are not part of it; a key of spaces only is no key.
    expect(await json(await adminPlain('GET', '/tag-list/%20RED%20/'))).toEqual({
      id: Number(tagIds[0]),
      name: 'red',
      notes: 3,
    });
    expect((await json(await adminPlain('GET', `/tag-list/%20${tagIds[0]}%20/`))).name).toBe('red');
    expect((await json(await adminPlain('GET', '/tag-list/%20nope%20/'))).errors[0].detail).toBe(
      "Tag 'nope' not found.",
    );
    const blank = await adminPlain('GET', '/tag-list/%20%20/');
    expect(blank.status).toBe(400);
    expect((await json(blank)).errors[0]).toEqual(expect.objectContaining({ parameter: 'tag' }));
  });

  it('creates and changes (If-Match over the expanded row), registers no delete, leaves a taken name to the router', async () => {
    const created = await adminPlain('POST', '/tag-list/', { name: 'teal' });
    expect(created.status).toBe(201);
    expect(await json(created)).toEqual({ id: expect.any(Number), name: 'teal', notes: 0 });
    const etag = created.headers.get('etag')!;
    const changed = await adminPlain('PATCH', '/tag-list/teal/', { name: 'cyan' }, { 'if-match': etag });
    expect(changed.status).toBe(200);
    const cyan = await json(changed);
    expect(cyan.name).toBe('cyan');
    expect((await adminPlain('PATCH', '/tag-list/cyan/', { name: 'navy' }, { 'if-match': etag })).status).toBe(412);
    const taken = await adminPlain('POST', '/tag-list/', { name: 'red' });
    expect(taken.status).toBe(409);
    expect((await json(taken)).errors[0].detail).toBe('That name was just taken.');
    expect((await adminPlain('DELETE', '/tag-list/cyan/')).status).toBe(404);
    expect((await adminPlain('DELETE', `/tags/${cyan.id}/`)).status).toBe(204);
  });
});

describe('a declared resource without a list, with ids written as attributes', () => {
  it('registers find and change only, and answers a missing referenced row in its own words at the attribute', async () => {
    const id = noteIds[0]!;
    expect((await admin('GET', '/note-tags/')).status).toBe(404);
    expect(
      (await admin('POST', '/note-tags/', { data: { type: 'note-tag', attributes: { tag_id: null } } })).status,
    ).toBe(404);
    expect((await admin('DELETE', `/note-tags/${id}/`)).status).toBe(404);
    const found = await json(await admin('GET', `/note-tags/${id}/`));
    expect(found.data).toEqual({
      type: 'note-tag',
      id,
      attributes: { title: 'Note 0', tag_id: Number(tagIds[0]) },
      links: { self: `/api/toy/note-tags/${id}/` },
    });
    const missing = await admin('PATCH', `/note-tags/${id}/`, {
      data: { type: 'note-tag', id, attributes: { tag_id: 999999 } },
    });
    expect(missing.status).toBe(400);
    expect(await pointers(missing)).toEqual([['/data/attributes/tag_id', 'That tag does not exist.']]);
    const changed = await admin('PATCH', `/note-tags/${id}/`, {
      data: { type: 'note-tag', id, attributes: { tag_id: Number(tagIds[1]) } },
    });
    expect((await json(changed)).data.attributes.tag_id).toBe(Number(tagIds[1]));
  });
});

describe('pageOfRows in a hand-written list', () => {
  it('answers one page of the rows with the count and the JSON:API paging links', async () => {
    const body = await json(await admin('GET', '/tag-page/?page[size]=1&page[number]=2'));
    const all = (await json(await adminPlain('GET', '/tags/?page_size=100'))).results as { id: number }[];
    const ids = all.map((tag) => tag.id).sort((x, y) => x - y);
    expect(body.data.map((tag: { id: string }) => Number(tag.id))).toEqual([ids[1]]);
    expect(body.meta).toEqual({ count: ids.length, pages: ids.length });
    expect(body.links.prev).toBe('/api/toy/tag-page/?page%5Bnumber%5D=1&page%5Bsize%5D=1');
    expect(body.links.last).toBe(`/api/toy/tag-page/?page%5Bnumber%5D=${ids.length}&page%5Bsize%5D=1`);
  });
});

describe('a declared log: listed newest first, never found one by one', () => {
  it('orders by a default descending ordering, takes the other direction, and registers no find', async () => {
    const ids = async (query: string) =>
      (await json(await admin('GET', `/audit-trail/${query}`))).data.map((entry: { id: string }) => Number(entry.id));
    const newestFirst = await ids('');
    expect(newestFirst.length).toBeGreaterThan(2);
    expect(newestFirst).toEqual([...newestFirst].sort((x, y) => y - x));
    expect(await ids('?sort=id')).toEqual([...newestFirst].reverse());
    expect(await ids('?sort=-id')).toEqual(newestFirst);
    expect((await admin('GET', '/audit-trail/?sort=--id')).status).toBe(400);
    expect((await admin('GET', `/audit-trail/${newestFirst[0]}/`)).status).toBe(404);
  });
});
