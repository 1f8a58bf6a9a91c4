import { createContext, useCallback, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from './api-client.js';
import type { HostServices } from './command.js';
import type { ContextValue } from './context-keys.js';
import type { PluginContextWriter } from './context-service.js';
import type { AnySlotContribution } from './plugin-manifest.js';
import type { Sourced } from './plugin-registry.js';
import type { SlotRef } from './slot-ref.js';
import type { AnyRouteRef } from './route-ref.js';

/**
 * What a plugin's pages, panels and slot components may reach of the host, through React context:
 * the host services (navigation, toasts, overlays, the API client), the signed-in user and the
 * effective role, and the activity sidebar's unsaved-changes flags. The host provides the value
 * (`PluginHostProvider`); plugins only read it through the hooks below. State that belongs to the
 * host (the session, the sidebar) is exposed read-only, plus the one write the spec needs (a panel
 * reporting unsaved changes); the access token stays out of reach, the API client carries it.
 */

/** A value the host owns and plugins observe: the shape `useSyncExternalStore` reads. */
export interface ReadableStore<T> {
  /** Returns the same object for as long as nothing changed. */
  getSnapshot(): T;
  subscribe(listener: () => void): () => void;
}

export interface SessionUser {
  /** Stable subject id. */
  id: string;
  username: string;
  name: string;
  email: string;
  /** Names of the roles the user may act in. */
  roles: readonly string[];
}

export interface SessionSnapshot {
  signedIn: boolean;
  /** null when nobody is signed in. */
  user: SessionUser | null;
  /** The role the user acts in (sent as the effective-role header); null until one is chosen. */
  effectiveRole: string | null;
}

export interface ActivitySidebarSnapshot {
  /** The panel open in the activity sidebar, if any. */
  openPanelId: string | null;
  /** Panels that reported unsaved changes. */
  unsaved: ReadonlySet<string>;
}

export interface ActivitySidebarAccess extends ReadableStore<ActivitySidebarSnapshot> {
  /** While the notes panel reports unsaved changes the host refuses to toggle the sidebar. */
  setUnsaved(panelId: string, unsaved: boolean): void;
}

export interface PluginHost {
  services: HostServices;
  session: ReadableStore<SessionSnapshot>;
  activity: ActivitySidebarAccess;
  /** A writer for the `when` context confined to `<pluginId>.*` (see usePluginContextKey). */
  contextFor(pluginId: string): PluginContextWriter;
  /** The contributions registered for a slot (what `<SlotOutlet>` renders); absent in bare test hosts. */
  slotContributions?<C>(slot: SlotRef<C>): Sourced<AnySlotContribution>[];
  /** A registered route by its spec name (what a third-party plugin navigates by); absent in bare test hosts. */
  routeByName?(name: string): AnyRouteRef | undefined;
}

const PluginHostContext = createContext<PluginHost | null>(null);
const ActivityPanelIdContext = createContext<string | null>(null);

/** Rendered by the host (and by `renderInTestHost`) above every plugin component. */
export function PluginHostProvider({ host, children }: { host: PluginHost; children?: ReactNode }) {
  return <PluginHostContext.Provider value={host}>{children}</PluginHostContext.Provider>;
}

/** Rendered by the host around an activity panel so `useActivityPanel()` knows which one it is. */
export function ActivityPanelScope({ panelId, children }: { panelId: string; children?: ReactNode }) {
  return <ActivityPanelIdContext.Provider value={panelId}>{children}</ActivityPanelIdContext.Provider>;
}

export const PLUGIN_HOST_MISSING_MESSAGE =
  'Atrium host services are only available inside the host (or renderInTestHost from @atrium/sdk/testing).';

function usePluginHost(): PluginHost {
  const host = useContext(PluginHostContext);
  if (!host) throw new Error(PLUGIN_HOST_MISSING_MESSAGE);
  return host;
}

/** Navigation, toasts, the shell's overlays and quick search, and the API client. */
export function useHostServices(): HostServices {
  return usePluginHost().services;
}

/** The API client with the user's token and effective role (`useHostServices().api`). */
export function useApiClient(): ApiClient {
  return usePluginHost().services.api;
}

/** The signed-in user and the effective role; re-renders when either changes. */
export function useSession(): SessionSnapshot {
  const { session } = usePluginHost();
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}

export interface ActivityPanelHandle {
  panelId: string;
  /** This panel is the one open in the sidebar. */
  open: boolean;
  /** This panel reported unsaved changes. */
  unsaved: boolean;
  /**
   * Reports (or clears) unsaved changes. For the notes panel the host then refuses to toggle the
   * sidebar with the spec's warning. A flag this component set is cleared when it unmounts.
   */
  setUnsaved(unsaved: boolean): void;
}

/**
 * The activity sidebar as one panel sees it. Inside a panel the id comes from the host; elsewhere
 * pass it (`useActivityPanel('notes')`).
 */
export function useActivityPanel(panelId?: string): ActivityPanelHandle {
  const { activity } = usePluginHost();
  const scopedId = useContext(ActivityPanelIdContext);
  const id = panelId ?? scopedId;
  if (!id) throw new Error('useActivityPanel() needs a panel id outside an activity panel.');
  const snapshot = useSyncExternalStore(activity.subscribe, activity.getSnapshot, activity.getSnapshot);
  const setByThis = useRef(false);
  const setUnsaved = useCallback(
    (unsaved: boolean) => {
      setByThis.current = unsaved;
      activity.setUnsaved(id, unsaved);
    },
    [activity, id],
  );
  useEffect(
    () => () => {
      // Unmounted text is gone; a stale flag would lock the sidebar for good.
      if (setByThis.current) activity.setUnsaved(id, false);
      setByThis.current = false;
    },
    [activity, id],
  );
  return { panelId: id, open: snapshot.openPanelId === id, unsaved: snapshot.unsaved.has(id), setUnsaved };
}

/**
 * Sets `<pluginId>.<key>` in the `when` context while the calling component is mounted (and clears
 * it when the component goes), so a plugin's commands and shortcuts can apply only where they make
 * sense: `usePluginContextKey('claims', 'claimOpen', true)` makes `when: 'claims.claimOpen'` hold.
 * One component should own a key; the last one to unmount clears it.
 */
export function usePluginContextKey(pluginId: string, key: string, value: ContextValue): void {
  const host = usePluginHost();
  useEffect(() => {
    const writer = host.contextFor(pluginId);
    writer.set(key, value);
    return () => writer.set(key, undefined);
  }, [host, pluginId, key, value]);
}

/** The contributions registered for a slot, in order; none outside the host. */
export function useSlotContributions<C>(slot: SlotRef<C>): Sourced<AnySlotContribution>[] {
  const host = useContext(PluginHostContext);
  return host?.slotContributions?.(slot) ?? [];
}

/**
 * Looks up a registered route by its spec name (`quote:page`), as a route ref: how the third-party
 * plugin runtime turns a plugin's "navigate to this route with these params" into a link.
 */
export function useRouteLookup(): (name: string) => AnyRouteRef | undefined {
  const host = useContext(PluginHostContext);
  return (name) => host?.routeByName?.(name);
}
