import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemLimit } from '../../server/tables.js';
import { createFixture, json, startTablesServer, type Fixture, type TablesTestServer } from './tables-test-server.js';

let server: TablesTestServer;
let f: Fixture;
type Doc = Record<string, unknown> & {
  product: { name: string; label: string };
  version: Record<string, unknown>;
  risk_types: { name: string; calculations: { name: string; calculation: string }[] }[];
  rate_tables: unknown[];
  sequences: unknown[];
  exported_at?: string;
};
type Import = {
  id: number;
  status: string;
  errors: { detail: string; pointer?: string }[];
  product_id: number | null;
  product_version_id: number | null;
  created?: string;
};
type Problem = { detail: string; errors: { detail: string; pointer?: string; parameter?: string }[] };

beforeAll(async () => {
  server = await startTablesServer();
  f = await createFixture(server.db);
  const q = `?version_id=${f.draftId}`;
  const home = `/api/lines/products/${f.productId}/risk-types/${f.draftTypes.home}`;
  const table = await server.builder.post(`${home}/rate-tables/${q}`, {
    name: 'territory_factor',
    key_columns: [
      { name: 'zip', match: 'exact' },
      { name: 'year', match: 'range' },
    ],
    default: '1',
    rows: [
      { keys: { zip: '78701', year: { from: null, to: '1990' } }, value: '1.2' },
      { keys: { zip: '78701', year: { from: '1990', to: null } }, value: '0.95' },
    ],
  });
  expect(table.status).toBe(201);
  await server.db.insert(itemLimit).values({
    productVersionId: f.draftId,
    riskItemId: f.draftItems.dwelling!,
    kind: 'limit',
    label: 'Coverage A',
    defaultValue: '250000',
    minValue: '50000',
  });
  for (const body of [
    { name: 'base', calculation: 'territory_factor(zip, year_built) * 500' },
    { name: 'premium', calculation: 'round(base, 2)' },
  ]) {
    expect((await server.builder.post(`${home}/calculations/${q}`, body)).status).toBe(201);
  }
  const itemCalc = await server.builder.post(`${home}/risk-items/${f.draftItems.dwelling}/calculations/${q}`, {
    name: 'dwelling_premium',
    calculation: "limit('dwelling') * 0.001",
  });
  expect(itemCalc.status).toBe(201);
});
afterAll(() => server?.close());

const exportsPath = () => `/api/lines/products/${f.productId}/exports/`;

async function exportDocument(productId: number, versionId: number): Promise<Doc> {
  const created = await server.builder.post(`/api/lines/products/${productId}/exports/?version_id=${versionId}`, {});
  expect(created.status).toBe(201);
  const record = await json<{ id: number; status: string }>(created);
  expect(record.status).toBe('ready');
  const file = await server.builder.get(
    `/api/lines/products/${productId}/exports/${record.id}/?version_id=${versionId}&download=true`,
  );
  expect(file.status).toBe(200);
  expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
  return json<Doc>(file);
}

async function upload(doc: unknown): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([JSON.stringify(doc)], { type: 'application/json' }), 'product.json');
  return server.builder.send('POST', '/api/lines/product-imports/', { body: form });
}

const comparable = (doc: Doc) => ({
  risk_types: doc.risk_types,
  rate_tables: doc.rate_tables,
  sequences: doc.sequences,
});

describe('product exports', () => {
  it('exports a version, lists and reads its exports', async () => {
    const doc = await exportDocument(f.productId, f.draftId);
    expect(doc).toMatchObject({
      format: 'atrium.lines.product',
      format_version: 1,
      version: { label: '2026.2', status: 'draft' },
    });
    expect(doc.risk_types.map((t) => t.name)).toEqual(['home', 'scheduled_article']);
    expect(doc.risk_types[0]!.calculations.map((c) => c.name)).toEqual(['base', 'premium', 'dwelling_premium']);
    const list = await json<{ id: number; version_id: number }[]>(
      await server.as('viewer').get(`${exportsPath()}?version_id=${f.draftId}`),
    );
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((e) => e.version_id === f.draftId)).toBe(true);
    const one = await server.builder.get(`${exportsPath()}${list[0]!.id}/?version_id=${f.draftId}`);
    expect(await json(one)).toMatchObject({ id: list[0]!.id, status: 'ready' });
    expect((await server.builder.get(`${exportsPath()}${list[0]!.id}/?version_id=${f.publishedId}`)).status).toBe(404);
    expect((await server.builder.get(`${exportsPath()}999999/`)).status).toBe(404);
    expect((await server.builder.post('/api/lines/products/999999/exports/', {})).status).toBe(404);
    expect((await server.builder.get('/api/lines/products/999999/exports/')).status).toBe(404);
    expect((await server.as('viewer').post(exportsPath(), {})).status).toBe(403);
  });
});

