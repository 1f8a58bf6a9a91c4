import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from './lines-test-server.js';

let server: LinesTestServer;
let published: number;
let draft: number;
let texasDraft: number;
beforeAll(async () => {
  server = await startLinesServer();
  const auto = await expectStatus(server.admin.get('/api/lines/products/personal_auto/'), 200);
  published = auto.versions[0].id;
  draft = auto.versions[1].id;
  texasDraft = (await expectStatus(server.admin.get('/api/lines/products/homeowners_tx/'), 200)).versions[0].id;
});
afterAll(async () => server?.close());

const vehicle = '/api/lines/products/personal_auto/risk-types/vehicle';
const fields = (q: string) => `${vehicle}/risk-fields/${q}`;
const items = (q: string) => `${vehicle}/risk-items/${q}`;
const readOnly = 'Version 1 of Personal Auto is published; only a draft version can be edited.';

describe('risk fields', () => {
  it('creates every field type, validates defaults, options and formulas, and refuses published versions', async () => {
    const make = (body: object) => server.author.post(fields(`?version_id=${draft}`), body);
    const enumField = await expectStatus(
      make({
        name: 'color',
        label: 'Color',
        type: 'enum',
        options: ['red', { value: 'blue', label: 'Blue' }],
        default_value: 'red',
      }),
      201,
    );
    expect(enumField).toMatchObject({
      type: 'enum',
      default: 'red',
      options: [{ value: 'red' }, { value: 'blue', label: 'Blue' }],
      inheritance_status: 'own',
      risk_type: 'vehicle',
    });
    await expectStatus(make({ name: 'purchased', label: 'Purchased', type: 'date', default: '2024-05-01' }), 201);
    await expectStatus(make({ name: 'leased', label: 'Leased', type: 'boolean', default: false }), 201);
    const computed = await expectStatus(
      make({ name: 'age_squared', label: 'Age²', type: 'computed', formula: 'vehicle_age ^ 2', round: { places: 0 } }),
      201,
    );
    expect(computed).toMatchObject({ formula: 'vehicle_age ^ 2', round: { places: 0, mode: 'half-up' } });

    expect(await errorOf(make({ name: 'x1', label: 'X', type: 'number', default_value: 'ten' }), 400)).toBe(
      "The default 'ten' is not a number.",
    );
    expect(await errorOf(make({ name: 'x2', label: 'X', type: 'enum', options: [] }), 400)).toBe(
      'An enum field needs at least one option.',
    );
    expect(await errorOf(make({ name: 'x3', label: 'X', type: 'enum', options: ['a'], default: 'b' }), 400)).toBe(
      "The default 'b' is not one of the options.",
    );
    expect(await errorOf(make({ name: 'x4', label: 'X', type: 'date', default: '13/01/2026' }), 400)).toBe(
      "The default '13/01/2026' is not a date (YYYY-MM-DD).",
    );
    expect(await errorOf(make({ name: 'x5', label: 'X', type: 'computed' }), 400)).toBe(
      'A computed field needs a formula.',
    );
    const syntax = await expectStatus(make({ name: 'x6', label: 'X', type: 'computed', formula: 'max(1, ' }), 400);
    expect(syntax.errors[0]).toMatchObject({ pointer: '/formula', code: 'formula_syntax' });
    expect(syntax.errors[0].detail).toMatch(/^Syntax error at line 1, column \d+/);
    expect(await errorOf(make({ name: 'symbol', label: 'Dup', type: 'number' }), 400)).toBe(
      "A field named 'symbol' already exists on vehicle.",
    );
    expect(await errorOf(make({ name: 'x7', label: 'X', type: 'string', format_id: 999 }), 400)).toBe(
      'Field format 999 not found.',
    );
    expect((await make({ name: 'x8', label: 'X', type: 'money' })).status).toBe(400);
    expect(
      await errorOf(
        server.author.post(fields(`?version_id=${published}`), { name: 'y', label: 'Y', type: 'string' }),
        400,
      ),
    ).toBe(readOnly);
    expect(
      (await server.underwriter.post(fields(`?version_id=${draft}`), { name: 'y', label: 'Y', type: 'string' })).status,
    ).toBe(403);
  });

  it('changes, reorders, deletes and restores fields', async () => {
    const list = await expectStatus(server.author.get(fields(`?version_id=${draft}`)), 200);
    const symbol = list.results.find((f: { name: string }) => f.name === 'symbol');
    const changed = await expectStatus(
      server.author.put(fields(`${symbol.id}/?version_id=${draft}`), { label: 'ISO symbol', required: false }),
      200,
    );
    expect(changed).toMatchObject({ id: symbol.id, label: 'ISO symbol', required: false, type: 'number' });
    expect(
      await errorOf(server.author.patch(fields(`${symbol.id}/?version_id=${published}`), { label: 'No' }), 400),
    ).toBe(readOnly);
    expect(await errorOf(server.author.patch(fields(`424242/?version_id=${draft}`), { label: 'No' }), 404)).toBe(
      'Field 424242 not found on risk type vehicle.',
    );

    const ids = list.results.map((f: { id: number }) => f.id);
    const reordered = await expectStatus(
      server.author.post(fields(`reorder/?version_id=${draft}`), { order: [ids.at(-1), ids[0]] }),
      200,
    );
    expect(reordered.results.slice(0, 2).map((f: { id: number }) => f.id)).toEqual([ids.at(-1), ids[0]]);
    expect(reordered.results.map((f: { order: number }) => f.order)).toEqual(
      reordered.results.map((_: unknown, i: number) => i + 1),
    );
    expect(
      await errorOf(server.author.post(fields(`reorder/?version_id=${draft}`), { order: [ids[0], ids[0]] }), 400),
    ).toBe('A field is listed twice.');
    expect(await errorOf(server.author.post(fields(`reorder/?version_id=${draft}`), { order: [999999] }), 400)).toBe(
      'Field 999999 is not a field of vehicle.',
    );

    const vin = list.results.find((f: { name: string }) => f.name === 'vin');
    expect((await server.author.delete(fields(`${vin.id}/?version_id=${draft}`))).status).toBe(204);
    const deleted = await expectStatus(server.author.get(fields(`?version_id=${draft}&deleted=true`)), 200);
    expect(deleted.results.map((f: { name: string }) => f.name)).toEqual(['vin']);
    expect(deleted.results[0].deleted_at).not.toBeNull();
    const restored = await expectStatus(server.author.post(fields(`${vin.id}/restore/?version_id=${draft}`), {}), 200);
    expect(restored).toMatchObject({ name: 'vin', deleted_at: null });
    expect(await errorOf(server.author.post(fields(`${vin.id}/restore/?version_id=${draft}`), {}), 400)).toBe(
      'Field vin is not deleted.',
    );
    // The published version still has its own, untouched copy.
    const old = await expectStatus(server.author.get(fields(`?version_id=${published}`)), 200);
    expect(old.results.find((f: { name: string }) => f.name === 'symbol').label).toBe('Rating symbol');
  });

  it('overrides an inherited field in a child product and refuses deleting it', async () => {
    const tx = `/api/lines/products/homeowners_tx/risk-types/home/risk-fields/`;
    const list = await expectStatus(server.author.get(`${tx}?version_id=${texasDraft}`), 200);
    const zip = list.results.find((f: { name: string }) => f.name === 'zip');
    expect(zip.inheritance_status).toBe('inherited');
    expect(await errorOf(server.author.delete(`${tx}${zip.id}/?version_id=${texasDraft}`), 400)).toBe(
      'Field zip is inherited from homeowners; it can only be removed or restored there.',
    );
    const overridden = await expectStatus(
      server.author.patch(`${tx}${zip.id}/?version_id=${texasDraft}`, { label: 'Texas ZIP' }),
      200,
    );
    expect(overridden).toMatchObject({ name: 'zip', label: 'Texas ZIP', inheritance_status: 'overridden' });
    expect(overridden.id).not.toBe(zip.id);
    // The parent's row id now leads to the override.
    expect(await expectStatus(server.author.get(`${tx}${zip.id}/?version_id=${texasDraft}`), 200)).toMatchObject({
      id: overridden.id,
      label: 'Texas ZIP',
    });
    const again = await expectStatus(
      server.author.patch(`${tx}${zip.id}/?version_id=${texasDraft}`, { required: false }),
      200,
    );
    expect(again.id).toBe(overridden.id);
    const renamed = await expectStatus(
      server.author.patch(`${tx}${overridden.id}/?version_id=${texasDraft}`, { name: 'postal' }),
      200,
    );
    expect(renamed).toMatchObject({ name: 'postal', inheritance_status: 'own' });
    // Renamed, the row no longer overrides zip: the parent's zip shows through again.
    const after = await expectStatus(server.author.get(`${tx}?version_id=${texasDraft}`), 200);
    expect(after.results.find((f: { name: string }) => f.name === 'zip').inheritance_status).toBe('inherited');
  });
});

