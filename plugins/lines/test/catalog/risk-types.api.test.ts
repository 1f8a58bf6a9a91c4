import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, expectStatus, startLinesServer, type LinesTestServer } from './lines-test-server.js';

let server: LinesTestServer;
let published: number;
let draft: number;
let texasDraft: number;
beforeAll(async () => {
  server = await startLinesServer();
  const home = await expectStatus(server.admin.get('/api/lines/products/homeowners/'), 200);
  published = home.versions[0].id;
  draft = home.versions[1].id;
  texasDraft = (await expectStatus(server.admin.get('/api/lines/products/homeowners_tx/'), 200)).versions[0].id;
});
afterAll(async () => server?.close());

const p = '/api/lines/products/homeowners';
const rt = (query: string) => `${p}/risk-types/${query}`;

describe('risk types', () => {
  it('lists the tree and reads one with fields, items, rate tables, calculations and children', async () => {
    const list = await expectStatus(server.underwriter.get(rt(`?version_id=${draft}`)), 200);
    expect(list.results.map((t: { name: string; depth: number }) => [t.name, t.depth])).toEqual([
      ['home', 1],
      ['scheduled_article', 2],
    ]);
    expect(list.results[1].parent_risk_type_id).toBe(list.results[0].id);
    const home = await expectStatus(server.underwriter.get(rt(`home/?version_id=${draft}`)), 200);
    expect(home.fields.map((f: { name: string }) => f.name)).toContain('roof_age');
    expect(home.items.find((i: { name: string }) => i.name === 'dwelling').limits).toHaveLength(2);
    expect(home.rate_tables).toHaveLength(6);
    expect(home.calculations.map((c: { name: string }) => c.name).at(-1)).toBe('premium');
    expect(home.calculations.find((c: { name: string }) => c.name === 'jewelry_premium').risk_item).toBe(
      'scheduled_jewelry',
    );
    expect(home.children.map((c: { name: string }) => c.name)).toEqual(['scheduled_article']);
    expect(await errorOf(server.underwriter.get(rt(`nope/?version_id=${draft}`)), 404)).toBe(
      "Risk type 'nope' not found in version 2 of Homeowners HO-3.",
    );
    expect(await errorOf(server.underwriter.get('/api/lines/products/99/risk-types/'), 404)).toBe(
      'Product 99 not found.',
    );
  });

  it('creates, renames and deletes risk types in a draft; refuses a second root, 8 levels and published versions', async () => {
    const created = await expectStatus(
      server.author.post(rt(`?version_id=${draft}`), {
        name: 'other_structure',
        label: 'Other structure',
        parent_risk_type: 'home',
      }),
      201,
    );
    expect(created).toMatchObject({ depth: 2, parent_risk_type: 'home', inheritance_status: 'own' });
    const renamed = await expectStatus(
      server.author.patch(rt(`${created.id}/?version_id=${draft}`), { label: 'Detached structure', sequence: 9 }),
      200,
    );
    expect(renamed).toMatchObject({ label: 'Detached structure', sequence: 9 });

    expect(await errorOf(server.author.post(rt(`?version_id=${draft}`), { name: 'root2', label: 'Root 2' }), 400)).toBe(
      'Homeowners HO-3 already has a root risk type (home); add this one under it.',
    );
    expect(
      await errorOf(
        server.author.post(rt(`?version_id=${draft}`), { name: 'home', label: 'Dup', parent_risk_type: 'home' }),
        400,
      ),
    ).toBe("A risk type named 'home' already exists in this version.");
    expect(await errorOf(server.author.post(rt(`?version_id=${draft}`), { name: '1bad', label: 'x' }), 400)).toContain(
      'starts with a letter',
    );
    expect(
      await errorOf(
        server.author.patch(rt(`home/?version_id=${draft}`), { parent_risk_type: 'scheduled_article' }),
        400,
      ),
    ).toBe('Risk type home cannot be placed under itself or its own child.');

    // Levels 3..7 under other_structure (level 2), then the 8th is refused.
    let parent = 'other_structure';
    for (let level = 3; level <= 7; level++) {
      await expectStatus(
        server.author.post(rt(`?version_id=${draft}`), {
          name: `level_${level}`,
          label: `Level ${level}`,
          parent_risk_type: parent,
        }),
        201,
      );
      parent = `level_${level}`;
    }
    expect(
      await errorOf(
        server.author.post(rt(`?version_id=${draft}`), { name: 'level_8', label: 'Level 8', parent_risk_type: parent }),
        400,
      ),
    ).toBe('Risk types nest at most 7 levels; under level_7 this one would be at level 8.');

    expect((await server.author.delete(rt(`other_structure/?version_id=${draft}`))).status).toBe(204);
    const after = await expectStatus(server.author.get(rt(`?version_id=${draft}`)), 200);
    expect(after.results.map((t: { name: string }) => t.name)).toEqual(['home', 'scheduled_article']);

    expect(
      await errorOf(
        server.author.post(rt(`?version_id=${published}`), {
          name: 'garage',
          label: 'Garage',
          parent_risk_type: 'home',
        }),
        400,
      ),
    ).toBe('Version 1 of Homeowners HO-3 is published; only a draft version can be edited.');
    expect(await errorOf(server.author.delete(rt(`home/?version_id=${published}`)), 400)).toBe(
      'Version 1 of Homeowners HO-3 is published; only a draft version can be edited.',
    );
    expect(
      (await server.underwriter.post(rt(`?version_id=${draft}`), { name: 'x', label: 'x', parent_risk_type: 'home' }))
        .status,
    ).toBe(403);
  });

  it('copies a risk type with its fields, items, limits and calculations', async () => {
    const copy = await expectStatus(
      server.author.post(rt(`scheduled_article/copy/?version_id=${draft}`), {
        name: 'scheduled_art',
        label: 'Scheduled art',
      }),
      201,
    );
    expect(copy).toMatchObject({ name: 'scheduled_art', parent_risk_type: 'home', inheritance_status: 'own' });
    expect(copy.fields.map((f: { name: string }) => f.name)).toEqual(['category', 'appraised_value', 'in_vault']);
    expect(copy.calculations.map((c: { name: string }) => c.name)).toEqual(['rate_per_100', 'premium']);
    expect(
      await errorOf(
        server.author.post(rt(`scheduled_article/copy/?version_id=${draft}`), { name: 'scheduled_art', label: 'x' }),
        400,
      ),
    ).toBe("A risk type named 'scheduled_art' already exists in this version.");
    expect(
      await errorOf(server.author.post(rt(`home/copy/?version_id=${draft}`), { name: 'home2', label: 'x' }), 400),
    ).toContain('is the root');
    expect((await server.author.post(rt(`scheduled_article/copy/?version_id=${draft}`), { label: 'x' })).status).toBe(
      400,
    );
    await expectStatus(server.author.delete(rt(`scheduled_art/?version_id=${draft}`)), 204);
  });

  it('gives the rating context and the risk type state', async () => {
    const context = await expectStatus(
      server.underwriter.get(rt(`scheduled_article/rating-context/?version_id=${draft}`)),
      200,
    );
    expect(context.fields.map((f: { name: string }) => f.name)).toEqual(['category', 'appraised_value', 'in_vault']);
    expect(context.ancestor_fields.map((f: { name: string }) => f.name)).toContain('zip');
    expect(context.ancestor_calculations.map((c: { name: string }) => c.name)).toContain('premium');
    expect(context.rate_tables.find((t: { name: string }) => t.name === 'construction_protection').keys).toEqual([
      { name: 'construction', match: 'exact' },
      { name: 'protection_class', match: 'range' },
    ]);
    expect(context.functions).toContain('lookup');
    const homeContext = await expectStatus(server.underwriter.get(rt(`home/rating-context/?version_id=${draft}`)), 200);
    expect(homeContext.items.find((i: { name: string }) => i.name === 'dwelling')).toEqual({
      name: 'dwelling',
      label: 'Dwelling (Coverage A)',
      limits: [''],
      deductibles: [''],
    });
    expect(homeContext.children).toEqual([
      { name: 'scheduled_article', label: 'Scheduled article', calculations: ['rate_per_100', 'premium'] },
    ]);

    const state = await expectStatus(server.underwriter.get(rt(`home/state/?version_id=${draft}&type=minimal`)), 200);
    expect(state.name).toBe('home');
    expect(state.fields.find((f: { name: string }) => f.name === 'construction')).toEqual({
      name: 'construction',
      type: 'enum',
      default: 'frame',
      options: ['frame', 'masonry', 'fire_resistive'],
      required: false,
      computed: false,
    });
    expect(state.children[0].name).toBe('scheduled_article');
    expect((await server.underwriter.get(rt(`home/state/?type=huge`))).status).toBe(400);
  });

  it('shows inheritance in a child product and overrides an inherited risk type on change', async () => {
    const tx = '/api/lines/products/homeowners_tx/risk-types/';
    const list = await expectStatus(server.author.get(`${tx}?version_id=${texasDraft}`), 200);
    expect(list.results.map((t: { inheritance_status: string }) => t.inheritance_status)).toEqual([
      'inherited',
      'inherited',
    ]);
    const home = await expectStatus(server.author.get(`${tx}home/?version_id=${texasDraft}`), 200);
    expect(home.rate_tables.find((t: { name: string }) => t.name === 'territory_factor').inheritance_status).toBe(
      'overridden',
    );
    expect(home.rate_tables.find((t: { name: string }) => t.name === 'liability_rates').inheritance_status).toBe(
      'inherited',
    );
    expect(await errorOf(server.author.delete(`${tx}home/?version_id=${texasDraft}`), 400)).toBe(
      'Risk type home is inherited from homeowners; it can only be removed or restored there.',
    );
    const overridden = await expectStatus(
      server.author.patch(`${tx}scheduled_article/?version_id=${texasDraft}`, { label: 'Scheduled article (TX)' }),
      200,
    );
    expect(overridden).toMatchObject({
      label: 'Scheduled article (TX)',
      inheritance_status: 'overridden',
      parent_risk_type: 'home',
    });
    // The override still sees the parent's fields (matched by risk type name).
    const fields = await expectStatus(
      server.author.get(`${tx}scheduled_article/risk-fields/?version_id=${texasDraft}`),
      200,
    );
    expect(fields.results.map((f: { inheritance_status: string }) => f.inheritance_status)).toEqual([
      'inherited',
      'inherited',
      'inherited',
    ]);
  });
});
