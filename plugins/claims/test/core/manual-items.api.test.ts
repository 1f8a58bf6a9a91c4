import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from '../../server/core/tables.js';
import { startLedgerServer, type LedgerTestServer } from '../ledger/ledger-test-server.js';

/** manual-items/ and manual-limits/ (docs/claims-screens.md, "Manual Items"): fields, validation, search, permissions. */
let server: LedgerTestServer;
let auto: string;
let home: string;
beforeAll(async () => {
  server = await startLedgerServer();
  const db = server.atrium.database.db;
  const rows = await db
    .insert(product)
    .values([
      { name: 'mi-auto', label: 'Auto' },
      { name: 'mi-home', label: 'Home' },
    ])
    .returning();
  auto = String(rows[0]!.id);
  home = String(rows[1]!.id);
});
afterAll(async () => {
  await server?.close();
});

const body = async (response: Response) => (await response.json()) as any;
const errorsOf = async (response: Response) =>
  ((await body(response)).errors as { detail: string; source?: { pointer?: string } }[]).map((e) => [
    e.source?.pointer,
    e.detail,
  ]);
const rel = (type: string, id: string | null) => ({ data: id === null ? null : { type, id } });
const itemDoc = (attributes: Record<string, unknown>, productId: string | null = auto, id?: string) => ({
  data: {
    type: 'manual-item',
    ...(id ? { id } : {}),
    attributes,
    relationships: { product: rel('product', productId) },
  },
});
const limitDoc = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}, id?: string) => ({
  data: { type: 'manual-limit', ...(id ? { id } : {}), attributes, relationships },
});

describe('manual items', () => {
  it('creates, lists with a case-insensitive search, edits and deactivates items per product', async () => {
    const created = await server.admin.post(
      '/api/claims/manual-items/',
      itemDoc({ name: 'rental_car', label: 'Rental Car', code: 'RC', description: 'While the car is repaired' }),
    );
    expect(created.status).toBe(201);
    const item = (await body(created)).data;
    expect(item).toMatchObject({
      type: 'manual-item',
      attributes: {
        name: 'rental_car',
        label: 'Rental Car',
        code: 'RC',
        description: 'While the car is repaired',
        expired: false,
      },
      relationships: { product: { data: { type: 'product', id: auto } } },
    });
    await server.admin.post(
      '/api/claims/manual-items/',
      itemDoc({ name: 'housing', label: 'Temporary Housing' }, home),
    );
    await server.admin.post('/api/claims/manual-items/', itemDoc({ name: 'towing', label: 'Towing' }, null));

    const search = await body(await server.adjuster.get('/api/claims/manual-items/?filter[search]=RENTAL'));
    expect(search.data.map((r: any) => r.attributes.label)).toEqual(['Rental Car']);
    const forAuto = await body(await server.adjuster.get(`/api/claims/manual-items/?filter[product_id]=${auto}`));
    // A product's list includes what applies to every product.
    expect(forAuto.data.map((r: any) => r.attributes.label).sort()).toEqual(['Rental Car', 'Towing']);
    const literal = await body(await server.adjuster.get('/api/claims/manual-items/?filter[search]=%25'));
    expect(literal.data).toEqual([]);

    const edited = await server.admin.patch(
      `/api/claims/manual-items/${item.id}/`,
      itemDoc({ label: 'Rental car', expired: true }, auto, item.id),
    );
    expect(edited.status).toBe(200);
    expect((await body(edited)).data.attributes).toMatchObject({
      label: 'Rental car',
      expired: true,
      description: 'While the car is repaired',
    });
    const active = await body(await server.adjuster.get('/api/claims/manual-items/?filter[expired]=false'));
    expect(active.data.map((r: any) => r.attributes.label)).not.toContain('Rental car');
    // Deactivated, never deleted.
    expect((await server.admin.delete(`/api/claims/manual-items/${item.id}/`)).status).toBe(404);
    const audit = await body(await server.admin.get(`/api/claims/audit-log/?filter[entity_type]=manual-item`));
    expect(audit.data.map((e: any) => e.attributes.action)).toContain('update');
  });

  it('refuses bad input with pointers and the spec’s messages', async () => {
    await server.admin.post('/api/claims/manual-items/', itemDoc({ name: 'glass', label: 'Glass' }));
    const cases: [unknown, number, [string, string]][] = [
      [itemDoc({ label: 'No name' }), 400, ['/data/attributes/name', 'This field is required.']],
      [itemDoc({ name: ' ', label: 'Blank' }), 400, ['/data/attributes/name', 'This field is required.']],
      [
        itemDoc({ name: 'x', label: 'X', code: 'A B' }),
        400,
        ['/data/attributes/code', 'The Code cannot contain spaces.'],
      ],
      [
        itemDoc({ name: 'glass', label: 'Glass again' }),
        409,
        ['/data/attributes/name', 'A manual item with this name already exists for this product.'],
      ],
      [itemDoc({ name: 'y', label: 'Y' }, '999999'), 400, ['/data/relationships/product', 'Product 999999 not found.']],
    ];
    for (const [document, status, error] of cases) {
      const response = await server.admin.post('/api/claims/manual-items/', document);
      expect(response.status, JSON.stringify(document)).toBe(status);
      expect(await errorsOf(response)).toContainEqual(error);
    }
    // The same name under another product is another item.
    expect(
      (await server.admin.post('/api/claims/manual-items/', itemDoc({ name: 'glass', label: 'Glass' }, home))).status,
    ).toBe(201);
  });

  it('is written only with claims:lookup create/update (an underwriter only reads)', async () => {
    const underwriter = server.as('underwriter@atrium.test');
    expect((await underwriter.get('/api/claims/manual-items/')).status).toBe(200);
    expect((await underwriter.post('/api/claims/manual-items/', itemDoc({ name: 'u', label: 'U' }))).status).toBe(403);
    expect(
      (await underwriter.post('/api/claims/manual-limits/', limitDoc({ name: 'u', label: 'U', limit_amount: '1.00' })))
        .status,
    ).toBe(403);
    expect((await server.as('author@atrium.test').get('/api/claims/manual-limits/')).status).toBe(403);
  });
});

