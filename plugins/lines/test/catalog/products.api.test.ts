import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBeforePublish } from '../../server/catalog/publish-hooks.js';
import { badRequest } from '@atrium/sdk/server';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from './lines-test-server.js';

let server: LinesTestServer;
beforeAll(async () => {
  server = await startLinesServer();
});
afterAll(async () => server?.close());

const api = '/api/lines';

describe('the classic effective-date calls', () => {
  it('lists the published and retired versions, never a draft, and reads one by id', async () => {
    const all = await expectStatus<{ success: true; data: { id: number; product_name: string; status: string }[] }>(
      server.underwriter.post('/api/v2/lines/get_all_effective_dates', {}),
      200,
    );
    expect(all.success).toBe(true);
    expect(all.data.length).toBeGreaterThan(0);
    expect(all.data.every((d) => d.status !== 'draft')).toBe(true);
    expect(all.data.map((d) => d.product_name)).toContain('homeowners');
    const first = all.data[0]!;
    const one = await expectStatus(
      server.underwriter.post('/api/v2/lines/retrieve_effective_date', { effective_date_id: first.id }),
      200,
    );
    expect(one.data).toEqual(first);
    // The homeowners draft (version 2) is no effective date.
    const versions = await expectStatus(server.admin.get('/api/lines/products/homeowners/versions/'), 200);
    const draft = (versions.results ?? versions).find((v: { status: string }) => v.status === 'draft');
    expect(
      await errorOf(
        server.underwriter.post('/api/v2/lines/retrieve_effective_date', { effective_date_id: draft.id }),
        404,
      ),
    ).toBe(`Effective date ${draft.id} not found.`);
    expect(
      (await server.underwriter.post('/api/v2/lines/retrieve_effective_date', { effective_date_id: 'x' })).status,
    ).toBe(400);
  });
});

describe('lines', () => {
  it('lists and searches the demo lines with their latest product', async () => {
    const all = await expectStatus(server.underwriter.get(`${api}/lines/`), 200);
    expect(all.results.map((l: { name: string }) => l.name)).toEqual(['homeowners', 'personal_auto']);
    const home = all.results[0];
    expect(home.latest_product).toMatchObject({ name: 'homeowners', latest_version: { number: 2, status: 'draft' } });
    const found = await expectStatus(server.underwriter.get(`${api}/lines/?search=AUTO`), 200);
    expect(found.results.map((l: { name: string }) => l.name)).toEqual(['personal_auto']);
    expect((await expectStatus(server.admin.get(`${api}/lines/homeowners/`), 200)).label).toBe('Homeowners');
    expect(await errorOf(server.admin.get(`${api}/lines/99/`), 404)).toBe('Line 99 not found.');
  });

  it('creates and patches a line; refuses duplicates, bad names and readers', async () => {
    const created = await expectStatus(server.author.post(`${api}/lines/`, { name: 'commercial_auto' }), 201);
    expect(created).toMatchObject({ name: 'commercial_auto', label: 'commercial_auto', latest_product: null });
    const patched = await expectStatus(
      server.author.patch(`${api}/lines/${created.id}/`, { label: 'Commercial Auto' }),
      200,
    );
    expect(patched.label).toBe('Commercial Auto');
    expect(await errorOf(server.author.patch(`${api}/lines/${created.id}/`, { name: 'personal_auto' }), 400)).toBe(
      "A line named 'personal_auto' already exists.",
    );
    expect(await errorOf(server.author.patch(`${api}/lines/nowhere/`, { label: 'X' }), 404)).toBe(
      "Line 'nowhere' not found.",
    );
    expect(await errorOf(server.author.post(`${api}/lines/`, { name: 'Homeowners' }), 400)).toContain('lower-case');
    expect(await errorOf(server.author.post(`${api}/lines/`, { name: 'homeowners' }), 400)).toBe(
      "A line named 'homeowners' already exists.",
    );
    expect((await server.author.post(`${api}/lines/`, { name: 'x', extra: 1 })).status).toBe(400);
    expect((await server.underwriter.post(`${api}/lines/`, { name: 'nope' })).status).toBe(403);
    expect((await server.as(null).get(`${api}/lines/`)).status).toBe(401);
  });

  it('takes {line} without surrounding spaces, as it always did; spaces only are a 400', async () => {
    expect((await expectStatus(server.admin.get(`${api}/lines/%20homeowners%20/`), 200)).label).toBe('Homeowners');
    expect((await expectStatus(server.admin.get(`${api}/lines/%201%20/`), 200)).name).toBe('homeowners');
    expect(await errorOf(server.author.patch(`${api}/lines/%20nowhere%20/`, { label: 'X' }), 404)).toBe(
      "Line 'nowhere' not found.",
    );
    const blank = await server.admin.get(`${api}/lines/%20%20/`);
    expect(blank.status).toBe(400);
  });
});