describe('risk items, limits and deductibles', () => {
  it('creates, changes, reorders, deletes and restores items', async () => {
    const created = await expectStatus(
      server.author.post(items(`?version_id=${draft}`), {
        name: 'rental',
        label: 'Rental reimbursement',
        presence: 'optional',
        type: 'endorsement',
        fully_earned: true,
      }),
      201,
    );
    expect(created).toMatchObject({
      name: 'rental',
      fully_earned: true,
      type: 'endorsement',
      limits: [],
      inheritance_status: 'own',
    });
    const changed = await expectStatus(
      server.author.patch(items(`${created.id}/?version_id=${draft}`), { presence: 'default' }),
      200,
    );
    expect(changed.presence).toBe('default');
    expect(
      await errorOf(server.author.post(items(`?version_id=${draft}`), { name: 'collision', label: 'Dup' }), 400),
    ).toBe("An item named 'collision' already exists on vehicle.");
    expect(
      (await server.author.post(items(`?version_id=${draft}`), { name: 'x', label: 'X', presence: 'sometimes' }))
        .status,
    ).toBe(400);
    expect(await errorOf(server.author.post(items(`?version_id=${published}`), { name: 'x', label: 'X' }), 400)).toBe(
      readOnly,
    );

    const list = await expectStatus(server.author.get(items(`?version_id=${draft}`)), 200);
    const ids = list.results.map((i: { id: number }) => i.id);
    const reordered = await expectStatus(
      server.author.post(items(`reorder/?version_id=${draft}`), { order: [created.id] }),
      200,
    );
    expect(reordered.results[0].id).toBe(created.id);
    expect(reordered.results).toHaveLength(ids.length);

    const collision = list.results.find((i: { name: string }) => i.name === 'collision');
    expect(await errorOf(server.author.delete(items(`${collision.id}/?version_id=${draft}`)), 400)).toBe(
      'Item collision is used by calculation collision_premium; change or delete that first.',
    );
    expect((await server.author.delete(items(`${created.id}/?version_id=${draft}`))).status).toBe(204);
    expect((await server.author.get(items(`${created.id}/?version_id=${draft}`))).status).toBe(404);
    const restored = await expectStatus(
      server.author.post(items(`${created.id}/restore/?version_id=${draft}`), {}),
      200,
    );
    expect(restored.name).toBe('rental');
  });

  it('adds, changes, deletes and restores limits and deductibles with checks on min, max and options', async () => {
    const list = await expectStatus(server.author.get(items(`?version_id=${draft}`)), 200);
    const bi = list.results.find((i: { name: string }) => i.name === 'bodily_injury');
    expect(bi.limits).toEqual([
      expect.objectContaining({
        kind: 'limit',
        name: '',
        default_value: '100000',
        options: ['30000', '50000', '100000', '250000'],
      }),
    ]);
    const limits = items(`${bi.id}/limits/`);
    const perAccident = await expectStatus(
      server.author.post(`${limits}?version_id=${draft}`, {
        kind: 'limit',
        name: 'per_accident',
        label: 'Per accident',
        default_value: 300000,
        min_value: '50000',
        max_value: '1000000',
      }),
      201,
    );
    expect(perAccident).toMatchObject({
      name: 'per_accident',
      default_value: '300000',
      min_value: '50000',
      max_value: '1000000',
    });
    expect(
      await errorOf(server.author.post(`${limits}?version_id=${draft}`, { kind: 'limit', label: 'Main again' }), 400),
    ).toBe('Item bodily_injury already has a main limit.');
    expect(
      await errorOf(
        server.author.post(`${limits}?version_id=${draft}`, {
          kind: 'deductible',
          label: 'D',
          min_value: '10',
          max_value: '5',
        }),
        400,
      ),
    ).toBe('The minimum 10 is above the maximum 5.');
    expect(
      await errorOf(
        server.author.post(`${limits}?version_id=${draft}`, {
          kind: 'deductible',
          label: 'D',
          default_value: '7',
          options: ['5', '10'],
        }),
        400,
      ),
    ).toBe('The default 7 is not one of the options.');
    expect(
      (
        await server.author.post(`${limits}?version_id=${draft}`, {
          kind: 'deductible',
          label: 'D',
          default_value: '1e3',
        })
      ).status,
    ).toBe(400);

    const changed = await expectStatus(
      server.author
        .put(`${limits}${perAccident.id}/?version_id=${draft}`, { default_value: '2000000' })
        .then(async (r) => r),
      400,
    );
    expect(changed.errors[0].detail).toBe('The default 2000000 is above the maximum 1000000.');
    const ok = await expectStatus(
      server.author.patch(`${limits}${perAccident.id}/?version_id=${draft}`, { label: 'Each accident' }),
      200,
    );
    expect(ok.label).toBe('Each accident');
    expect((await server.author.delete(`${limits}${perAccident.id}/?version_id=${draft}`)).status).toBe(204);
    const after = await expectStatus(server.author.get(`${limits}?version_id=${draft}`), 200);
    expect(after.results).toHaveLength(1);
    await expectStatus(server.author.post(`${limits}${perAccident.id}/restore/?version_id=${draft}`, {}), 200);
    expect((await expectStatus(server.author.get(`${limits}?version_id=${draft}`), 200)).results).toHaveLength(2);
    expect(await errorOf(server.author.delete(`${limits}${perAccident.id}/?version_id=${published}`), 400)).toBe(
      readOnly,
    );
  });
});

