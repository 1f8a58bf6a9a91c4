import { createFuzzyIndex, type FuzzyIndex, type PaletteItem } from '@atrium/sdk';

/**
 * What the palette renders for a query. cmdk's own filter scores every item on every keystroke and
 * renders them all; with 10,000 commands that is too slow, so the SDK's index ranks and we render
 * only the best PALETTE_RENDER_LIMIT, grouped under their headings (groups ordered by their best
 * item, items keep their rank inside a group).
 */
export const PALETTE_RENDER_LIMIT = 50;

export interface PaletteGroup {
  heading: string;
  items: PaletteItem[];
}

export function createPaletteIndex(items: readonly PaletteItem[]): FuzzyIndex<PaletteItem> {
  return createFuzzyIndex(items, (item) => ({ title: item.title, keywords: item.keywords }));
}

export function paletteResults(
  index: FuzzyIndex<PaletteItem>,
  query: string,
  limit = PALETTE_RENDER_LIMIT,
): PaletteGroup[] {
  const groups = new Map<string, PaletteItem[]>();
  for (const { item } of index.search(query, { limit })) {
    let group = groups.get(item.group);
    if (!group) groups.set(item.group, (group = []));
    group.push(item);
  }
  return [...groups].map(([heading, items]) => ({ heading, items }));
}
