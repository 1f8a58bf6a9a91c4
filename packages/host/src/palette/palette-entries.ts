import {
  commandItemValue,
  formatKeySequence,
  navItemValue,
  PALETTE_GROUPS,
  recentItemValue,
  type NavIcon,
  type PaletteContribution,
  type PaletteItem,
  type Platform,
  type QuickSearchItem,
  type RegisteredCommand,
  type RegisteredKeybinding,
  type RegisteredNavEntry,
} from '@atrium/sdk';

/**
 * What the palette lists before anything is typed, and searches: one entry per destination (a page
 * the user may open, whatever number of sidebars link to it), the recently opened records, and the
 * commands — each with the module it belongs to as a breadcrumb, an icon, and the shortcut that runs
 * it. A nav entry that names its command (`NavEntry.command`, e.g. the one behind `g u`) absorbs that
 * command: "Users" is listed once, with `G then U`, instead of as a link and an "Open Users" command.
 */

export type PaletteEntryKind = PaletteItem['kind'] | 'record' | 'contributed';

export interface PaletteEntry extends Omit<PaletteItem, 'kind'> {
  kind: PaletteEntryKind;
  /** The module, shown before the title ("Access › Users"); absent when the title is the module. */
  breadcrumb?: string;
  /** The key sequence that runs it, formatted for the platform ("G then U", "Ctrl+K"). */
  shortcut?: string;
  icon?: NavIcon;
  /** kind 'recent' and 'record': the quick-search type the item is filed under when opened. */
  recordType?: string;
  /** kind 'record': the item itself, to file as recently viewed when opened. */
  record?: QuickSearchItem;
  /** kind 'contributed': a run-time contribution's command or result (palette-source.ts). */
  run?: () => unknown;
}

export interface PaletteDestination {
  entry: Pick<RegisteredNavEntry, 'id' | 'title' | 'pluginId' | 'icon' | 'command' | 'to'>;
  href: string;
}

export interface PaletteRecentSource {
  type: string;
  typePlural: string;
  items: readonly QuickSearchItem[];
}

export interface PaletteSources {
  /** Visible nav entries, module entries first (main, agent), then the modules' own pages (sub). */
  destinations: readonly PaletteDestination[];
  recent?: readonly PaletteRecentSource[];
  commands?: readonly RegisteredCommand[];
  /** Commands that open a nav entry the user may not see (it would only lead to /forbidden). */
  hiddenCommands?: ReadonlySet<string>;
  keybindings?: readonly RegisteredKeybinding[];
  platform?: Platform;
  /** Plugin id → the module's title (the breadcrumb). */
  moduleTitles?: ReadonlyMap<string, string>;
  /** Plugin id → the module's own icon (its main nav entry's), for commands that have none. */
  moduleIcons?: ReadonlyMap<string, NavIcon>;
  recentIcon?: NavIcon;
  commandIcon?: NavIcon;
  /** Run-time contributions (a third-party plugin's commands), each under its own heading. */
  contributed?: readonly { key: string; contribution: PaletteContribution }[];
  contributedIcon?: NavIcon;
}

/** cmdk value of a contributed command or result: namespaced so it never meets a module's ids. */
export const contributedItemValue = (key: string, kind: 'command' | 'result', id: string) =>
  `contributed:${key}:${kind}:${id}`;

const same = (a: string, b: string | undefined) => b !== undefined && a.toLowerCase() === b.toLowerCase();

/** Command id → the first argument-free binding's keys, formatted. */
export function shortcutsByCommand(
  bindings: readonly RegisteredKeybinding[],
  platform: Platform = 'other',
): Map<string, string> {
  const shortcuts = new Map<string, string>();
  for (const binding of bindings) {
    if (binding.args !== undefined || shortcuts.has(binding.command)) continue;
    shortcuts.set(binding.command, formatKeySequence(binding.strokes, platform));
  }
  return shortcuts;
}

