import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product, productVersion, riskField, riskType } from '../../server/tables.js';
import { createFixture, json, startTablesServer, type Fixture, type TablesTestServer } from './tables-test-server.js';

let server: TablesTestServer;
let f: Fixture;

beforeAll(async () => {
  server = await startTablesServer();
  f = await createFixture(server.db);
});
afterAll(() => server?.close());

type Group = {
  fields: { name: string; old_value: unknown; new_value: unknown; options: { added: string[]; removed: string[] } }[];
  items: { name: string }[];
};
type Difference = { product: string; risk_type: string; status: string; added: Group; removed: Group; changed: Group };
type Differences = { version_id: number; compared_version_id: number | null; differences: Difference[] };
type Problem = { detail: string; errors: { detail: string; pointer?: string }[] };

describe('differences', () => {
  it('compares the draft with the version it was copied from', async () => {
    const response = await server
      .as('viewer')
      .get(`/api/lines/products/${f.productId}/differences/?version_id=${f.draftId}`);
    expect(response.status).toBe(200);
    const body = await json<Differences>(response);
    expect(body.compared_version_id).toBe(f.publishedId);
    expect(body.differences.map((d) => d.risk_type)).toEqual(['home']);
    const home = body.differences[0]!;
    expect(home.added.fields.map((x) => x.name)).toEqual(['roof_year']);
    expect(home.changed.fields.find((x) => x.name === 'year_built')).toMatchObject({
      old_value: { default: '1980' },
      new_value: { default: '1990' },
    });
    expect(home.changed.fields.find((x) => x.name === 'occupancy')!.options).toEqual({
      added: ['seasonal'],
      removed: [],
    });
    expect(home.added.items.map((x) => x.name)).toEqual(['water_backup']);
    expect(home.removed.items.map((x) => x.name)).toEqual(['theft']);
  });

  it('compares a first version with nothing, and takes descendants in on request', async () => {
    const first = await json<Differences>(
      await server.builder.get(`/api/lines/products/${f.productId}/differences/?version_id=${f.publishedId}`),
    );
    expect(first.compared_version_id).toBeNull();
    expect(first.differences.map((d) => [d.risk_type, d.status])).toEqual([
      ['home', 'added'],
      ['scheduled_article', 'added'],
    ]);

    const [child] = await server.db
      .insert(product)
      .values({
        lineId: f.lineId,
        parentProductId: f.productId,
        depth: 2,
        name: `ho3_tx_${f.productId}`,
        label: 'HO-3 Texas',
      })
      .returning();
    const [childVersion] = await server.db
      .insert(productVersion)
      .values({
        productId: child!.id,
        number: 1,
        label: '2026.2-TX',
        effectiveDate: '2026-07-01',
        parentVersionId: f.draftId,
      })
      .returning();
    const [hail] = await server.db
      .insert(riskType)
      .values({ productVersionId: childVersion!.id, name: 'hail_zone', label: 'Hail zone' })
      .returning();
    await server.db.insert(riskField).values({
      productVersionId: childVersion!.id,
      riskTypeId: hail!.id,
      name: 'zone',
      label: 'Zone',
      type: 'string',
    });

    const without = await json<Differences>(
      await server.builder.get(`/api/lines/products/${f.productId}/differences/?version_id=${f.draftId}`),
    );
    expect(new Set(without.differences.map((d) => d.product)).size).toBe(1);
    expect(without.differences.some((d) => d.risk_type === 'hail_zone')).toBe(false);
    const withChildren = await json<Differences>(
      await server.builder.get(
        `/api/lines/products/${f.productId}/differences/?version_id=${f.draftId}&include_descendants=true`,
      ),
    );
    const hailZone = withChildren.differences.find((d) => d.risk_type === 'hail_zone');
    expect(hailZone).toMatchObject({ product: child!.name, status: 'added' });
    expect(hailZone!.added.fields.map((x) => x.name)).toEqual(['zone']);
  });

  it('answers 404 for an unknown product or version and 400 for a bad flag', async () => {
    expect((await server.builder.get('/api/lines/products/999999/differences/')).status).toBe(404);
    expect((await server.builder.get(`/api/lines/products/${f.productId}/differences/?version_id=999999`)).status).toBe(
      404,
    );
    expect(
      (await server.builder.get(`/api/lines/products/${f.productId}/differences/?include_descendants=maybe`)).status,
    ).toBe(400);
    expect((await server.as(null).get(`/api/lines/products/${f.productId}/differences/`)).status).toBe(401);
  });
});

describe('product mappings', () => {
  const path = () => `/api/lines/product-mappings/${f.productId}/?version_id=${f.draftId}`;

  it('starts empty, saves a mapping and reads it back', async () => {
    expect(await json(await server.builder.get(path()))).toMatchObject({
      mapping: {},
      compared_version_id: f.publishedId,
    });
    const mapping = {
      home: {
        fields: [
          { sources: ['year_built'], targets: ['roof_year'], operation: 'map' },
          { sources: [], targets: ['occupancy'], operation: 'other', description: 'asked again' },
        ],
      },
    };
    const saved = await server.builder.put(path(), { mapping });
    expect(saved.status).toBe(200);
    expect((await json<{ mapping: unknown }>(saved)).mapping).toEqual(mapping);
    expect((await json<{ mapping: unknown }>(await server.as('viewer').get(path()))).mapping).toEqual(mapping);
  });

  it('refuses names that are not fields or risk types, pointing at them', async () => {
    const response = await server.builder.put(path(), {
      mapping: {
        home: { fields: [{ sources: ['zip', 'nope'], targets: ['missing'], operation: 'map' }] },
        boat: { fields: [] },
      },
    });
    expect(response.status).toBe(400);
    const body = await json<Problem>(response);
    expect(body.errors.map((e) => [e.pointer, e.detail])).toEqual([
      [
        '/mapping/home/fields/0/sources/1',
        "Source 'nope' is not a field of 'home' in this version or the one before it.",
      ],
      ['/mapping/home/fields/0/targets/0', "Target 'missing' is not a field of 'home' in this version."],
      ['/mapping/boat', "'boat' is not a risk type of this version."],
    ]);
    const bad = await server.builder.put(path(), {
      mapping: { home: { fields: [{ sources: [], targets: ['zip'] }] } },
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await server.builder.put(path(), {
          mapping: { home: { fields: [{ sources: ['zip'], targets: [], operation: 'map' }] } },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await server.builder.put(path(), {
          mapping: { home: { fields: [{ sources: ['zip'], targets: ['zip'], operation: 'copy' }] } },
        })
      ).status,
    ).toBe(400);
  });

  it('refuses changes to a published version and unknown products', async () => {
    const response = await server.builder.put(
      `/api/lines/product-mappings/${f.productId}/?version_id=${f.publishedId}`,
      {
        mapping: {},
      },
    );
    expect(response.status).toBe(400);
    expect((await json<Problem>(response)).detail).toMatch(/only a draft version can be edited/);
    expect((await server.builder.get('/api/lines/product-mappings/999999/')).status).toBe(404);
    expect((await server.as('viewer').put(path(), { mapping: {} })).status).toBe(403);
  });
});