describe('products', () => {
  it('lists products with versions and nested children; reads one with a version and its risk types', async () => {
    const list = await expectStatus(server.underwriter.get(`${api}/products/?line_id=1`), 200);
    const home = list.results.find((p: { name: string }) => p.name === 'homeowners');
    expect(home.versions.map((v: { status: string }) => v.status)).toEqual(['published', 'draft']);
    expect(home.children.map((c: { name: string }) => c.name)).toEqual(['homeowners_tx']);

    const one = await expectStatus(
      server.underwriter.get(`${api}/products/homeowners/?version_id=${home.versions[0].id}`),
      200,
    );
    expect(one.version).toMatchObject({
      number: 1,
      status: 'published',
      editable: false,
      allowed_statuses: ['retired'],
    });
    expect(one.risk_types.map((t: { name: string }) => t.name)).toEqual(['home', 'scheduled_article']);
    expect(one.risk_types[0].inheritance_status).toBe('own');

    const texas = await expectStatus(server.underwriter.get(`${api}/products/homeowners_tx/`), 200);
    expect(texas.parent_product_id).toBe(home.id);
    expect(texas.risk_types.map((t: { inheritance_status: string }) => t.inheritance_status)).toEqual([
      'inherited',
      'inherited',
    ]);

    expect(await errorOf(server.admin.get(`${api}/products/99/`), 404)).toBe('Product 99 not found.');
    expect(await errorOf(server.admin.get(`${api}/products/nothing/`), 404)).toBe("Product 'nothing' not found.");
    expect(await errorOf(server.admin.get(`${api}/products/homeowners/?version_id=999`), 404)).toBe(
      'Version 999 of Homeowners HO-3 not found.',
    );
    expect((await server.admin.get(`${api}/products/homeowners/?version_id=abc`)).status).toBe(400);
  });

  it('creates child products up to 3 levels and refuses a 4th', async () => {
    const level1 = await expectStatus(
      server.author.post(`${api}/products/`, { name: 'farm', label: 'Farm', line_id: 1, effective_date: '2026-03-01' }),
      201,
    );
    expect(level1).toMatchObject({
      depth: 1,
      versions: [{ number: 1, status: 'draft', effective_date: '2026-03-01' }],
    });
    const level2 = await expectStatus(
      server.author.post(`${api}/products/`, { name: 'farm_tx', parent_product_id: level1.id }),
      201,
    );
    expect(level2).toMatchObject({ depth: 2, line_id: 1, versions: [{ parent_version_id: level1.versions[0].id }] });
    const level3 = await expectStatus(
      server.author.post(`${api}/products/`, { name: 'farm_tx_south', parent_product_id: level2.id }),
      201,
    );
    expect(level3.depth).toBe(3);
    expect(
      await errorOf(server.author.post(`${api}/products/`, { name: 'farm_4', parent_product_id: level3.id }), 400),
    ).toBe('Products nest at most 3 levels; farm_tx_south is already at level 3.');
    expect(
      await errorOf(
        server.author.patch(`${api}/products/farm_tx/versions/${level2.versions[0].id}/status/`, {
          status: 'published',
        }),
        400,
      ),
    ).toBe('farm_tx builds on version 1 of Farm, which is still a draft; publish that first.');
    const tree = await expectStatus(server.author.get(`${api}/products/farm/`), 200);
    expect(tree.children[0].children[0].name).toBe('farm_tx_south');

    expect(await errorOf(server.author.post(`${api}/products/`, { name: 'farm', line_id: 1 }), 400)).toBe(
      "A product named 'farm' already exists.",
    );
    expect(await errorOf(server.author.post(`${api}/products/`, { name: 'lonely' }), 400)).toBe(
      'A product needs a line_id (or a parent_product_id).',
    );
    expect(await errorOf(server.author.post(`${api}/products/`, { name: 'orphan', line_id: 77 }), 400)).toBe(
      'Line 77 not found.',
    );
    expect(await errorOf(server.author.delete(`${api}/products/farm/`), 400)).toContain('has child products');
    expect((await server.author.delete(`${api}/products/farm_tx_south/`)).status).toBe(204);
    expect((await server.author.get(`${api}/products/farm_tx_south/`)).status).toBe(404);
    expect((await server.underwriter.delete(`${api}/products/farm_tx/`)).status).toBe(403);
  });

  it('patches settings and refuses a base term outside the terms; refuses deleting published products', async () => {
    const patched = await expectStatus(
      server.author.patch(`${api}/products/personal_auto/`, { settings: { terms: [6, 12], baseTerm: 6 } }),
      200,
    );
    expect(patched.settings).toEqual({ renumberAt: 'rewrite', terms: [6, 12], baseTerm: 6 });
    expect(
      await errorOf(
        server.author.patch(`${api}/products/personal_auto/`, { settings: { terms: [12], baseTerm: 6 } }),
        400,
      ),
    ).toBe('The base term must be one of the terms.');
    expect(await errorOf(server.author.delete(`${api}/products/personal_auto/`), 400)).toBe(
      'Version 1 of Personal Auto is published; only a product whose versions are all drafts can be deleted.',
    );
  });

  it('exports the template of a version', async () => {
    const template = await expectStatus(server.underwriter.get(`${api}/products/homeowners/template/`), 200);
    expect(template.definition).toMatchObject({ name: 'homeowners', version: '2026.2', rootRiskType: 'home' });
    expect(template.definition.rateTables).toHaveLength(7);
  });
});

