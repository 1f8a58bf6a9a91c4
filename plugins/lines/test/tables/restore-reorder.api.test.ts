import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, json, startTablesServer, type Fixture, type TablesTestServer } from './tables-test-server.js';

/**
 * Reorder, delete and restore of rate tables and calculations: the same rules for both
 * (server/rate-tables/own-row-writes.ts), each answering in its own words.
 */
let server: TablesTestServer;
let f: Fixture;
beforeAll(async () => {
  server = await startTablesServer();
  f = await createFixture(server.db);
});
afterAll(() => server?.close());

type Row = { id: number; name: string; order: number; deleted_at: string | null };
type Problem = { errors: { detail: string; pointer?: string }[] };
const detail = async (response: Response, status: number) => {
  expect(response.status).toBe(status);
  return (await json<Problem>(response)).errors[0]!.detail;
};

describe.each([
  {
    what: 'rate tables',
    path: 'rate-tables',
    body: (name: string) => ({ name }),
    noun: 'rate table',
    plural: 'rate tables',
    of: 'this version',
  },
  {
    what: 'calculations',
    path: 'calculations',
    body: (name: string) => ({ name, calculation: '5' }),
    noun: 'calculation',
    plural: 'calculations',
    of: 'this risk type',
  },
])('$what', ({ path, body, noun, plural, of }) => {
  const base = () => `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}/${path}/`;
  const q = () => `?version_id=${f.draftId}`;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const create = async (name: string) => {
    const response = await server.builder.post(`${base()}${q()}`, body(name));
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    return json<Row>(response);
  };

  it('orders the listed ones from 0 and refuses one listed twice or not its own', async () => {
    const a = await create(`${path.charAt(0)}_first`);
    const b = await create(`${path.charAt(0)}_second`);
    const reordered = await server.builder.post(`${base()}reorder/${q()}`, { order: [b.id, a.id] });
    expect(reordered.status).toBe(200);
    const rows = await json<Row[]>(reordered);
    expect(rows.filter((r) => r.id === a.id || r.id === b.id).map((r) => [r.id, r.order])).toEqual([
      [b.id, 0],
      [a.id, 1],
    ]);
    expect(await detail(await server.builder.post(`${base()}reorder/${q()}`, { order: [a.id, a.id] }), 400)).toBe(
      `A ${noun} is listed twice in order.`,
    );
    expect(
      await detail(await server.builder.post(`${base()}reorder/${q()}`, { order: [a.id, 999998, 999999] }), 400),
    ).toBe(`Not ${plural} of ${of}: 999998, 999999.`);
  });

  it('deletes once and restores unless the name was taken again', async () => {
    const name = `${path.charAt(0)}_temporary`;
    const row = await create(name);
    expect(await detail(await server.builder.post(`${base()}${row.id}/restore/${q()}`, {}), 400)).toBe(
      `${Noun} '${name}' is not deleted.`,
    );
    expect((await server.builder.delete(`${base()}${row.id}/${q()}`)).status).toBe(204);
    expect(await detail(await server.builder.delete(`${base()}${row.id}/${q()}`), 400)).toBe(
      `${Noun} '${name}' is already deleted.`,
    );
    const again = await create(name);
    expect(await detail(await server.builder.post(`${base()}${row.id}/restore/${q()}`, {}), 400)).toBe(
      `Another ${noun} named '${name}' exists in ${of}; rename or delete it before restoring this one.`,
    );
    expect((await server.builder.delete(`${base()}${again.id}/${q()}`)).status).toBe(204);
    const restored = await server.builder.post(`${base()}${row.id}/restore/${q()}`, {});
    expect(restored.status).toBe(200);
    expect(await json<Row>(restored)).toMatchObject({ id: row.id, name, deleted_at: null });
    const live = await json<Row[]>(await server.builder.get(`${base()}${q()}`));
    expect(live.filter((r) => r.name === name).map((r) => r.id)).toEqual([row.id]);
  });
});
