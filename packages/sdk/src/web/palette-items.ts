import type { RegisteredCommand } from './command-registry.js';
import type { QuickSearchItem } from './quick-search.js';

/**
 * Command palette entries. Every value is namespaced (`command:<id>`, `nav:<route name>`,
 * `recent:<type>:<id>`) because cmdk keys items by value: a command and a route that share a title or
 * id would otherwise collapse into one row or select each other.
 */

export type PaletteItemKind = 'command' | 'nav' | 'recent';

export interface PaletteItem {
  value: string;
  kind: PaletteItemKind;
  title: string;
  subtitle?: string;
  group: string;
  keywords: readonly string[];
  /** kind 'command': what to execute. */
  commandId?: string;
  /** kind 'nav' and 'recent': where to go. */
  to?: string;
}

export const commandItemValue = (id: string) => `command:${id}`;
export const navItemValue = (routeName: string) => `nav:${routeName}`;
export const recentItemValue = (type: string, id: string) => `recent:${type}:${id}`;

export function parsePaletteValue(
  value: string,
):
  | { kind: 'command'; id: string }
  | { kind: 'nav'; routeName: string }
  | { kind: 'recent'; type: string; id: string }
  | null {
  const colon = value.indexOf(':');
  if (colon < 0) return null;
  const kind = value.slice(0, colon);
  const rest = value.slice(colon + 1);
  if (kind === 'command' && rest) return { kind, id: rest };
  if (kind === 'nav' && rest) return { kind, routeName: rest };
  if (kind === 'recent') {
    const split = rest.indexOf(':');
    if (split > 0 && split < rest.length - 1) return { kind, type: rest.slice(0, split), id: rest.slice(split + 1) };
  }
  return null;
}

export interface PaletteNavTarget {
  routeName: string;
  title: string;
  to: string;
  keywords?: readonly string[];
}

export interface PaletteRecentGroup {
  type: string;
  typePlural: string;
  items: readonly QuickSearchItem[];
}

export const PALETTE_GROUPS = { navigation: 'Go to', recent: 'Recent', commands: 'Commands' } as const;

/** All palette entries: navigation, then recent items, then commands. Values are unique (first wins). */
export function buildPaletteItems(sources: {
  commands?: readonly RegisteredCommand[];
  nav?: readonly PaletteNavTarget[];
  recent?: readonly PaletteRecentGroup[];
}): PaletteItem[] {
  const items: PaletteItem[] = [];
  const seen = new Set<string>();
  const push = (item: PaletteItem) => {
    if (seen.has(item.value)) return;
    seen.add(item.value);
    items.push(item);
  };
  for (const target of sources.nav ?? []) {
    push({
      value: navItemValue(target.routeName),
      kind: 'nav',
      title: target.title,
      group: PALETTE_GROUPS.navigation,
      keywords: target.keywords ?? [],
      to: target.to,
    });
  }
  for (const group of sources.recent ?? []) {
    for (const recent of group.items) {
      const item: PaletteItem = {
        value: recentItemValue(group.type, recent.id),
        kind: 'recent',
        title: recent.title,
        group: PALETTE_GROUPS.recent,
        keywords: [group.type, group.typePlural],
        to: recent.to,
      };
      if (recent.subtitle !== undefined) item.subtitle = recent.subtitle;
      push(item);
    }
  }
  for (const command of sources.commands ?? []) {
    push({
      value: commandItemValue(command.id),
      kind: 'command',
      title: command.title,
      group: command.group ?? PALETTE_GROUPS.commands,
      keywords: command.keywords,
      commandId: command.id,
    });
  }
  return items;
}