describe('product imports', () => {
  it('round-trips: an export imported as a new product exports the same definitions', async () => {
    const original = await exportDocument(f.productId, f.draftId);
    const copy = { ...original, product: { ...original.product, name: `copy_of_${original.product.name}` } };
    const uploaded = await upload(copy);
    expect(uploaded.status).toBe(201);
    const record = await json<Import & { product_name: string }>(uploaded);
    expect(record).toMatchObject({ status: 'uploaded', product_name: copy.product.name });
    expect(await json(await server.as('viewer').get(`/api/lines/product-imports/${record.id}/`))).toMatchObject({
      status: 'uploaded',
    });

    const imported = await server.builder.post(`/api/lines/product-imports/${record.id}/import/`, { overwrite: false });
    expect(imported.status, JSON.stringify(await imported.clone().json())).toBe(200);
    const result = await json<Import>(imported);
    expect(result).toMatchObject({ status: 'imported', created: 'product' });
    const again = await exportDocument(result.product_id!, result.product_version_id!);
    expect(again.product.name).toBe(copy.product.name);
    expect(comparable(again)).toEqual(comparable(original));
    expect((await server.builder.post(`/api/lines/product-imports/${record.id}/import/`, {})).status).toBe(409);

    // The same document again: the product has a draft now, so only overwrite may replace it.
    const second = await json<Import>(await upload(copy));
    const refused = await server.builder.post(`/api/lines/product-imports/${second.id}/import/`, {});
    expect(refused.status).toBe(400);
    expect((await json<Problem>(refused)).detail).toMatch(
      /already has a draft version \(2026\.2\); import with overwrite/,
    );
    const failed = await json<Import>(await server.builder.get(`/api/lines/product-imports/${second.id}/`));
    expect(failed.status).toBe('failed');
    expect(failed.errors[0]!.detail).toMatch(/already has a draft version/);
    const overwritten = await server.builder.post(`/api/lines/product-imports/${second.id}/import/?overwrite=true`, {});
    expect(overwritten.status).toBe(200);
    expect(await json(overwritten)).toMatchObject({
      status: 'imported',
      created: 'overwritten',
      product_version_id: result.product_version_id,
    });
  });

  it('refuses what is not a product export, and fails an import whose formulas do not compile', async () => {
    const form = new FormData();
    form.append('file', new Blob(['{ not json']), 'x.json');
    const notJson = await server.builder.send('POST', '/api/lines/product-imports/', { body: form });
    expect(notJson.status).toBe(400);
    expect((await json<Problem>(notJson)).errors[0]!.parameter).toBe('file');
    const wrong = await upload({ format: 'something else' });
    expect(wrong.status).toBe(400);
    expect((await json<Problem>(wrong)).errors.map((e) => e.pointer)).toContain('/format');
    const noFile = await server.builder.send('POST', '/api/lines/product-imports/', { body: new FormData() });
    expect(noFile.status).toBe(400);

    const original = await exportDocument(f.productId, f.draftId);
    const broken = structuredClone(original);
    broken.product.name = `broken_${original.product.name}`;
    broken.risk_types[0]!.calculations[1]!.calculation = 'base * unknown_factor';
    const record = await json<Import>(await upload(broken));
    const response = await server.builder.post(`/api/lines/product-imports/${record.id}/import/`, {});
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.detail).toMatch(/unknown_factor/);
    expect(body.errors[0]!.pointer).toBe('/risk_types/0/calculations/1/calculation');
    const status = await json<Import>(await server.builder.get(`/api/lines/product-imports/${record.id}/`));
    expect(status).toMatchObject({ status: 'failed', product_id: null });
    // Nothing of the failed import was written: the product name is still free.
    const retry = structuredClone(broken);
    retry.risk_types[0]!.calculations[1]!.calculation = 'round(base, 2)';
    const ok = await server.builder.post(
      `/api/lines/product-imports/${(await json<Import>(await upload(retry))).id}/import/`,
      {},
    );
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ created: 'product' });

    const computed = structuredClone(retry);
    computed.product.name = `computed_${original.product.name}`;
    (computed.risk_types[1] as unknown as { fields: Record<string, unknown>[] }).fields[0]!.type = 'computed';
    const noFormula = await server.builder.post(
      `/api/lines/product-imports/${(await json<Import>(await upload(computed))).id}/import/`,
      {},
    );
    expect(noFormula.status).toBe(400);
    expect((await json<Problem>(noFormula)).errors[0]).toMatchObject({
      detail: "Computed field 'value' needs a formula.",
      pointer: '/risk_types/1/fields/0/formula',
    });

    expect((await server.builder.get('/api/lines/product-imports/999999/')).status).toBe(404);
    expect((await server.builder.post('/api/lines/product-imports/999999/import/', {})).status).toBe(404);
    expect((await server.as('viewer').post('/api/lines/product-imports/1/import/', {})).status).toBe(403);
  });
});
