import { createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it, vi } from 'vitest';
import { lineQuickSearch, productVersionQuickSearch, riskTypeQuickSearch } from './lines-quick-search.js';
import lines from './plugin.js';
import { lineOverviewRoute, riskTypeDetailsRoute } from './routes.js';

const LINES = [{ id: 1, name: 'Homeowners', latest_product: { id: 5, name: 'HO3', latest_version: { id: 12 } } }];
const PRODUCTS = [
  {
    id: 5,
    name: 'HO3',
    line_id: 1,
    parent_product_id: null,
    versions: [
      { id: 11, number: 1, status: 'published' },
      { id: 12, number: 2, status: 'draft' },
    ],
  },
];
const RISK_TYPES = [
  { id: 7, name: 'dwelling', label: 'Dwelling', parent_risk_type_id: null },
  { id: 8, name: 'pool', label: 'Swimming pool', parent_risk_type_id: 7 },
];

/** A fake API client answering the catalog's reads. */
function fakeApi() {
  const get = vi.fn(async (path: string) => {
    if (path === '/lines/lines/') return { count: LINES.length, results: LINES };
    if (path === '/lines/products/') return PRODUCTS;
    if (path === '/lines/products/5/risk-types/') return RISK_TYPES;
    throw new Error(`unexpected ${path}`);
  });
  return { get };
}

describe('lines plugin (web)', () => {
  it('registers the spec routes under ui:lines, a main nav entry and the palette commands', () => {
    const registry = createPluginRegistry();
    registry.register(lines);
    expect(lines.moduleKey).toBe('lines');
    expect(registry.routes().map((r) => r.name)).toEqual(
      expect.arrayContaining(['lines:search-lines', 'lines:line-overview', 'lines:risk-type-details']),
    );
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Lines']);
    expect(registry.danglingNav()).toEqual([]);
    expect(registry.commands().map((c) => c.item.title)).toEqual(
      expect.arrayContaining(['Open Line', 'Open Product Version', 'Open Risk Type']),
    );
    expect(
      riskTypeDetailsRoute.link(
        { lineName: 'Homeowners', productName: 'HO3', riskTypeName: 'dwelling', hash: 'items' },
        { version_id: 12 },
      ),
    ).toBe('/lines/Homeowners/products/HO3/risk-types/dwelling/items?version_id=12');
  });

  it('commands navigate when given arguments, else open their quick search with the API lent', async () => {
    const navigate = vi.fn();
    const openQuickSearch = vi.fn();
    const api = fakeApi();
    const services = { navigate, openQuickSearch, api } as never;
    const run = (id: string, args?: unknown) => {
      const command = lines.commands.find((c) => c.id === id)!;
      return command.run(args as never, { services, context: {} as never });
    };
    await run('lines.openLine', { lineName: 'Homeowners' });
    await run('lines.openProductVersion', { lineName: 'Homeowners', versionId: 12 });
    await run('lines.openRiskType', {
      lineName: 'Homeowners',
      productName: 'HO3',
      riskTypeName: 'pool',
      versionId: 12,
    });
    expect(navigate.mock.calls).toEqual([
      ['/lines/Homeowners'],
      ['/lines/Homeowners?version_id=12'],
      ['/lines/Homeowners/products/HO3/risk-types/pool?version_id=12'],
    ]);
    await run('lines.openLine');
    await run('lines.openProductVersion');
    await run('lines.openRiskType');
    expect(openQuickSearch.mock.calls).toEqual([['lines.line'], ['lines.product-version'], ['lines.risk-type']]);

    const signal = new AbortController().signal;
    const found = await lineQuickSearch.search({ query: 'home', signal });
    expect(found.map(lineQuickSearch.toItem)).toEqual([
      {
        id: '1',
        title: 'Homeowners',
        subtitle: 'Latest product: HO3',
        to: lineOverviewRoute.link({ lineName: 'Homeowners' }),
      },
    ]);
    expect(await lineQuickSearch.search({ query: 'auto', signal })).toEqual([]);
    const versions = (await productVersionQuickSearch.search({ query: 'ho3', signal })).map(
      productVersionQuickSearch.toItem,
    );
    expect(versions.map((v) => v.to)).toEqual(['/lines/Homeowners?version_id=12', '/lines/Homeowners?version_id=11']);
    const types = (await riskTypeQuickSearch.search({ query: 'pool', signal })).map(riskTypeQuickSearch.toItem);
    expect(types).toEqual([
      expect.objectContaining({
        title: 'Swimming pool',
        to: '/lines/Homeowners/products/HO3/risk-types/pool?version_id=12',
      }),
    ]);
  });

  it('refuses bad command arguments at the boundary (the schema loads when the command first runs)', async () => {
    const command = lines.commands.find((c) => c.id === 'lines.openProductVersion')!;
    expect(typeof command.args).toBe('function');
    const schema = typeof command.args === 'function' ? await command.args() : command.args!;
    expect(schema.safeParse({ lineName: 'Homeowners', versionId: 'twelve' }).success).toBe(false);
    expect(schema.safeParse(undefined).success).toBe(true);
  });
});
