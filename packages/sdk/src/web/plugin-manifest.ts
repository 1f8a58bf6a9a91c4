import type { ComponentType } from 'react';
import type { AnyCommandDefinition } from './command.js';
import type { KeybindingDefinition } from './keybinding.js';
import type { MyWorkWidget } from './my-work.js';
import type { Layout } from './layouts.js';
import type { PaletteSource } from './palette-source.js';
import type { AnyQuickSearchProvider } from './quick-search.js';
import type { AnyRouteRef, RouteParams } from './route-ref.js';
import type { SlotRef } from './slot-ref.js';

/**
 * The declarative plugin manifest (DESIGN.md, "What a plugin declares"). The host builds the router,
 * navigation, palette and shortcut map from manifests alone; page code loads on first visit through
 * `loader`.
 */

// Page and panel components receive nothing from the host: they read params/services through hooks.
export type PageComponent = ComponentType<Record<string, never>> | ComponentType;
export type LazyComponentLoader<C = PageComponent> = () => Promise<{ default: C }>;

export interface RouteMeta {
  /** One of the five layouts; any other value throws at registration. */
  layout?: Layout;
  /** Needs a signed-in session (guard sends others to login with a redirect). Default true. */
  requiresAuth?: boolean;
  /** Only for signed-out users (login pages); signed-in users go to the redirect target or `/`. */
  loginOnly?: boolean;
  /** Skips the module authorization check (e.g. `/forbidden`). */
  exempt?: boolean;
  /**
   * A permission the page needs besides `ViewModule` on its module (an area only some of the
   * module's roles may use, e.g. `{ resource: 'claims:claim', action: 'assign' }`). Navigation, the
   * palette's destinations and the route guard evaluate it like the server does: links to the page
   * show only when allowed, and the guard sends the refused to `/forbidden`.
   */
  permission?: { resource: string; action: string };
  /** Browser tab title. */
  title?: string;
}

export interface PluginRoute {
  /** Spec route name, e.g. `claims:exposures`; unique across plugins. Omit only for layout-less helpers. */
  name?: string;
  /** Absolute router path, e.g. `/claims/:claimId/exposures`; unique across plugins. */
  path: string;
  meta: RouteMeta;
  /** Lazy page: `() => import('./pages/exposures.js')`. Absent means the route renders nothing. */
  loader?: LazyComponentLoader;
}

export type NavArea = 'main' | 'sub' | 'agent' | 'user-menu' | 'resources';

export type NavIcon = string | ComponentType<{ size?: number | string }>;

export interface NavEntry {
  id: string;
  title: string;
  to: AnyRouteRef;
  /** Params for `to.link`, when the route has any. */
  params?: RouteParams;
  /**
   * main: left sidebar; sub: the module's sub-sidebar; agent: agent/agency navigation; user-menu: the
   * top bar's user menu, for a module the spec keeps out of the navigation (Integrations);
   * resources: under the user menu's Resources heading (Support Tools, outstanding tickets), which
   * agents and agencies never see.
   */
  area: NavArea;
  /** Ascending; ties keep registration order. */
  order: number;
  icon?: NavIcon;
  /** Optional `when` expression deciding visibility. */
  when?: string;
  /**
   * The command that opens this entry (e.g. the one bound to its `g` chord): the palette lists the
   * two as one destination and shows the command's shortcut beside it.
   */
  command?: string;
}

export interface ActivityPanel {
  /** e.g. `notes`, `claims-activity`, `claim-outbound-email`. */
  id: string;
  title: string;
  order?: number;
  icon?: NavIcon;
  when?: string;
  loader: LazyComponentLoader;
}

export interface SlotContribution<Context = unknown> {
  slot: SlotRef<Context>;
  id: string;
  order?: number;
  when?: string;
  component: ComponentType<{ context: Context }>;
}

// Slot contributions differ in context type; the registry groups them by `slot.key`.
export type AnySlotContribution = SlotContribution<any>;

export interface PluginManifestInput {
  /** Lowercase, e.g. `claims`; prefixes the plugin's `when` keys and command ids. */
  id: string;
  title: string;
  /** Access module key: `claims` → UI resource `ui:claims` checked with ViewModule. */
  moduleKey?: string;
  routes?: PluginRoute[];
  nav?: NavEntry[];
  commands?: AnyCommandDefinition[];
  shortcuts?: KeybindingDefinition[];
  quickSearch?: AnyQuickSearchProvider[];
  /** Palette entries known only at run time (palette-source.ts), asked each time the palette opens. */
  palette?: PaletteSource[];
  activityPanels?: ActivityPanel[];
  slots?: AnySlotContribution[];
  /** Widgets above the All Modules tiles (my-work.ts). */
  myWork?: MyWorkWidget[];
}

export interface PluginManifest extends Readonly<Required<Omit<PluginManifestInput, 'moduleKey'>>> {
  readonly kind: 'plugin-manifest';
  readonly apiVersion: string;
  readonly moduleKey: string | undefined;
}

/** `claims` → `ui:claims`: the access resource whose ViewModule evaluation shows the module. */
export function moduleResource(moduleKey: string): string {
  return `ui:${moduleKey}`;
}
