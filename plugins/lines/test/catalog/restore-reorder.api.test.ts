import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from './lines-test-server.js';

/**
 * Restore, reorder, the deleted list and overrides of a risk type's fields and items: one set of
 * rules for both (server/catalog/risk-type-child-rows.ts), each answering in its own words.
 */
let server: LinesTestServer;
let draft: number;
let texasDraft: number;
let homeownersV1: number;
beforeAll(async () => {
  server = await startLinesServer();
  draft = (await expectStatus(server.admin.get('/api/lines/products/personal_auto/'), 200)).versions[1].id;
  texasDraft = (await expectStatus(server.admin.get('/api/lines/products/homeowners_tx/'), 200)).versions[0].id;
  // The version of the parent product that the Texas draft builds on.
  homeownersV1 = (await expectStatus(server.admin.get('/api/lines/products/homeowners/'), 200)).versions[0].id;
});
afterAll(async () => server?.close());

const vehicle = '/api/lines/products/personal_auto/risk-types/vehicle';
const driver = '/api/lines/products/personal_auto/risk-types/driver';
type Row = { id: number; name: string; order: number; inheritance_status: string; deleted_at: string | null };

describe.each([
  { what: 'items', path: 'risk-items', body: { name: 'towing', label: 'Towing' }, noun: 'Item', aNoun: 'an item' },
  {
    what: 'fields',
    path: 'risk-fields',
    body: { name: 'garage_zip', label: 'Garage ZIP', type: 'string' },
    noun: 'Field',
    aNoun: 'a field',
  },
])('$what of a risk type', ({ path, body, noun, aNoun }) => {
  const url = (q: string) => `${vehicle}/${path}/${q}`;
  const A = aNoun.charAt(0).toUpperCase() + aNoun.slice(1);

  it('refuses a reorder that lists one twice or one of another risk type', async () => {
    const list = await expectStatus(server.author.get(url(`?version_id=${draft}`)), 200);
    const first = list.results[0].id;
    expect(await errorOf(server.author.post(url(`reorder/?version_id=${draft}`), { order: [first, first] }), 400)).toBe(
      `${A} is listed twice.`,
    );
    const other = await expectStatus(
      server.author.post(`${driver}/${path}/?version_id=${draft}`, { ...body, name: 'elsewhere' }),
      201,
    );
    expect(await errorOf(server.author.post(url(`reorder/?version_id=${draft}`), { order: [other.id] }), 400)).toBe(
      `${noun} ${other.id} is not ${aNoun} of vehicle.`,
    );
  });

  it('lists deleted ones and restores them unless the name was taken again', async () => {
    const created = await expectStatus(server.author.post(url(`?version_id=${draft}`), body), 201);
    expect(await errorOf(server.author.post(url(`${created.id}/restore/?version_id=${draft}`), {}), 400)).toBe(
      `${noun} ${body.name} is not deleted.`,
    );
    expect((await server.author.delete(url(`${created.id}/?version_id=${draft}`))).status).toBe(204);
    const deleted = await expectStatus(server.author.get(url(`?version_id=${draft}&deleted=true`)), 200);
    expect(deleted.results).toEqual([
      expect.objectContaining({ id: created.id, name: body.name, inheritance_status: 'own' }),
    ]);
    expect(deleted.results[0].deleted_at).not.toBeNull();

    const again = await expectStatus(server.author.post(url(`?version_id=${draft}`), body), 201);
    expect(await errorOf(server.author.post(url(`${created.id}/restore/?version_id=${draft}`), {}), 400)).toBe(
      `${A} named '${body.name}' exists again on vehicle; rename it first.`,
    );
    expect((await server.author.delete(url(`${again.id}/?version_id=${draft}`))).status).toBe(204);
    const restored = await expectStatus(server.author.post(url(`${created.id}/restore/?version_id=${draft}`), {}), 200);
    expect(restored).toMatchObject({ id: created.id, name: body.name, deleted_at: null });
    const live = await expectStatus(server.author.get(url(`?version_id=${draft}`)), 200);
    expect(live.results.filter((r: Row) => r.name === body.name).map((r: Row) => r.id)).toEqual([created.id]);

    // A row of another risk type, or of no one, is not found there.
    expect((await server.author.delete(`${driver}/${path}/${created.id}/?version_id=${draft}`)).status).toBe(404);
    expect(await errorOf(server.author.post(url(`424242/restore/?version_id=${draft}`), {}), 404)).toBe(
      `${noun} 424242 not found on risk type vehicle.`,
    );
  });
});

describe('inherited fields and items in a child product', () => {
  it('overrides an inherited item on change, keeping its name', async () => {
    const child = '/api/lines/products/homeowners_tx/risk-types/home/risk-items/';
    const list = (await expectStatus(server.author.get(`${child}?version_id=${texasDraft}`), 200)).results as Row[];
    const inherited = list.find((r) => r.inheritance_status === 'inherited')!;
    expect(inherited).toBeDefined();
    expect(
      await errorOf(server.author.patch(`${child}${inherited.id}/?version_id=${texasDraft}`, { name: 'renamed' }), 400),
    ).toBe(`Item ${inherited.name} is inherited; an override keeps its name.`);
    const changed = await expectStatus(
      server.author.patch(`${child}${inherited.id}/?version_id=${texasDraft}`, { label: 'Texas label' }),
      200,
    );
    expect(changed).toMatchObject({ name: inherited.name, label: 'Texas label', inheritance_status: 'overridden' });
    expect(changed.id).not.toBe(inherited.id);
  });

  it.each(['risk-items', 'risk-fields'])(
    'reorders %s by overriding the inherited rows that move, leaving the parent alone',
    async (path) => {
      const child = `/api/lines/products/homeowners_tx/risk-types/home/${path}/`;
      const parent = `/api/lines/products/homeowners/risk-types/home/${path}/`;
      const before = (await expectStatus(server.author.get(`${child}?version_id=${texasDraft}`), 200)).results as Row[];
      expect(before.length).toBeGreaterThan(1);
      const parentBefore = await expectStatus(server.author.get(`${parent}?version_id=${homeownersV1}`), 200);
      const last = before.at(-1)!;
      const reordered = await expectStatus(
        server.author.post(`${child}reorder/?version_id=${texasDraft}`, { order: [last.id] }),
        200,
      );
      const after = reordered.results as Row[];
      expect(after.map((r) => r.name)).toEqual([last.name, ...before.slice(0, -1).map((r) => r.name)]);
      expect(after.map((r) => r.order)).toEqual(after.map((_, i) => i + 1));
      // An inherited row that moved now has this version's override; a row that kept its place is as it was.
      const was = (row: Row) => before.find((r) => r.name === row.name)!;
      const moved = after.filter((r) => r.order !== was(r).order);
      expect(moved.some((r) => was(r).inheritance_status === 'inherited')).toBe(true);
      for (const row of after) {
        const expected =
          row.order !== was(row).order && was(row).inheritance_status === 'inherited'
            ? 'overridden'
            : was(row).inheritance_status;
        expect(row.inheritance_status, row.name).toBe(expected);
      }
      const parentAfter = await expectStatus(server.author.get(`${parent}?version_id=${homeownersV1}`), 200);
      expect(parentAfter.results).toEqual(parentBefore.results);
    },
  );
});