export function buildPaletteEntries(sources: PaletteSources): PaletteEntry[] {
  const shortcuts = shortcutsByCommand(sources.keybindings ?? [], sources.platform);
  const titles = sources.moduleTitles ?? new Map<string, string>();
  const entries: PaletteEntry[] = [];
  const claimedCommands = new Set<string>();

  // Destinations: the first entry for an href wins; later ones lend their title as a keyword.
  const byHref = new Map<string, PaletteEntry>();
  for (const { entry, href } of sources.destinations) {
    const existing = byHref.get(href);
    if (existing) {
      if (!same(entry.title, existing.title)) existing.keywords = [...existing.keywords, entry.title];
      existing.icon ??= entry.icon;
      if (!existing.commandId && entry.command) {
        existing.commandId = entry.command;
        const shortcut = shortcuts.get(entry.command);
        if (shortcut) existing.shortcut = shortcut;
      }
      if (entry.command) claimedCommands.add(entry.command);
      continue;
    }
    const module = titles.get(entry.pluginId);
    const destination: PaletteEntry = {
      value: navItemValue(entry.id),
      kind: 'nav',
      title: entry.title,
      group: PALETTE_GROUPS.navigation,
      keywords: [entry.to.name, ...(module && !same(entry.title, module) ? [module] : [])],
      to: href,
    };
    if (module && !same(entry.title, module)) destination.breadcrumb = module;
    if (entry.icon) destination.icon = entry.icon;
    if (entry.command) {
      claimedCommands.add(entry.command);
      destination.commandId = entry.command;
      const shortcut = shortcuts.get(entry.command);
      if (shortcut) destination.shortcut = shortcut;
    }
    byHref.set(href, destination);
    entries.push(destination);
  }

  // Recently opened records come first (before anything is typed, they are what is listed first).
  const recents: PaletteEntry[] = [];
  for (const source of sources.recent ?? []) {
    for (const item of source.items) {
      const recent: PaletteEntry = {
        value: recentItemValue(source.type, item.id),
        kind: 'recent',
        title: item.title,
        group: PALETTE_GROUPS.recent,
        keywords: [source.type, source.typePlural],
        to: item.to,
        breadcrumb: source.type,
        recordType: source.type,
        record: item,
      };
      if (item.subtitle) recent.subtitle = item.subtitle;
      if (sources.recentIcon) recent.icon = sources.recentIcon;
      recents.push(recent);
    }
  }

  for (const command of sources.commands ?? []) {
    if (claimedCommands.has(command.id) || sources.hiddenCommands?.has(command.id)) continue;
    const group = command.group ?? PALETTE_GROUPS.commands;
    const module = command.source ? titles.get(command.source) : undefined;
    const entry: PaletteEntry = {
      value: commandItemValue(command.id),
      kind: 'command',
      title: command.title,
      group,
      keywords: command.keywords,
      commandId: command.id,
    };
    if (module && !same(group, module) && !same(command.title, module)) entry.breadcrumb = module;
    const shortcut = shortcuts.get(command.id);
    if (shortcut) entry.shortcut = shortcut;
    const icon = (command.source && sources.moduleIcons?.get(command.source)) || sources.commandIcon;
    if (icon) entry.icon = icon;
    entries.push(entry);
  }

  for (const { key, contribution } of sources.contributed ?? []) {
    for (const command of contribution.commands) {
      const entry: PaletteEntry = {
        value: contributedItemValue(key, 'command', command.id),
        kind: 'contributed',
        title: command.title,
        group: contribution.heading,
        keywords: [contribution.heading, ...(command.keywords ?? [])],
        run: () => command.run(),
      };
      if (command.shortcut) entry.shortcut = command.shortcut;
      if (sources.contributedIcon) entry.icon = sources.contributedIcon;
      entries.push(entry);
    }
  }

  // cmdk keys rows by value: keep the first of any repeat.
  const seen = new Set<string>();
  return [...recents, ...entries].filter((entry) => !seen.has(entry.value) && seen.add(entry.value));
}
