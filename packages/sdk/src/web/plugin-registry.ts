import { assertLayout } from './layouts.js';
import { normalizePath } from './route-ref.js';
import type { AnyCommandDefinition } from './command.js';
import type { KeybindingDefinition } from './keybinding.js';
import { PluginValidationError, validateManifest } from './manifest-validation.js';
import type {
  ActivityPanel,
  AnySlotContribution,
  NavArea,
  NavEntry,
  PluginManifest,
  PluginRoute,
} from './plugin-manifest.js';
import type { AnyQuickSearchProvider } from './quick-search.js';
import type { SlotRef } from './slot-ref.js';

/**
 * Collects manifests and checks them against each other (ids, route names and paths, commands,
 * providers, panels must be unique across plugins). The host reads everything it builds — router,
 * navigation, palette, shortcut map — from here. Registration is all-or-nothing per plugin.
 */

export interface RegisteredRoute extends PluginRoute {
  pluginId: string;
  /** The owning plugin's access module key (route guard: is this module viewable?). */
  moduleKey: string | undefined;
}

export interface RegisteredNavEntry extends NavEntry {
  pluginId: string;
  moduleKey: string | undefined;
}

export interface Sourced<T> {
  pluginId: string;
  item: T;
}

export interface PluginRegistry {
  /** Throws PluginValidationError (with every problem) and registers nothing if invalid. */
  register(manifest: PluginManifest): void;
  registerAll(manifests: readonly PluginManifest[]): void;
  plugins(): readonly PluginManifest[];
  plugin(id: string): PluginManifest | undefined;
  routes(): readonly RegisteredRoute[];
  routeByName(name: string): RegisteredRoute | undefined;
  /** Entries of one area sorted by `order` (ties: registration order). */
  nav(area: NavArea): RegisteredNavEntry[];
  commands(): Sourced<AnyCommandDefinition>[];
  shortcuts(): Sourced<KeybindingDefinition>[];
  quickSearchProviders(): readonly AnyQuickSearchProvider[];
  quickSearchProvider(id: string): AnyQuickSearchProvider | undefined;
  activityPanels(): Sourced<ActivityPanel>[];
  slotContributions<C>(slot: SlotRef<C>): Sourced<AnySlotContribution>[];
  /** Nav entries pointing at route names no plugin registered (checked once all plugins are in). */
  danglingNav(): RegisteredNavEntry[];
}

export function createPluginRegistry(): PluginRegistry {
  const manifests: PluginManifest[] = [];
  const routeNames = new Map<string, string>();
  const routePaths = new Map<string, string>();
  const commandIds = new Map<string, string>();
  const providerIds = new Map<string, string>();
  const panelIds = new Map<string, string>();
  const navIds = new Map<string, string>();

  const crossProblems = (manifest: PluginManifest): string[] => {
    const problems: string[] = [];
    const clash = (map: Map<string, string>, key: string, what: string, shown = key) => {
      const owner = map.get(key);
      if (owner !== undefined) problems.push(`${what} '${shown}' is already registered by plugin '${owner}'`);
    };
    if (manifests.some((m) => m.id === manifest.id)) problems.push(`plugin id '${manifest.id}' is already registered`);
    for (const route of manifest.routes) {
      if (route.name) clash(routeNames, route.name, 'route name');
      clash(routePaths, normalizePath(route.path), 'route path', route.path);
    }
    for (const command of manifest.commands) clash(commandIds, command.id, 'command');
    for (const provider of manifest.quickSearch) clash(providerIds, provider.id, 'quick search provider');
    for (const panel of manifest.activityPanels) clash(panelIds, panel.id, 'activity panel');
    for (const entry of manifest.nav) clash(navIds, entry.id, 'nav entry');
    return problems;
  };

  const registry: PluginRegistry = {
    register(manifest) {
      // Layouts first and on their own: the spec says an invalid layout throws at registration.
      for (const route of manifest.routes) assertLayout(route.meta?.layout, route.name ?? route.path);
      const problems = [...validateManifest(manifest), ...crossProblems(manifest)];
      if (problems.length > 0) throw new PluginValidationError(manifest.id, problems);
      manifests.push(manifest);
      for (const route of manifest.routes) {
        if (route.name) routeNames.set(route.name, manifest.id);
        routePaths.set(normalizePath(route.path), manifest.id);
      }
      for (const command of manifest.commands) commandIds.set(command.id, manifest.id);
      for (const provider of manifest.quickSearch) providerIds.set(provider.id, manifest.id);
      for (const panel of manifest.activityPanels) panelIds.set(panel.id, manifest.id);
      for (const entry of manifest.nav) navIds.set(entry.id, manifest.id);
    },
    registerAll(list) {
      for (const manifest of list) registry.register(manifest);
    },
    plugins: () => manifests,
    plugin: (id) => manifests.find((m) => m.id === id),
    routes() {
      return manifests.flatMap((m) => m.routes.map((route) => ({ ...route, pluginId: m.id, moduleKey: m.moduleKey })));
    },
    routeByName(name) {
      return registry.routes().find((r) => r.name === name);
    },
    nav(area) {
      const entries = manifests.flatMap((m) =>
        m.nav.filter((n) => n.area === area).map((n) => ({ ...n, pluginId: m.id, moduleKey: m.moduleKey })),
      );
      // Array.prototype.sort is stable, so equal orders keep registration order.
      return entries.sort((a, b) => a.order - b.order);
    },
    commands: () => manifests.flatMap((m) => m.commands.map((item) => ({ pluginId: m.id, item }))),
    shortcuts: () => manifests.flatMap((m) => m.shortcuts.map((item) => ({ pluginId: m.id, item }))),
    quickSearchProviders: () => manifests.flatMap((m) => m.quickSearch),
    quickSearchProvider: (id) => manifests.flatMap((m) => m.quickSearch).find((p) => p.id === id),
    activityPanels() {
      return manifests
        .flatMap((m) => m.activityPanels.map((item) => ({ pluginId: m.id, item })))
        .sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0));
    },
    slotContributions(slot) {
      return manifests
        .flatMap((m) => m.slots.filter((s) => s.slot.key === slot.key).map((item) => ({ pluginId: m.id, item })))
        .sort((a, b) => (a.item.order ?? 0) - (b.item.order ?? 0));
    },
    danglingNav() {
      return (['main', 'sub', 'agent', 'user-menu', 'resources'] as const).flatMap((area) =>
        registry.nav(area).filter((entry) => !routeNames.has(entry.to.name)),
      );
    },
  };
  return registry;
}
