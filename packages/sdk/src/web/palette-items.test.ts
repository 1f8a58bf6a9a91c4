import { describe, expect, it } from 'vitest';
import { createCommandRegistry } from './command-registry.js';
import { createContextService } from './context-service.js';
import { createFuzzyIndex } from './fuzzy-match.js';
import {
  buildPaletteItems,
  commandItemValue,
  navItemValue,
  parsePaletteValue,
  recentItemValue,
} from './palette-items.js';
import { fakeHostServices } from './test-services.js';

describe('palette items', () => {
  const registry = createCommandRegistry({ context: createContextService(), services: fakeHostServices() });
  registry.registerCommand({
    id: 'claims',
    title: 'Claims',
    group: 'Claims',
    keywords: ['fnol'],
    run: () => undefined,
  });
  registry.registerCommand({ id: 'quote.new', title: 'New Quote', run: () => undefined });

  const items = buildPaletteItems({
    nav: [
      { routeName: 'claims', title: 'Claims', to: '/claims' },
      { routeName: 'claims', title: 'Claims duplicate', to: '/claims' },
    ],
    recent: [
      {
        type: 'Claim',
        typePlural: 'Claims',
        items: [{ id: 'claims', title: 'CL-1', subtitle: 'Open', to: '/claims/1' }],
      },
    ],
    commands: registry.list(),
  });

  it('namespaces values so a command, a route and a recent item with the same id stay distinct', () => {
    expect(items.map((i) => i.value)).toEqual([
      'nav:claims',
      'recent:Claim:claims',
      'command:claims',
      'command:quote.new',
    ]);
    expect(new Set(items.map((i) => i.value)).size).toBe(items.length);
  });

  it('groups and carries what to do', () => {
    expect(items[0]).toMatchObject({ kind: 'nav', group: 'Go to', to: '/claims' });
    expect(items[1]).toMatchObject({
      kind: 'recent',
      group: 'Recent',
      subtitle: 'Open',
      to: '/claims/1',
      keywords: ['Claim', 'Claims'],
    });
    expect(items[2]).toMatchObject({ kind: 'command', group: 'Claims', commandId: 'claims', keywords: ['fnol'] });
    expect(items[3]).toMatchObject({ group: 'Commands' });
  });

  it('round-trips values', () => {
    expect(parsePaletteValue(commandItemValue('a:b.c'))).toEqual({ kind: 'command', id: 'a:b.c' });
    expect(parsePaletteValue(navItemValue('claims:exposures'))).toEqual({ kind: 'nav', routeName: 'claims:exposures' });
    expect(parsePaletteValue(recentItemValue('Policy', 'P:1'))).toEqual({ kind: 'recent', type: 'Policy', id: 'P:1' });
    expect(parsePaletteValue('junk')).toBeNull();
    expect(parsePaletteValue('recent:Policy')).toBeNull();
  });

  it('filters by keyword through the fuzzy index', () => {
    const index = createFuzzyIndex(items, (i) => i);
    expect(index.search('fnol').map((r) => r.item.value)).toEqual(['command:claims']);
  });
});
