import { createCommandRegistry, createContextService, createRouteRef, type HostServices } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import { buildPaletteEntries, type PaletteDestination } from './palette-entries.js';
import { createPaletteIndex, paletteResults, PALETTE_RENDER_LIMIT } from './palette-results.js';

// The palette never runs commands here; the services are never called.
const services = {} as HostServices;

function registryWith(count: number) {
  const registry = createCommandRegistry({ context: createContextService(), services });
  for (let i = 0; i < count; i++) {
    registry.registerCommand({ id: `bulk.command${i}`, title: `Bulk Command ${i}`, group: 'Bulk', run() {} });
  }
  registry.registerCommand({
    id: 'claims.openReserve',
    title: 'Open Reserve Worksheet',
    group: 'Claims',
    keywords: ['reserves'],
    run() {},
  });
  return registry;
}

const claimsRef = createRouteRef({ name: 'claims:dashboard', path: '/claims' });
const claimsNav: PaletteDestination = {
  entry: { id: 'claims.nav', title: 'Claims', pluginId: 'claims', to: claimsRef },
  href: '/claims',
};

describe('palette results', () => {
  it('lists navigation, recent items and commands under their headings', () => {
    const items = buildPaletteEntries({
      destinations: [claimsNav],
      recent: [{ type: 'Policy', typePlural: 'Policies', items: [{ id: 'p1', title: 'POL-1', to: '/policies/p1' }] }],
      commands: registryWith(2).list(),
    });
    const groups = paletteResults(createPaletteIndex(items), '');
    // Recently opened records first.
    expect(groups.map((g) => g.heading)).toEqual(['Recent', 'Go to', 'Bulk', 'Claims']);
    expect(new Set(items.map((i) => i.value)).size).toBe(items.length);
  });

  it('ranks fuzzy matches on title and keywords', () => {
    const items = buildPaletteEntries({ commands: registryWith(20).list(), destinations: [claimsNav] });
    const index = createPaletteIndex(items);
    expect(paletteResults(index, 'reserve')[0]!.items[0]!.title).toBe('Open Reserve Worksheet');
    expect(paletteResults(index, 'orw')[0]!.items[0]!.title).toBe('Open Reserve Worksheet');
    expect(
      paletteResults(index, 'reserves')
        .flatMap((g) => g.items)
        .map((i) => i.title),
    ).toContain('Open Reserve Worksheet');
    expect(paletteResults(index, 'zzzz')).toEqual([]);
  });

  it('renders at most the cap with 10,000 commands', () => {
    const items = buildPaletteEntries({ destinations: [], commands: registryWith(10_000).list() });
    const index = createPaletteIndex(items);
    for (const query of ['b', 'bu', 'bul', 'bulk', 'bulk c', 'bulk co', '9999', 'reserve']) {
      const shown = paletteResults(index, query).flatMap((g) => g.items);
      expect(shown.length).toBeLessThanOrEqual(PALETTE_RENDER_LIMIT);
    }
    expect(paletteResults(index, 'bulk command 9999')[0]!.items[0]!.title).toBe('Bulk Command 9999');
  });
});
