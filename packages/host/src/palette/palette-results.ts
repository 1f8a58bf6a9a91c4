import { createFuzzyIndex, matchingHeader, PALETTE_GROUPS, type FuzzyIndex } from '@atrium/sdk';
import type { RecordGroup } from '../quick-search/record-search.js';
import type { ContributedGroup } from './contributed-search.js';
import { contributedItemValue, type PaletteEntry } from './palette-entries.js';

/**
 * What the palette renders for a query. cmdk's own filter scores every item on every keystroke and
 * renders them all; with 10,000 commands that is too slow, so the SDK's index ranks and we render
 * only the best PALETTE_RENDER_LIMIT, grouped under their headings (groups ordered by their best
 * item, items keep their rank inside a group). Recently opened records come first; records found by
 * the quick-search providers follow in a group per provider ("Matching Claims") — ahead of the
 * commands when the text holds a digit (it reads as a claim or policy number), after them otherwise.
 */
export const PALETTE_RENDER_LIMIT = 50;

export interface PaletteGroup {
  heading: string;
  items: PaletteEntry[];
  /** Record groups: still searching, or why the provider failed. */
  pending?: boolean;
  error?: string | null;
}

export function createPaletteIndex(items: readonly PaletteEntry[]): FuzzyIndex<PaletteEntry> {
  return createFuzzyIndex(items, (item) => ({ title: item.title, keywords: item.keywords }));
}

export const recordItemValue = (providerId: string, id: string) => `record:${providerId}:${id}`;

/** One group per provider that is searching, found something or failed. */
export function recordGroups(groups: readonly RecordGroup[], icon?: PaletteEntry['icon']): PaletteGroup[] {
  return groups
    .filter((group) => group.pending || group.error || group.items.length > 0)
    .map((group) => ({
      heading: matchingHeader(group.typePlural),
      pending: group.pending,
      error: group.error,
      items: group.items.map((item) => {
        const entry: PaletteEntry = {
          value: recordItemValue(group.providerId, item.id),
          kind: 'record',
          title: item.title,
          group: matchingHeader(group.typePlural),
          keywords: [],
          to: item.to,
          breadcrumb: group.type,
          recordType: group.type,
          record: item,
        };
        if (item.subtitle) entry.subtitle = item.subtitle;
        if (icon) entry.icon = icon;
        return entry;
      }),
    }));
}

/** A contribution's results as palette rows under its heading (while searching, an empty pending group). */
export function contributedGroups(groups: readonly ContributedGroup[], icon?: PaletteEntry['icon']): PaletteGroup[] {
  return groups.map((group) => ({
    heading: group.heading,
    pending: group.pending,
    items: group.items.map((item) => {
      const entry: PaletteEntry = {
        value: contributedItemValue(group.key, 'result', item.id),
        kind: 'contributed',
        title: item.title,
        group: group.heading,
        keywords: [],
        run: () => item.run(),
      };
      if (item.subtitle) entry.subtitle = item.subtitle;
      if (icon) entry.icon = icon;
      return entry;
    }),
  }));
}

export function paletteResults(
  index: FuzzyIndex<PaletteEntry>,
  query: string,
  options: { limit?: number; records?: readonly PaletteGroup[]; contributed?: readonly PaletteGroup[] } = {},
): PaletteGroup[] {
  const grouped = new Map<string, PaletteEntry[]>();
  for (const { item } of index.search(query, { limit: options.limit ?? PALETTE_RENDER_LIMIT })) {
    let group = grouped.get(item.group);
    if (!group) grouped.set(item.group, (group = []));
    group.push(item);
  }
  const groups = [...grouped].map(([heading, items]): PaletteGroup => ({ heading, items }));
  // A contribution's results join its commands' group (both are under the plugin's name).
  for (const extra of options.contributed ?? []) {
    const same = groups.find((g) => g.heading === extra.heading);
    if (same) {
      same.items = [...same.items, ...extra.items];
      same.pending = extra.pending;
    } else groups.push(extra);
  }
  const recent = groups.filter((g) => g.heading === PALETTE_GROUPS.recent);
  const others = groups.filter((g) => g.heading !== PALETTE_GROUPS.recent);
  const records = options.records ?? [];
  return /\d/.test(query) ? [...recent, ...records, ...others] : [...recent, ...others, ...records];
}