describe('versions', () => {
  it('creates a draft by copying the latest version, edits it, publishes, retires and reinstates it', async () => {
    const product = await expectStatus(server.author.post(`${api}/products/`, { name: 'condo', line_id: 1 }), 201);
    const p = `${api}/products/${product.id}`;
    const v1 = product.versions[0];
    expect(await errorOf(server.author.post(`${p}/versions/`, {}), 400)).toBe(
      'condo already has a draft (version 1); publish or delete it before creating another.',
    );
    const put = await expectStatus(
      server.author.put(`${p}/versions/${v1.id}/`, { effective_date: '2026-02-01', label: '2026.1' }),
      200,
    );
    expect(put).toMatchObject({ effective_date: '2026-02-01', label: '2026.1' });
    expect(await errorOf(server.author.put(`${p}/versions/${v1.id}/`, { effective_date: '02/01/2026' }), 400)).toBe(
      'Use a date as YYYY-MM-DD.',
    );
    expect(await errorOf(server.author.delete(`${p}/versions/${v1.id}/`), 400)).toBe(
      'Version 1 is the only version of condo; delete the product instead.',
    );
    expect((await server.underwriter.patch(`${p}/versions/${v1.id}/status/`, { status: 'published' })).status).toBe(
      403,
    );
    const published = await expectStatus(
      server.author.patch(`${p}/versions/${v1.id}/status/`, { status: 'published' }),
      200,
    );
    expect(published).toMatchObject({ status: 'published', editable: false, allowed_statuses: ['retired'] });
    expect(await errorOf(server.author.put(`${p}/versions/${v1.id}/`, { effective_date: '2026-03-01' }), 400)).toBe(
      'Version 1 of condo is published; only a draft version can be edited.',
    );
    expect(await errorOf(server.author.patch(`${p}/versions/${v1.id}/status/`, { status: 'draft' }), 400)).toBe(
      'Version 1 of condo is published; it cannot become draft. Create a new version to make changes.',
    );
    expect(await errorOf(server.author.delete(`${p}/versions/${v1.id}/`), 400)).toBe(
      'Version 1 of condo is published; only a draft version can be deleted.',
    );
    expect(await errorOf(server.author.post(`${p}/versions/${v1.id}/reinstate/`, {}), 400)).toBe(
      'Version 1 of condo is published; only a retired version can be reinstated.',
    );
    const retired = await expectStatus(
      server.author.patch(`${p}/versions/${v1.id}/status/`, { status: 'retired' }),
      200,
    );
    expect(retired).toMatchObject({ status: 'retired', can_reinstate: true });
    expect(
      await errorOf(server.author.patch(`${p}/versions/${v1.id}/status/`, { status: 'published' }), 400),
    ).toContain('Reinstate it instead.');
    expect((await expectStatus(server.author.post(`${p}/versions/${v1.id}/reinstate/`, {}), 200)).status).toBe(
      'published',
    );

    const v2 = await expectStatus(server.author.post(`${p}/versions/`, { effective_date: '2026-09-01' }), 201);
    expect(v2).toMatchObject({ number: 2, status: 'draft', copied_from_version_id: v1.id, label: '2' });
    expect((await server.author.delete(`${p}/versions/${v2.id}/`)).status).toBe(204);
    const list = await expectStatus(server.underwriter.get(`${p}/versions/`), 200);
    expect(list.results.map((v: { number: number }) => v.number)).toEqual([1]);
    expect(await errorOf(server.author.get(`${p}/versions/4242/`), 404)).toBe('Version 4242 of condo not found.');
  });

  it('copies the whole definition into a new draft (homeowners: risk types, tables, scenarios)', async () => {
    const auto = await expectStatus(server.admin.get(`${api}/products/personal_auto/`), 200);
    const draft = auto.versions.find((v: { status: string }) => v.status === 'draft');
    await expectStatus(
      server.author.patch(`${api}/products/personal_auto/versions/${draft.id}/status/`, { status: 'published' }),
      200,
    );
    const v3 = await expectStatus(server.author.post(`${api}/products/personal_auto/versions/`, {}), 201);
    expect(v3).toMatchObject({ number: 3, copied_from_version_id: draft.id, status: 'draft' });
    const template = await expectStatus(
      server.admin.get(`${api}/products/personal_auto/template/?version_id=${v3.id}`),
      200,
    );
    const usage = template.definition.rateTables.find((t: { name: string }) => t.name === 'usage_factor');
    expect(usage.rows[2].value).toBe('1.25');
    expect(template.definition.riskTypes.map((t: { name: string }) => t.name)).toEqual(['policy', 'vehicle', 'driver']);
  });

  it('runs the beforePublish hooks in the publishing transaction and keeps the draft when one refuses', async () => {
    const product = await expectStatus(server.author.post(`${api}/products/`, { name: 'gated', line_id: 2 }), 201);
    const v1 = product.versions[0];
    const seen: number[] = [];
    const remove = registerBeforePublish(async ({ versionId }) => {
      seen.push(versionId);
      throw badRequest('Known-answer case "Family" differs.');
    });
    try {
      expect(
        await errorOf(
          server.author.patch(`${api}/products/gated/versions/${v1.id}/status/`, { status: 'published' }),
          400,
        ),
      ).toBe('Known-answer case "Family" differs.');
    } finally {
      remove();
    }
    expect(seen).toEqual([v1.id]);
    expect((await expectStatus(server.author.get(`${api}/products/gated/versions/${v1.id}/`), 200)).status).toBe(
      'draft',
    );
  });
});

