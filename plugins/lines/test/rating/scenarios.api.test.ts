import { Decimal } from '@atrium/rating';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from '../catalog/lines-test-server.js';
import { demoProduct } from './rating-test-data.js';

/**
 * Scenarios over HTTP on the seeded Homeowners draft: create, build the risk tree (types checked
 * against the version), answer, rate (premium and worksheet), copy, reset, delete.
 */
let server: LinesTestServer;
let home: Awaited<ReturnType<typeof demoProduct>>;
let base: string;
beforeAll(async () => {
  server = await startLinesServer();
  home = await demoProduct(server.db, 'homeowners');
  base = `/api/lines/products/${home.id}/scenarios/`;
});
afterAll(async () => server?.close());

interface Node {
  id: number;
  type: { name: string };
  field_answers: Record<string, unknown>;
  items: { name: string; limit?: string; deductible?: string }[];
  children: Node[];
}

describe('scenarios', () => {
  let scenarioId: number;
  let rootId: number;

  it('refuses a bad transaction_type and a missing effective date', async () => {
    const bad = await errorOf(
      server.author.post(`${base}?version_id=${home.draft}`, {
        name: 'x',
        transaction_type: 'purchase',
        effective_date: '2026-01-01',
      }),
      400,
    );
    expect(bad).toBe(
      'transaction_type must be one of new_business, renewal, endorsement, cancellation, reinstatement, rewrite.',
    );
    await expectStatus(server.author.post(base, { name: 'x' }), 400);
    expect(await errorOf(server.author.post(base, { name: 'x', effective_date: '2026-02-31' }), 400)).toBe(
      "'2026-02-31' is not a date (YYYY-MM-DD or MM/DD/YYYY).",
    );
  });

  it('answers 404 for an unknown scenario or product', async () => {
    expect(await errorOf(server.author.get(`${base}999999/`), 404)).toBe('Scenario 999999 not found.');
    await expectStatus(server.author.get('/api/lines/products/999999/scenarios/'), 404);
    await expectStatus(server.author.post(`${base}999999/rate/`, {}), 404);
    expect(await errorOf(server.author.get('/api/lines/products/no_such_product/scenarios/'), 404)).toBe(
      "Product 'no_such_product' not found.",
    );
  });

  it('creates a scenario in the draft with the root risk of the version', async () => {
    const created = await expectStatus(
      server.author.post(`${base}?version_id=${home.draft}`, {
        name: 'Austin preview',
        transaction_type: 'new_business',
        effective_date: '01/01/2026',
      }),
      201,
    );
    expect(created).toMatchObject({
      name: 'Austin preview',
      product_version: home.draft,
      transaction_type: 'new_business',
      effective_date: '2026-01-01',
      premium: null,
      expected_premium: null,
    });
    const root = created.unified_risk_state as Node;
    expect(root).toMatchObject({ type: { name: 'home' }, children: [] });
    // Required and default items start on the risk with their default limits.
    expect(root.items).toEqual([
      { name: 'dwelling', limit: '250000', deductible: '1000' },
      { name: 'personal_liability', limit: '300000' },
    ]);
    scenarioId = created.id;
    rootId = root.id;
    const dup = await errorOf(
      server.author.post(`${base}?version_id=${home.draft}`, { name: 'austin PREVIEW', effective_date: '2026-01-01' }),
      400,
    );
    expect(dup).toBe("A scenario named 'austin PREVIEW' already exists in this version.");
    const list = await expectStatus<{ id: number }[]>(server.author.get(`${base}?version_id=${home.draft}`), 200);
    expect(list.map((s) => s.id)).toContain(scenarioId);
    // {p} may also be the product's name, as in the catalog routes.
    const byName = await expectStatus(
      server.author.get(`/api/lines/products/homeowners/scenarios/${scenarioId}/`),
      200,
    );
    expect(byName.id).toBe(scenarioId);
  });

  it('checks where a risk type may sit', async () => {
    const risks = `${base}${scenarioId}/risks/`;
    expect(await errorOf(server.author.post(risks, { parent_risk: rootId, risk_type: 'home' }), 400)).toBe(
      "A 'home' risk cannot sit under a 'home' risk; it is a root risk type.",
    );
    expect(await errorOf(server.author.post(risks, { parent_risk: null, risk_type: 'home' }), 400)).toBe(
      'The scenario already has a root risk.',
    );
    expect(await errorOf(server.author.post(risks, { parent_risk: rootId, risk_type: 'boat' }), 400)).toBe(
      "Risk type 'boat' is not part of this product version.",
    );
    expect(await errorOf(server.author.post(risks, { parent_risk: 424242, risk_type: 'scheduled_article' }), 400)).toBe(
      'Risk 424242 is not a risk of this scenario.',
    );
    const ring = await expectStatus(
      server.author.post(risks, { parent_risk: rootId, risk_type: 'scheduled_article' }),
      201,
    );
    expect(ring).toMatchObject({ parent_risk: rootId, risk_type: 'scheduled_article', order: 0 });
    await expectStatus(server.author.post(risks, { parent_risk: rootId, risk_type: 'scheduled_article' }), 201);
    const all = await expectStatus<unknown[]>(server.author.get(risks), 200);
    expect(all).toHaveLength(3);
  });

  it('refuses a rating while answers are missing, with the engine message', async () => {
    const response = await server.author.post(`${base}${scenarioId}/rate/`, {});
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.detail).toMatch(/zip|roof_year|protection_class|construction|appraised_value|category/);
    expect(body.code).toBeTruthy();
  });

  it('validates answers by field type and options', async () => {
    const validate = (field: string, answer: unknown) =>
      expectStatus(
        server.author.post(`${base}${scenarioId}/risks/${rootId}/fields/${field}/validate-answer/`, { answer }),
        200,
      );
    expect(await validate('protection_class', '6')).toEqual({ valid: true, message: null, value: '6' });
    expect(await validate('protection_class', 'six')).toEqual({
      valid: false,
      message: 'Protection class must be a number.',
      value: null,
    });
    expect((await validate('construction', 'straw')).message).toMatch(/^Construction must be one of: frame/);
    expect((await validate('roof_age', 3)).message).toBe('Roof age is computed and cannot be answered.');
    await expectStatus(
      server.author.post(`${base}${scenarioId}/risks/${rootId}/fields/nope/validate-answer/`, { answer: 1 }),
      404,
    );
    await expectStatus(server.author.post(`${base}${scenarioId}/risks/${rootId}/fields/zip/validate-answer/`, {}), 400);
  });

  it('stores risk states, refusing bad answers, unknown fields and items', async () => {
    const put = (riskId: number, risk_state: unknown) =>
      server.author.put(`${base}${scenarioId}/risks/${riskId}/`, { risk_state });
    expect(await errorOf(put(rootId, { field_answers: { protection_class: 'six' } }), 400)).toBe(
      'Protection class must be a number.',
    );
    expect(await errorOf(put(rootId, { field_answers: { pool: true } }), 400)).toBe(
      "Risk type 'home' has no field 'pool'.",
    );
    expect(await errorOf(put(rootId, { field_answers: {}, items: [{ name: 'boat' }] }), 400)).toBe(
      "Risk type 'home' has no item 'boat'.",
    );
    const saved = await expectStatus(
      put(rootId, {
        field_answers: { zip: '78701', construction: 'frame', protection_class: 6, year_built: 1998, roof_year: 2014 },
        items: [
          { name: 'dwelling', limit: '250000', deductible: 1000 },
          { name: 'personal_liability', limit: '300000' },
        ],
      }),
      200,
    );
    expect(saved.risk_state.items[0]).toEqual({ name: 'dwelling', limit: '250000', deductible: '1000' });
    const item = await expectStatus(
      server.author.post(`${base}${scenarioId}/risks/${rootId}/items/`, { item_name: 'scheduled_jewelry' }),
      201,
    );
    expect(item.risk_state.items.map((i: { name: string }) => i.name)).toContain('scheduled_jewelry');
    expect(
      await errorOf(
        server.author.post(`${base}${scenarioId}/risks/${rootId}/items/`, { item_name: 'scheduled_jewelry' }),
        400,
      ),
    ).toBe("The risk already has the item 'scheduled_jewelry'.");
    const scenario = await expectStatus(server.author.get(`${base}${scenarioId}/`), 200);
    const [ring, watch] = (scenario.unified_risk_state as Node).children;
    await expectStatus(put(ring!.id, { field_answers: { category: 'jewelry', appraised_value: 8000 } }), 200);
    await expectStatus(put(watch!.id, { field_answers: { category: 'watch', appraised_value: '4000' } }), 200);
  });

  it('rates the scenario: the premium and a worksheet whose lines add up to it', async () => {
    const rating = await expectStatus(server.author.post(`${base}${scenarioId}/rate/`, {}), 200);
    expect(rating.premium).toEqual({ term: '1789.60', pro_rata: '1789.60', fully_earned: '168.00' });
    expect(rating.term).toMatchObject({ termStart: '2026-01-01', termEnd: '2027-01-01', termDays: 365 });
    const root = rating.worksheet.root;
    const line = (name: string) => root.calculations.find((c: { name: string }) => c.name === name);
    const parts = new Decimal(line('dwelling_premium').value)
      .minus(line('deductible_credit').value)
      .plus(line('liability_premium').value)
      .plus(line('jewelry_premium').value);
    expect(parts.equals(new Decimal(line('premium').value))).toBe(true);
    expect(new Decimal(root.premium).equals(new Decimal(rating.premium.term))).toBe(true);
    // The jewelry premium is the sum of the two articles' worksheet premiums.
    const articles = root.children.map((c: { premium: string }) => new Decimal(c.premium));
    expect(
      articles.reduce((a: Decimal, b: Decimal) => a.plus(b)).equals(new Decimal(line('jewelry_premium').value)),
    ).toBe(true);
    // Every calculation shows its inputs and the rate-table rows it read.
    expect(line('key_factor').tables.map((t: { table: string }) => t.table)).toEqual([
      'territory_factor',
      'construction_protection',
      'roof_age_factor',
    ]);
    expect(line('coverage_a').inputs).toEqual([{ kind: 'limit', name: 'dwelling', value: '250000' }]);
    const stored = await expectStatus(server.author.get(`${base}${scenarioId}/`), 200);
    expect(stored.premium).toEqual(rating.premium);
    expect(stored.last_rated_at).not.toBeNull();
  });

  it("rates one risk and answers that risk's part of the worksheet", async () => {
    const scenario = await expectStatus(server.author.get(`${base}${scenarioId}/`), 200);
    const ring = (scenario.unified_risk_state as Node).children[0]!;
    const rating = await expectStatus(server.author.post(`${base}${scenarioId}/risks/${ring.id}/rate/`, {}), 200);
    expect(rating).toMatchObject({ risk: ring.id, risk_premium: '120', premium: { pro_rata: '1789.60' } });
    expect(rating.worksheet.path).toBe(`home#${rootId}/scheduled_article#${ring.id}`);
  });

  it('prorates a mid-term cancellation', async () => {
    await expectStatus(
      server.author.put(`${base}${scenarioId}/`, {
        transaction_type: 'cancellation',
        effective_date: '2026-04-01',
        term_start: '2026-01-01',
      }),
      200,
    );
    const rating = await expectStatus(server.author.post(`${base}${scenarioId}/rate/`, {}), 200);
    expect(rating.premium).toEqual({ term: '1789.60', pro_rata: '567.85', fully_earned: '168.00', return: '1221.75' });
    expect(await errorOf(server.author.put(`${base}${scenarioId}/`, { term_start: '2026-05-01' }), 400)).toBe(
      'effective_date 2026-04-01 is before term_start 2026-05-01.',
    );
  });

  it('copies, resets, removes items and deletes risks and scenarios', async () => {
    const copy = await expectStatus(server.author.post(`${base}${scenarioId}/copy/`, {}), 201);
    expect(copy.name).toBe('Copy of Austin preview');
    expect((copy.unified_risk_state as Node).children).toHaveLength(2);
    expect((copy.unified_risk_state as Node).id).not.toBe(rootId);
    const copyRoot = copy.unified_risk_state as Node;
    const removed = await expectStatus(
      server.author.delete(`${base}${copy.id}/risks/${copyRoot.id}/items/scheduled_jewelry/`),
      200,
    );
    expect(removed.risk_state.items.map((i: { name: string }) => i.name)).not.toContain('scheduled_jewelry');
    await expectStatus(server.author.delete(`${base}${copy.id}/risks/${copyRoot.id}/items/scheduled_jewelry/`), 404);
    await expectStatus(server.author.delete(`${base}${copy.id}/risks/${copyRoot.children[0]!.id}/`), 204);
    const afterDelete = await expectStatus(server.author.get(`${base}${copy.id}/`), 200);
    expect((afterDelete.unified_risk_state as Node).children).toHaveLength(1);
    const reset = await expectStatus(server.author.post(`${base}${copy.id}/reset/`, {}), 200);
    expect(reset.premium).toBeNull();
    expect(reset.unified_risk_state).toMatchObject({ field_answers: {}, children: [] });
    await expectStatus(server.author.delete(`${base}${copy.id}/`), 204);
    await expectStatus(server.author.get(`${base}${copy.id}/`), 404);
    // The original is untouched by its copy's changes.
    const original = await expectStatus(server.author.get(`${base}${scenarioId}/`), 200);
    expect((original.unified_risk_state as Node).children).toHaveLength(2);
  });

  it('keeps the scenarios of a published version read-only, but rates them', async () => {
    const refused = await errorOf(
      server.author.post(`${base}?version_id=${home.published}`, { name: 'Late', effective_date: '2026-01-01' }),
      400,
    );
    expect(refused).toBe('Version 1 of Homeowners HO-3 is published; only a draft version can be edited.');
    const [seeded] = await expectStatus<{ id: number }[]>(
      server.author.get(`${base}?version_id=${home.published}`),
      200,
    );
    await expectStatus(server.author.put(`${base}${seeded!.id}/`, { name: 'Renamed' }), 400);
    await expectStatus(server.author.post(`${base}${seeded!.id}/reset/`, {}), 400);
    const rating = await expectStatus(server.author.post(`${base}${seeded!.id}/rate/`, {}), 200);
    expect(rating.premium.pro_rata).toMatch(/^\d+\.\d\d$/);
  });

  it('lets an underwriter read scenarios but not rate or change them', async () => {
    await expectStatus(server.underwriter.get(`${base}${scenarioId}/`), 200);
    await expectStatus(server.underwriter.post(`${base}${scenarioId}/rate/`, {}), 403);
    await expectStatus(server.underwriter.put(`${base}${scenarioId}/`, { name: 'Mine' }), 403);
    await expectStatus(server.as(null).get(`${base}${scenarioId}/`), 401);
  });
});
