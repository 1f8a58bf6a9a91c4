import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_LIMITS } from '@atrium/sdk/server';
import { declaringSize, zipOfZeros, zipWithEntries } from '@atrium/sdk/testing';
import { product, productVersion } from '../../server/tables.js';
import { createFixture, json, startTablesServer, type Fixture, type TablesTestServer } from './tables-test-server.js';

let server: TablesTestServer;
let f: Fixture;

beforeAll(async () => {
  server = await startTablesServer();
  f = await createFixture(server.db);
});
afterAll(() => server?.close());

const base = () => `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}/rate-tables/`;
const q = () => `?version_id=${f.draftId}`;
type Table = {
  id: number;
  name: string;
  rowsCount: number;
  validityState: string;
  default: string | null;
  rows: { keys: Record<string, unknown>; value: string }[];
  key_columns: { name: string; match: string }[];
  deleted_at: string | null;
  risk_type: string | null;
};
type Problem = { detail: string; errors: { detail: string; pointer?: string; parameter?: string }[] };

async function createTable(body: Record<string, unknown>): Promise<Table> {
  const response = await server.builder.post(`${base()}${q()}`, body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return json<Table>(response);
}

describe('rate tables', () => {
  it('creates a table with range keys and reads it back with rowsCount and validityState', async () => {
    const table = await createTable({
      name: 'coverage_factor',
      key_columns: [
        { name: 'territory', match: 'exact' },
        { name: 'coverage_a', match: 'range' },
      ],
      default: '1',
      rows: [
        { keys: { territory: 1, coverage_a: { from: 0, to: 100000 } }, value: 1.05 },
        { keys: { territory: '1', coverage_a: { from: '100000', to: null } }, value: '1.10' },
      ],
    });
    expect(table).toMatchObject({
      name: 'coverage_factor',
      rowsCount: 2,
      validityState: 'valid',
      default: '1',
      risk_type: 'home',
    });
    expect(table.rows[0]).toEqual({ keys: { territory: '1', coverage_a: { from: '0', to: '100000' } }, value: '1.05' });

    const list = await json<Table[]>(await server.as('viewer').get(`${base()}${q()}`));
    expect(list.map((t) => [t.name, t.rowsCount, t.validityState])).toContainEqual(['coverage_factor', 2, 'valid']);
    const all = await json<Table[]>(await server.builder.get(`/api/lines/products/${f.productId}/rate-tables/${q()}`));
    expect(all.map((t) => t.name)).toContain('coverage_factor');
    const one = await json<Table>(await server.builder.get(`${base()}${table.id}/${q()}`));
    expect(one.rows).toHaveLength(2);
  });

  it('refuses overlapping ranges and non-numeric values, naming row and column', async () => {
    const response = await server.builder.post(`${base()}${q()}`, {
      name: 'bad_table',
      key_columns: [{ name: 'age', match: 'range' }],
      rows: [
        { keys: { age: { from: 0, to: 30 } }, value: '1' },
        { keys: { age: { from: 20, to: 40 } }, value: '2' },
      ],
    });
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.errors[0]).toMatchObject({
      detail: "Row 2, column 'age': the range 20-40 overlaps row 1 (0-30)",
      pointer: '/rows/1/keys/age',
    });
    const notNumber = await server.builder.post(`${base()}${q()}`, {
      name: 'bad_table',
      key_columns: [{ name: 'zip', match: 'exact' }],
      rows: [{ keys: { zip: '78701' }, value: 'abc' }],
    });
    expect(notNumber.status).toBe(400);
    expect((await json<Problem>(notNumber)).errors[0]).toMatchObject({
      detail: "Row 1, column 'value': 'abc' is not a number",
      pointer: '/rows/0/value',
    });
    const noType = await server.builder.post(`/api/lines/products/${f.productId}/rate-tables/${q()}`, {
      name: 'x',
      key_columns: [],
      risk_type_id: 999999,
    });
    expect(noType.status).toBe(400);
    expect((await json<Problem>(noType)).errors[0]!.pointer).toBe('/risk_type_id');
    const badName = await server.builder.post(`${base()}${q()}`, { name: '1 bad name', key_columns: [] });
    expect(badName.status).toBe(400);
    const unknownKey = await server.builder.post(`${base()}${q()}`, {
      name: 'x',
      key_columns: [],
      interpolate: 'nope',
    });
    expect(unknownKey.status).toBe(400);
    expect((await json<Problem>(unknownKey)).detail).toContain('interpolate must name one of the key columns');
  });

  it('refuses a duplicate name, and edits on a version that is not a draft', async () => {
    await createTable({ name: 'dup_table', key_columns: [{ name: 'a', match: 'exact' }] });
    const dup = await server.builder.post(`${base()}${q()}`, { name: 'DUP_TABLE', key_columns: [] });
    expect(dup.status).toBe(400);
    expect((await json<Problem>(dup)).errors[0]!.pointer).toBe('/name');

    const published = `/api/lines/products/${f.productId}/risk-types/${f.publishedTypes.home}/rate-tables/?version_id=${f.publishedId}`;
    const refused = await server.builder.post(published, { name: 'late_table', key_columns: [] });
    expect(refused.status).toBe(400);
    expect((await json<Problem>(refused)).detail).toMatch(/is published; only a draft version can be edited/);
  });

  it('answers 404 for an unknown product, version, risk type or table, and 403 to a reader writing', async () => {
    expect((await server.builder.get(`/api/lines/products/999999/rate-tables/`)).status).toBe(404);
    expect((await server.builder.get(`/api/lines/products/${f.productId}/rate-tables/?version_id=999999`)).status).toBe(
      404,
    );
    expect(
      (await server.builder.get(`/api/lines/products/${f.productId}/risk-types/999999/rate-tables/${q()}`)).status,
    ).toBe(404);
    expect((await server.builder.get(`${base()}999999/${q()}`)).status).toBe(404);
    expect((await server.builder.get(`/api/lines/products/abc/rate-tables/`)).status).toBe(400);
    expect((await server.as('viewer').post(`${base()}${q()}`, { name: 'nope', key_columns: [] })).status).toBe(403);
    expect((await server.as(null).get(`${base()}${q()}`)).status).toBe(401);
  });

  it('updates, replaces rows, deletes, restores and reorders', async () => {
    const a = await createTable({ name: 'order_a', key_columns: [{ name: 'k', match: 'exact' }] });
    const b = await createTable({ name: 'order_b', key_columns: [{ name: 'k', match: 'exact' }] });
    expect(a.validityState).toBe('empty');

    const put = await server.builder.put(`${base()}${a.id}/${q()}`, {
      label: 'Order A',
      default: 2,
      rows: [{ keys: { k: 'x' }, value: '3' }],
    });
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ label: 'Order A', default: '2', rowsCount: 1, validityState: 'valid' });

    const rows = await server.builder.put(`${base()}${a.id}/rows/${q()}`, {
      rows: [
        { keys: { k: 'x' }, value: '1' },
        { keys: { k: 'y' }, value: '2' },
      ],
    });
    expect(rows.status).toBe(200);
    expect(
      (await json<{ rowsCount: number }>(await server.builder.get(`${base()}${a.id}/rows/${q()}`))).rowsCount,
    ).toBe(2);
    const dupRows = await server.builder.put(`${base()}${a.id}/rows/${q()}`, {
      rows: [
        { keys: { k: 'x' }, value: '1' },
        { keys: { k: 'x' }, value: '2' },
      ],
    });
    expect(dupRows.status).toBe(400);
    expect((await json<Problem>(dupRows)).errors[0]!.detail).toBe('Row 2: has the same keys as row 1');
    // Nothing was half-written.
    expect(
      (await json<{ rowsCount: number }>(await server.builder.get(`${base()}${a.id}/rows/${q()}`))).rowsCount,
    ).toBe(2);

    const reorder = await server.builder.post(`${base()}reorder/${q()}`, { order: [b.id, a.id] });
    expect(reorder.status).toBe(200);
    const names = (await json<Table[]>(reorder)).map((t) => t.name);
    expect(names.indexOf('order_b')).toBeLessThan(names.indexOf('order_a'));
    expect((await server.builder.post(`${base()}reorder/${q()}`, { order: [a.id, 999999] })).status).toBe(400);

    expect((await server.builder.delete(`${base()}${a.id}/${q()}`)).status).toBe(204);
    const listed = await json<Table[]>(await server.builder.get(`${base()}${q()}`));
    expect(listed.map((t) => t.name)).not.toContain('order_a');
    const withDeleted = await json<Table[]>(await server.builder.get(`${base()}${q()}&include_deleted=true`));
    expect(withDeleted.find((t) => t.name === 'order_a')?.deleted_at).toBeTruthy();
    expect((await server.builder.delete(`${base()}${a.id}/${q()}`)).status).toBe(400);
    const restored = await server.builder.post(`${base()}${a.id}/restore/${q()}`, {});
    expect(restored.status).toBe(200);
    expect(await json(restored)).toMatchObject({ name: 'order_a', deleted_at: null, rowsCount: 2 });
    expect((await server.builder.post(`${base()}${a.id}/restore/${q()}`, {})).status).toBe(400);
  });

  it('takes a paste of tab-separated cells and interpolates as the engine does', async () => {
    const table = await createTable({
      name: 'coverage_relativity',
      key_columns: [{ name: 'coverage_a', match: 'exact' }],
      interpolate: 'coverage_a',
    });
    const text = 'coverage_a\tvalue\n100,000\t0.85\n200000\t1.00\n300000\t1.15\n';
    const pasted = await server.builder.post(`${base()}${table.id}/paste/${q()}`, { text });
    expect(pasted.status).toBe(200);
    const body = await json<Table>(pasted);
    expect(body.rowsCount).toBe(3);
    expect(body.rows[0]).toEqual({ keys: { coverage_a: '100000' }, value: '0.85' });

    const bad = await server.builder.post(`${base()}${table.id}/paste/${q()}`, {
      text: 'coverage_a\tvalue\n100000\tlots\n200000\t1\n200000\t2\n',
    });
    expect(bad.status).toBe(400);
    const problem = await json<Problem>(bad);
    expect(problem.errors.map((e) => e.detail)).toEqual(["Row 2, column 'value': 'lots' is not a number"]);
    expect(problem.errors[0]!.pointer).toBe('/text');
    const dup = await server.builder.post(`${base()}${table.id}/paste/${q()}`, {
      text: 'coverage_a\tvalue\n200000\t1\n200,000\t2\n',
    });
    expect((await json<Problem>(dup)).errors.map((e) => e.detail)).toEqual(['Row 3: has the same keys as row 2']);
    expect((await server.builder.post(`${base()}${table.id}/paste/${q()}`, { text: '' })).status).toBe(400);
  });

  it('takes its key columns from the header of a paste into a table without keys', async () => {
    const table = await createTable({ name: 'age_factor', key_columns: [] });
    const pasted = await server.builder.post(`${base()}${table.id}/paste/${q()}`, {
      text: 'state\tage from\tage to\tfactor\nTX\t16\t25\t1.8\nTX\t25\t\t1.0\n',
    });
    expect(pasted.status).toBe(200);
    const body = await json<Table>(pasted);
    expect(body.key_columns).toEqual([
      { name: 'state', match: 'exact' },
      { name: 'age', match: 'range' },
    ]);
    expect(body.rows[1]).toEqual({ keys: { state: 'TX', age: { from: '25', to: null } }, value: '1.0' });
  });

  it('exports and imports CSV and XLSX, round trip', async () => {
    const table = await createTable({
      name: 'territory_factor',
      key_columns: [
        { name: 'territory', match: 'exact' },
        { name: 'amount', match: 'range' },
      ],
      rows: [
        { keys: { territory: 'north, east', amount: { from: '0', to: '1000' } }, value: '1.125' },
        { keys: { territory: '2', amount: { from: '1000', to: null } }, value: '0.987654321' },
      ],
    });
    const csv = await server.builder.get(`${base()}${table.id}/export/${q()}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="territory_factor.csv"');
    const csvText = await csv.text();
    expect(csvText.split('\r\n')[0]).toBe('territory,amount from,amount to,value');

    // Change the rows, then import the CSV: the original rows are back.
    await server.builder.put(`${base()}${table.id}/rows/${q()}`, { rows: [] });
    const form = new FormData();
    form.append('file', new Blob([csvText], { type: 'text/csv' }), 'territory_factor.csv');
    const imported = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, { body: form });
    expect(imported.status).toBe(200);
    expect((await json<Table>(imported)).rows).toEqual(table.rows);

    const xlsx = await server.builder.get(`${base()}${table.id}/export/${q()}&format=xlsx`);
    expect(xlsx.headers.get('content-disposition')).toBe('attachment; filename="territory_factor.xlsx"');
    const workbookBytes = Buffer.from(await xlsx.arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(workbookBytes as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([
      undefined,
      'territory',
      'amount from',
      'amount to',
      'value',
    ]);

    await server.builder.put(`${base()}${table.id}/rows/${q()}`, { rows: [] });
    const xlsxForm = new FormData();
    xlsxForm.append('file', new Blob([workbookBytes]), 'territory_factor.xlsx');
    const back = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, { body: xlsxForm });
    expect(back.status).toBe(200);
    expect((await json<Table>(back)).rows).toEqual(table.rows);

    const bad = new FormData();
    bad.append('file', new Blob(['territory,colour,value\n1,2,3\n']), 'bad.csv');
    const refused = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, { body: bad });
    expect(refused.status).toBe(400);
    expect((await json<Problem>(refused)).errors[0]).toMatchObject({
      detail: "Row 1, column 'colour': not a key of this table (keys: territory, amount) nor the value column",
      parameter: 'file',
    });
    const raw = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, {
      body: 'territory,amount,value\n3,0-10,2\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(raw.status).toBe(200);
    expect((await json<Table>(raw)).rows).toEqual([
      { keys: { territory: '3', amount: { from: '0', to: '10' } }, value: '2' },
    ]);
    const noFile = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, { body: new FormData() });
    expect(noFile.status).toBe(400);
  });

  it("shows a parent product's tables in a child product as inherited and read-only there", async () => {
    const parentTable = await createTable({ name: 'inherited_factor', key_columns: [{ name: 'k', match: 'exact' }] });
    const [child] = await server.db
      .insert(product)
      .values({
        lineId: f.lineId,
        parentProductId: f.productId,
        depth: 2,
        name: `child_${f.productId}`,
        label: 'Child',
      })
      .returning();
    const [childVersion] = await server.db
      .insert(productVersion)
      .values({ productId: child!.id, number: 1, label: 'c1', effectiveDate: '2026-07-01', parentVersionId: f.draftId })
      .returning();
    const childBase = `/api/lines/products/${child!.id}/rate-tables/`;
    const cq = `?version_id=${childVersion!.id}`;
    const list = await json<(Table & { inheritanceStatus: string })[]>(await server.builder.get(`${childBase}${cq}`));
    expect(list.find((t) => t.name === 'inherited_factor')?.inheritanceStatus).toBe('inherited');
    const refused = await server.builder.put(`${childBase}${parentTable.id}/${cq}`, { label: 'changed' });
    expect(refused.status).toBe(400);
    expect((await json<Problem>(refused)).detail).toMatch(
      /is inherited from .*create a rate table named 'inherited_factor'/,
    );
    const override = await server.builder.post(`${childBase}${cq}`, {
      name: 'inherited_factor',
      key_columns: [{ name: 'k', match: 'exact' }],
    });
    expect(override.status).toBe(201);
    expect(await json(override)).toMatchObject({ inheritanceStatus: 'overridden' });
  });

  it('refuses a zip bomb as an XLSX upload before parsing it (413), and leaves the rows alone', async () => {
    const table = await createTable({
      name: 'bomb_target',
      key_columns: [{ name: 'k', match: 'exact' }],
      rows: [{ keys: { k: '1' }, value: '2' }],
    });
    for (const [bytes, code] of [
      [await zipWithEntries(XLSX_LIMITS.maxEntries + 1), 'too_many_entries'],
      // A 1 kB entry that declares 3 GB.
      [declaringSize(await zipOfZeros(1000), 3_000_000_000), 'expands_too_large'],
    ] as const) {
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'bomb.xlsx');
      const refused = await server.builder.send('POST', `${base()}${table.id}/import/${q()}`, { body: form });
      expect(refused.status).toBe(413);
      expect((await json<Problem & { errors: { code?: string }[] }>(refused)).errors[0]).toMatchObject({
        code,
        parameter: 'file',
      });
    }
    const after = await json<Table>(await server.builder.get(`${base()}${table.id}/${q()}`));
    expect(after.rows).toEqual([{ keys: { k: '1' }, value: '2' }]);
  });

  it('checks access on uploads too', async () => {
    const form = new FormData();
    form.append('file', new Blob(['k,value\n1,2\n']), 'x.csv');
    expect((await server.as(null).send('POST', `${base()}1/import/${q()}`, { body: form })).status).toBe(401);
    expect((await server.as('viewer').send('POST', `${base()}1/import/${q()}`, { body: form })).status).toBe(403);
  });
});