describe('racing writers', () => {
  it('answers 409, not 500, when two creates of the same name pass the check together', async () => {
    const [a, b] = await Promise.all([
      server.author.post(`${api}/lines/`, { name: 'racing' }),
      server.author.post(`${api}/lines/`, { name: 'racing' }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(201);
    expect([400, 409]).toContain(statuses[1]);
    const loser = a.status === 201 ? b : a;
    expect((await loser.json()).errors[0].detail).toMatch(/already exists|just created by someone else/);
  });
});

describe('product details', () => {
  it('filters the product list, sets premium rounding on a draft and refuses a template without risk types', async () => {
    const byName = await expectStatus(server.underwriter.get(`${api}/products/?name=owners_t`), 200);
    expect(byName.results.map((p: { name: string }) => p.name)).toEqual(['homeowners_tx']);
    const children = await expectStatus(server.underwriter.get(`${api}/products/?parent_product_id=1`), 200);
    expect(children.results.map((p: { name: string }) => p.name)).toEqual(['homeowners_tx']);
    expect((await server.underwriter.get(`${api}/products/?line_id=zero`)).status).toBe(400);

    const bare = await expectStatus(server.author.post(`${api}/products/`, { name: 'bare', line_id: 2 }), 201);
    const v1 = bare.versions[0];
    const rounded = await expectStatus(
      server.author.put(`${api}/products/bare/versions/${v1.id}/`, {
        effective_date: '2026-01-01',
        premium_rounding: { places: 0, mode: 'up' },
      }),
      200,
    );
    expect(rounded.premium_rounding).toEqual({ places: 0, mode: 'up' });
    expect(
      (
        await server.author.put(`${api}/products/bare/versions/${v1.id}/`, {
          effective_date: '2026-01-01',
          premium_rounding: { places: 0, mode: 'sideways' },
        })
      ).status,
    ).toBe(400);
    expect(await errorOf(server.author.get(`${api}/products/bare/template/`), 400)).toBe(
      'Version 1 of bare has no risk types to rate.',
    );
  });
});