describe('sequences and field formats', () => {
  it('creates, changes and deletes sequences of a draft', async () => {
    const s = '/api/lines/products/personal_auto/sequences/';
    const list = await expectStatus(server.underwriter.get(`${s}?version_id=${draft}`), 200);
    expect(list.results).toEqual([expect.objectContaining({ name: 'policy_number', preview: 'PA-0001000' })]);
    const created = await expectStatus(
      server.author.post(`${s}?version_id=${draft}`, {
        name: 'quote_number',
        label: 'Quote number',
        prefix: 'Q',
        padding: 5,
      }),
      201,
    );
    expect(created).toMatchObject({ preview: 'Q00001', next_value: 1 });
    const changed = await expectStatus(
      server.author.patch(`${s}${created.id}/?version_id=${draft}`, { suffix: '-PA', next_value: 42 }),
      200,
    );
    expect(changed.preview).toBe('Q00042-PA');
    expect(
      await errorOf(server.author.post(`${s}?version_id=${draft}`, { name: 'quote_number', label: 'Dup' }), 400),
    ).toBe("A sequence named 'quote_number' already exists in this version.");
    expect(
      await errorOf(server.author.post(`${s}?version_id=${published}`, { name: 'other', label: 'Other' }), 400),
    ).toBe(readOnly);
    expect(
      (await server.author.post(`${s}?version_id=${draft}`, { name: 'bad', label: 'Bad', padding: 99 })).status,
    ).toBe(400);
    expect((await server.author.delete(`${s}${created.id}/?version_id=${draft}`)).status).toBe(204);
    expect(await errorOf(server.author.get(`${s}${created.id}/?version_id=${draft}`), 404)).toBe(
      `Sequence ${created.id} not found in version 2 of Personal Auto.`,
    );
  });

  it('lists the field formats', async () => {
    const formats = await expectStatus(server.adjuster.get('/api/lines/field-formats/'), 200);
    expect(formats.results.map((f: { name: string }) => f.name)).toEqual(
      expect.arrayContaining(['currency', 'zip', 'year', 'date', 'vin']),
    );
    expect((await server.as(null).get('/api/lines/field-formats/')).status).toBe(401);
  });
});
