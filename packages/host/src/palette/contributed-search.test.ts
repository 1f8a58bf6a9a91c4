import type { ContributedResult, PaletteContribution } from '@atrium/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createContributedSearch, type ContributedGroup } from './contributed-search.js';
import { buildPaletteEntries } from './palette-entries.js';
import { contributedGroups, createPaletteIndex, paletteResults } from './palette-results.js';

const result = (id: string, title = id): ContributedResult => ({ id, title, run: () => id });
const contribution = (
  id: string,
  search?: PaletteContribution['search'],
  commands: PaletteContribution['commands'] = [],
): { key: string; contribution: PaletteContribution } => ({
  key: `third-party:${id}`,
  contribution: { id, heading: `Plugin ${id}`, commands, ...(search ? { search } : {}) },
});

describe('contributed palette search', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const settled = (groups: readonly ContributedGroup[]) =>
    groups.map((g) => [g.heading, g.pending, g.items.map((i) => i.title)]);

  it('shows each answer on its own; late, failed and empty answers contribute nothing', async () => {
    const search = createContributedSearch(
      [
        contribution('fast', async ({ query }) => [result('a', `A for ${query}`)]),
        contribution('slow', () => new Promise(() => undefined)),
        contribution('broken', async () => Promise.reject(new Error('no'))),
        contribution('throws', () => {
          throw new Error('sync');
        }),
        contribution('empty', async () => []),
        contribution('commands only'),
      ],
      { debounceMs: 10, limitMs: 100 },
    );
    search.setQuery('roof');
    expect(search.getState().groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(10);
    // Searching: the four that search and answered nothing yet, and the fast one's answer.
    expect(settled(search.getState().groups)).toEqual([
      ['Plugin fast', false, ['A for roof']],
      ['Plugin slow', true, []],
    ]);
    await vi.advanceTimersByTimeAsync(100);
    expect(settled(search.getState().groups)).toEqual([['Plugin fast', false, ['A for roof']]]);
    search.dispose();
  });

  it('keeps five plain results of an answer, drops malformed ones, and aborts the previous text', async () => {
    const signals: AbortSignal[] = [];
    const search = createContributedSearch(
      [
        contribution('many', async ({ signal }) => {
          signals.push(signal);
          return [
            { id: 'x', title: 'no run' } as unknown as ContributedResult,
            result('1'),
            result('1', 'again'),
            ...['2', '3', '4', '5', '6', '7'].map((id) => result(id)),
          ];
        }),
      ],
      { debounceMs: 10, limitMs: 100 },
    );
    search.setQuery('ro');
    await vi.advanceTimersByTimeAsync(10);
    search.setQuery('roof');
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(search.getState().groups[0]!.items.map((i) => i.title)).toEqual(['1', '2', '3', '4', '5']);
    // One character searches nothing.
    search.setQuery('r');
    expect(search.getState().groups).toEqual([]);
    search.dispose();
  });

  it('lists a contribution’s commands and results together under its heading', () => {
    const ran: string[] = [];
    const entries = buildPaletteEntries({
      destinations: [],
      contributed: [
        contribution('roofs', undefined, [
          { id: 'summary', title: 'Summarise roofs', shortcut: 'R A', run: () => ran.push('summary') },
        ]),
      ],
    });
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'contributed',
        title: 'Summarise roofs',
        group: 'Plugin roofs',
        shortcut: 'R A',
        value: 'contributed:third-party:roofs:command:summary',
      }),
    ]);
    const answered = contributedGroups([
      { key: 'third-party:roofs', heading: 'Plugin roofs', pending: false, items: [result('r', 'Roof report')] },
    ]);
    const groups = paletteResults(createPaletteIndex(entries), 'roof', { contributed: answered });
    expect(groups.map((g) => [g.heading, g.items.map((i) => i.title)])).toEqual([
      ['Plugin roofs', ['Summarise roofs', 'Roof report']],
    ]);
    groups[0]!.items[0]!.run!();
    expect(ran).toEqual(['summary']);
  });
});
