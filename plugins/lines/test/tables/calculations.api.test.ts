import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, json, startTablesServer, type Fixture, type TablesTestServer } from './tables-test-server.js';

let server: TablesTestServer;
let f: Fixture;

beforeAll(async () => {
  server = await startTablesServer();
  f = await createFixture(server.db);
});
afterAll(() => server?.close());

const base = () => `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}/calculations/`;
const q = () => `?version_id=${f.draftId}`;
type Calc = {
  id: number;
  name: string;
  calculation: string;
  order: number;
  risk_item_id: number | null;
  deleted_at: string | null;
};
type Problem = {
  detail: string;
  code?: string;
  errors: { detail: string; pointer?: string }[];
  position?: { line: number; column: number; offset: number };
  cycle?: string[];
};

async function create(body: Record<string, unknown>, path = base()): Promise<Calc> {
  const response = await server.builder.post(`${path}${q()}`, body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return json<Calc>(response);
}

describe('calculations', () => {
  it('creates, reads and lists calculations in order', async () => {
    const age = await create({ name: 'home_age', calculation: '2026 - year_built' });
    const factor = await create({ name: 'age_factor', calculation: 'home_age * 0.01 + 1', round_places: 4 });
    expect(factor).toMatchObject({ name: 'age_factor', order: age.order + 1, round_places: 4, round_mode: 'half-up' });
    const one = await json<Calc>(await server.as('viewer').get(`${base()}${age.id}/${q()}`));
    expect(one.calculation).toBe('2026 - year_built');
    const list = await json<Calc[]>(await server.builder.get(`${base()}${q()}`));
    expect(list.map((c) => c.name)).toEqual(['home_age', 'age_factor']);
  });

  it('refuses a formula that does not parse with a 400 naming line and column', async () => {
    const response = await server.builder.post(`${base()}${q()}`, { name: 'broken', calculation: 'max(1,\n  2' });
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.detail).toBe(
      "Syntax error at line 2, column 4 (offset 10): expected ',' or ')' closing the arguments of max(, found end of formula",
    );
    expect(body.errors[0]!.pointer).toBe('/calculation');
    expect(body.position).toEqual({ line: 2, column: 4, offset: 10 });
    const list = await json<Calc[]>(await server.builder.get(`${base()}${q()}`));
    expect(list.map((c) => c.name)).not.toContain('broken');
  });

  it('reports names outside the rating context and writes nothing', async () => {
    const response = await server.builder.post(`${base()}${q()}`, {
      name: 'mystery',
      calculation: 'year_built * no_such_thing',
    });
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.code).toBe('unknown_reference');
    expect(body.detail).toMatch(/no_such_thing/);
    expect(body.errors[0]!.pointer).toBe('/calculation');
    const list = await json<Calc[]>(await server.builder.get(`${base()}${q()}`));
    expect(list.map((c) => c.name)).not.toContain('mystery');
  });

  it('reports a cycle between calculations and keeps the old formula', async () => {
    const a = await create({ name: 'cyc_a', calculation: '1' });
    await create({ name: 'cyc_b', calculation: 'cyc_a + 1' });
    const response = await server.builder.put(`${base()}${a.id}/${q()}`, { calculation: 'cyc_b * 2' });
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.code).toBe('cycle');
    expect(body.detail).toMatch(/Cycle between calculations of 'home': cyc_(a|b) → cyc_(a|b) → cyc_(a|b)/);
    expect((await json<Calc>(await server.builder.get(`${base()}${a.id}/${q()}`))).calculation).toBe('1');
    const patched = await server.builder.patch(`${base()}${a.id}/${q()}`, { calculation: 'year_built / 1000' });
    expect(patched.status).toBe(200);
    expect((await json<Calc>(patched)).calculation).toBe('year_built / 1000');
  });

  it('keeps calculations of an item under the item path', async () => {
    const itemBase = `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}/risk-items/${f.draftItems.dwelling}/calculations/`;
    const calc = await create({ name: 'dwelling_premium', calculation: "limit('dwelling') * 0.003" }, itemBase);
    expect(calc.risk_item_id).toBe(f.draftItems.dwelling);
    const list = await json<Calc[]>(await server.builder.get(`${itemBase}${q()}`));
    expect(list.map((c) => c.name)).toEqual(['dwelling_premium']);
    expect(
      (await server.builder.get(`${itemBase}${(await create({ name: 'plain', calculation: '1' })).id}/${q()}`)).status,
    ).toBe(404);
    const otherItem = `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}/risk-items/999999/calculations/`;
    expect((await server.builder.get(`${otherItem}${q()}`)).status).toBe(404);
  });

  it('reorders, deletes and restores', async () => {
    const list = await json<Calc[]>(await server.builder.get(`${base()}${q()}`));
    const ids = list.map((c) => c.id).reverse();
    const reordered = await server.builder.post(`${base()}reorder/${q()}`, { order: ids });
    expect(reordered.status).toBe(200);
    expect((await json<Calc[]>(reordered)).map((c) => c.id)).toEqual(ids);
    expect((await server.builder.post(`${base()}reorder/${q()}`, { order: [ids[0], ids[0]] })).status).toBe(400);
    expect((await server.builder.post(`${base()}reorder/${q()}`, { order: [999999] })).status).toBe(400);

    const victim = await create({ name: 'temporary', calculation: '5' });
    expect((await server.builder.delete(`${base()}${victim.id}/${q()}`)).status).toBe(204);
    expect((await json<Calc[]>(await server.builder.get(`${base()}${q()}`))).map((c) => c.name)).not.toContain(
      'temporary',
    );
    const deleted = await json<Calc[]>(await server.builder.get(`${base()}${q()}&include_deleted=true`));
    expect(deleted.find((c) => c.name === 'temporary')?.deleted_at).toBeTruthy();
    const restored = await server.builder.post(`${base()}${victim.id}/restore/${q()}`, {});
    expect(restored.status).toBe(200);
    expect((await json<Calc>(restored)).deleted_at).toBeNull();
    expect((await server.builder.post(`${base()}${victim.id}/restore/${q()}`, {})).status).toBe(400);
  });

  it('refuses duplicates, bad input, unknown products and versions that are not drafts', async () => {
    const dup = await server.builder.post(`${base()}${q()}`, { name: 'HOME_AGE', calculation: '1' });
    expect(dup.status).toBe(400);
    expect((await json<Problem>(dup)).errors[0]!.pointer).toBe('/name');
    expect((await server.builder.post(`${base()}${q()}`, { name: 'x' })).status).toBe(400);
    const noItem = await server.builder.post(`${base()}${q()}`, { name: 'x', calculation: '1', risk_item_id: 999999 });
    expect(noItem.status).toBe(400);
    expect((await json<Problem>(noItem)).errors[0]!.pointer).toBe('/risk_item_id');
    expect((await server.builder.post(`${base()}${q()}`, { name: 'x y', calculation: '1' })).status).toBe(400);
    expect((await server.builder.post(`${base()}${q()}`, { name: 'x', calculation: '1', extra: 1 })).status).toBe(400);
    expect((await server.builder.get(`/api/lines/products/999999/risk-types/1/calculations/`)).status).toBe(404);
    expect((await server.builder.get(`${base()}999999/${q()}`)).status).toBe(404);
    const published = `/api/lines/products/${f.productId}/risk-types/${f.publishedTypes.home}/calculations/?version_id=${f.publishedId}`;
    const refused = await server.builder.post(published, { name: 'late', calculation: '1' });
    expect(refused.status).toBe(400);
    expect((await json<Problem>(refused)).detail).toMatch(
      /^Version 1 of HO-3 \d+ is published; only a draft version can be edited\.$/,
    );
    expect((await server.as('viewer').post(`${base()}${q()}`, { name: 'nope', calculation: '1' })).status).toBe(403);
  });
});