describe('manual limits', () => {
  it('keeps limit and deductible as decimal strings under an item of the same product', async () => {
    const item = (
      await body(await server.admin.post('/api/claims/manual-items/', itemDoc({ name: 'meals', label: 'Meals' })))
    ).data;
    const created = await server.admin.post(
      '/api/claims/manual-limits/',
      limitDoc(
        {
          name: 'meals_daily',
          label: 'Meals per day',
          limit_amount: '50',
          deductible_amount: '0.5',
          limit_basis: 'per_day',
        },
        { product: rel('product', auto), manual_item: rel('manual-item', item.id) },
      ),
    );
    expect(created.status).toBe(201);
    const limit = (await body(created)).data;
    expect(limit).toMatchObject({
      attributes: { limit_amount: '50.00', deductible_amount: '0.50', limit_basis: 'per_day', expired: false },
      relationships: {
        product: { data: { id: auto } },
        manual_item: { data: { type: 'manual-item', id: item.id } },
      },
    });
    const byItem = await body(await server.admin.get(`/api/claims/manual-limits/?filter[manual_item_id]=${item.id}`));
    expect(byItem.data.map((r: any) => r.id)).toEqual([limit.id]);

    const patched = await server.admin.patch(
      `/api/claims/manual-limits/${limit.id}/`,
      limitDoc({ limit_amount: '75.25' }, {}, limit.id),
    );
    expect(patched.status).toBe(200);
    expect((await body(patched)).data.attributes).toMatchObject({ limit_amount: '75.25', deductible_amount: '0.50' });

    const cases: [unknown, [string, string]][] = [
      [limitDoc({ name: 'a', label: 'A' }), ['/data/attributes/limit_amount', 'This field is required.']],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: '10.005' }),
        ['/data/attributes/limit_amount', 'Limit amount can not have more than 2 decimal places.'],
      ],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: '-1' }),
        ['/data/attributes/limit_amount', 'Limit amount must be 0 or more.'],
      ],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: 10 }),
        ['/data/attributes/limit_amount', 'Limit amount must be a decimal string such as "1500.00".'],
      ],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: '10.00', deductible_amount: '10.01' }),
        ['/data/attributes/deductible_amount', 'Deductible amount must be 10.00 or less.'],
      ],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: '10.00', limit_basis: 'weekly' }),
        ['/data/attributes/limit_basis', 'Limit basis must be one of per_occurrence, per_day, per_person, aggregate.'],
      ],
      [
        limitDoc(
          { name: 'a', label: 'A', limit_amount: '10.00' },
          { product: rel('product', home), manual_item: rel('manual-item', item.id) },
        ),
        [
          '/data/relationships/manual_item',
          'The manual item Meals belongs to another product; choose a limit product that matches it.',
        ],
      ],
      [
        limitDoc({ name: 'a', label: 'A', limit_amount: '10.00' }, { manual_item: rel('manual-item', '999999') }),
        ['/data/relationships/manual_item', 'Manual item 999999 not found.'],
      ],
    ];
    for (const [document, error] of cases) {
      const response = await server.admin.post('/api/claims/manual-limits/', document);
      expect(response.status, JSON.stringify(document)).toBe(400);
      expect(await errorsOf(response)).toContainEqual(error);
    }
    const deductibleOver = await server.admin.patch(
      `/api/claims/manual-limits/${limit.id}/`,
      limitDoc({ deductible_amount: '100.00' }, {}, limit.id),
    );
    expect(await errorsOf(deductibleOver)).toContainEqual([
      '/data/attributes/deductible_amount',
      'Deductible amount must be 75.25 or less.',
    ]);
  });
});
