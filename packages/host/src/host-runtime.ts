import {
  createApiClient,
  createCommandRegistry,
  createContextService,
  createKeybindingManager,
  createPluginRegistry,
  createRouteRef,
  createRecentItemsStore,
  EFFECTIVE_ROLE_HEADER,
  KeybindingError,
  type KeyValueStorage,
  type RecentItemsStore,
  type ApiClient,
  type CommandRegistry,
  type ContextService,
  type HostServices,
  type KeybindingManager,
  type PluginHost,
  type Platform,
  type SessionSnapshot,
  type ActivitySidebarSnapshot,
  type PluginManifest,
  type PluginRegistry,
} from '@atrium/sdk';
import type { StoreApi } from 'zustand/vanilla';
import { createAccessClient, type AccessClient } from './access/access-client.js';
import { authStore as defaultAuthStore, type AuthState } from './auth/auth-store.js';
import { FORBIDDEN_PATH, loginPathFor } from './route-guard.js';
import { SELECT_ROLE_PATH } from './routing/host-route-refs.js';
import { createActivitySidebarStore, type ActivitySidebarState } from './shell/activity-sidebar-state.js';
import { anyOverlayOpen, createShellUiStore, type ShellUiState } from './shell/shell-ui-store.js';
import { createToastStore, type ToastState } from './shell/toast-store.js';

/**
 * Everything the shell runs on, without React: the plugin registry, the `when` context, the
 * command registry, the shortcut manager, the auth and access clients and the shell's own stores.
 * Built once at start (and once per test), then handed to React through HostRuntimeProvider.
 */
/** Spec (Error catalogue): a refused operation says so before the user lands on /forbidden. */
export const FORBIDDEN_OPERATION_MESSAGE = 'This operation is not allowed. (Error code: 403)';

export interface HostRuntime {
  readonly plugins: PluginRegistry;
  readonly context: ContextService;
  readonly commands: CommandRegistry;
  readonly keybindings: KeybindingManager;
  readonly auth: StoreApi<AuthState>;
  readonly access: AccessClient;
  readonly ui: StoreApi<ShellUiState>;
  readonly activity: StoreApi<ActivitySidebarState>;
  readonly toasts: StoreApi<ToastState>;
  /** Recently viewed items per quick-search type, in local storage. */
  readonly recents: RecentItemsStore;
  readonly platform: Platform;
  readonly services: HostServices;
  /** For plugin and host calls that should react to 401/403 the spec's way. */
  readonly api: ApiClient;
  /** What plugin components reach through the SDK's hooks (useHostServices, useSession, useActivityPanel). */
  readonly pluginHost: PluginHost;
  /** Bindings refused at registration (e.g. a single key that prefixes a chord), for the `?` modal. */
  readonly refusedBindings: readonly string[];
  /** The router's navigate, set once the router exists. */
  setNavigate(navigate: (to: string) => void): void;
  /** Headers every API call carries: bearer token and effective role. */
  requestHeaders(): Record<string, string>;
  dispose(): void;
}

export interface HostRuntimeOptions {
  manifests: readonly PluginManifest[];
  auth?: StoreApi<AuthState>;
  fetch?: typeof fetch;
  platform?: Platform;
  storage?: KeyValueStorage;
}

/**
 * The SDK's read-only views of the auth and activity stores. Snapshots are cached until the parts
 * they copy change, as useSyncExternalStore needs; the access token is left out on purpose.
 */
export function createPluginHost(
  services: HostServices,
  auth: StoreApi<AuthState>,
  activity: StoreApi<ActivitySidebarState>,
  context: ContextService,
): PluginHost {
  let session: { from: AuthState['session']; snapshot: SessionSnapshot } | null = null;
  let sidebar: ActivitySidebarSnapshot | null = null;
  return {
    services,
    contextFor: (pluginId) => context.forPlugin(pluginId),
    session: {
      subscribe: (listener) => auth.subscribe(listener),
      getSnapshot() {
        const { session: current, effectiveRole } = auth.getState();
        if (!session || session.from !== current || session.snapshot.effectiveRole !== effectiveRole) {
          const user = current?.user ?? null;
          session = {
            from: current,
            snapshot: {
              signedIn: current !== null,
              user: user && {
                id: user.id,
                username: user.username,
                name: user.name,
                email: user.email,
                roles: [...user.roles],
              },
              effectiveRole,
            },
          };
        }
        return session.snapshot;
      },
    },
    activity: {
      subscribe: (listener) => activity.subscribe(listener),
      getSnapshot() {
        const { openPanelId, unsaved } = activity.getState();
        if (!sidebar || sidebar.openPanelId !== openPanelId || sidebar.unsaved !== unsaved)
          sidebar = { openPanelId, unsaved };
        return sidebar;
      },
      setUnsaved: (panelId, unsaved) => activity.getState().setUnsaved(panelId, unsaved),
    },
  };
}

export function detectPlatform(): Platform {
  const platform = typeof navigator === 'undefined' ? '' : navigator.platform || navigator.userAgent;
  return /Mac|iPhone|iPad/.test(platform) ? 'mac' : 'other';
}

export function createHostRuntime(options: HostRuntimeOptions): HostRuntime {
  const auth = options.auth ?? defaultAuthStore;
  const plugins = createPluginRegistry();
  plugins.registerAll(options.manifests);

  const context = createContextService({ role: auth.getState().effectiveRole });
  const ui = createShellUiStore();
  const activity = createActivitySidebarStore();
  const toasts = createToastStore();
  const recents = createRecentItemsStore(options.storage ? { storage: options.storage } : {});
  const platform = options.platform ?? detectPlatform();
  let navigate: (to: string) => void = (to) => window.location.assign(to);

  const currentPath = () =>
    typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}`;
  const api = createApiClient({
    baseUrl: '/api',
    fetch: options.fetch,
    getToken: () => auth.getState().session?.accessToken,
    getEffectiveRole: () => auth.getState().effectiveRole,
    onUnauthorized: () => {
      // The token is no longer accepted: sign out and come back here after signing in again.
      const url = new URL(currentPath(), 'http://host');
      void auth
        .getState()
        .signOut()
        .then(() => navigate(loginPathFor({ pathname: url.pathname, search: url.search, hash: '' })));
    },
    onForbidden: (error) => {
      if (error.ingressDenied) {
        navigate(
          `${SELECT_ROLE_PATH}?${new URLSearchParams({ redirectReason: error.annotation ?? 'no-effective-role', redirect: currentPath() })}`,
        );
        return;
      }
      toasts.getState().show({ message: FORBIDDEN_OPERATION_MESSAGE, kind: 'error' });
      navigate(FORBIDDEN_PATH);
    },
  });

  const requestHeaders = (): Record<string, string> => {
    const { session, effectiveRole } = auth.getState();
    return {
      ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}),
      ...(effectiveRole ? { [EFFECTIVE_ROLE_HEADER]: effectiveRole } : {}),
    };
  };
  const access = createAccessClient({
    fetch: options.fetch,
    headers: requestHeaders,
    cacheKey: () => auth.getState().effectiveRole,
  });

  const services: HostServices = {
    api,
    access,
    navigate: (to) => navigate(to),
    openQuickSearch: (providerId) => {
      if (plugins.quickSearchProvider(providerId)) ui.getState().openQuickSearch(providerId);
      else toasts.getState().show({ message: `No quick search '${providerId}' is installed.`, kind: 'warning' });
    },
    openQuickSearchForType: (type) => {
      // The last registered provider of a type wins, as the last registered key binding does: a
      // module's real provider (e.g. policies) takes over from the hello plugin's example one.
      const provider = plugins.quickSearchProviders().findLast((p) => p.type.toLowerCase() === type.toLowerCase());
      if (provider) ui.getState().openQuickSearch(provider.id);
      // Until the module that searches this type is installed, say so rather than do nothing.
      else toasts.getState().show({ message: `${type} quick search is not available yet.`, kind: 'info' });
    },
    openCommandPalette: () => ui.getState().openPalette(),
    openShortcuts: () => ui.getState().openShortcuts(),
    openHelp: () => ui.getState().openHelp(),
    showToast: (toast) => void toasts.getState().show(toast),
  };

  const pluginHost: PluginHost = {
    ...createPluginHost(services, auth, activity, context),
    slotContributions: (slot) => plugins.slotContributions(slot),
    routeByName: (name) => {
      const route = plugins.routeByName(name);
      return route?.name ? createRouteRef({ name: route.name, path: route.path }) : undefined;
    },
  };

  const commands = createCommandRegistry({ context, services });
  const keybindings = createKeybindingManager({
    context,
    platform,
    execute: (command, args) => commands.executeCommand(command, args),
    // A binding to a command nobody registered is refused now, listed in `?`, not found when pressed.
    hasCommand: (id) => commands.has(id),
    onError: (error) => services.showToast({ message: (error as Error).message, kind: 'error' }),
  });

  const disposers: (() => void)[] = [];
  const refusedBindings: string[] = [];
  const moduleOf = (pluginId: string) => plugins.plugins().find((p) => p.id === pluginId)?.moduleKey;
  for (const { pluginId, item } of plugins.commands())
    disposers.push(commands.registerCommand(item, { source: pluginId, module: moduleOf(pluginId) }));
  for (const { pluginId, item } of plugins.shortcuts()) {
    try {
      disposers.push(keybindings.register(item, { source: pluginId, module: moduleOf(pluginId) }));
    } catch (error) {
      // One plugin's bad binding must not take the shell down; the `?` modal lists it.
      if (!(error instanceof KeybindingError)) throw error;
      refusedBindings.push(`${pluginId}: ${error.message}`);
      console.warn(`[atrium] ${error.message}`);
    }
  }

  // Keep the host's `when` keys in step with the stores they mirror.
  disposers.push(ui.subscribe((state) => context.setHost('modalOpen', anyOverlayOpen(state))));
  disposers.push(auth.subscribe((state) => context.setHost('role', state.effectiveRole)));
  // `host.signedIn` lets commands and nav entries depend on a session (the SDK's host keys do not).
  const hostKeys = context.forPlugin('host');
  hostKeys.set('signedIn', auth.getState().session !== null);
  disposers.push(auth.subscribe((state) => hostKeys.set('signedIn', state.session !== null)));
  let lastRole = auth.getState().effectiveRole;
  disposers.push(
    auth.subscribe((state) => {
      // useCan's answers belong to one role: a role switch asks afresh.
      if (state.effectiveRole !== lastRole) access.clear();
      lastRole = state.effectiveRole;
    }),
  );
  let hadSession = auth.getState().session !== null;
  disposers.push(
    auth.subscribe((state) => {
      // Permissions may have changed by the next sign-in: start from a clean cache.
      if (hadSession && state.session === null) access.clear();
      hadSession = state.session !== null;
    }),
  );

  // A module the effective role may not view keeps its commands and chords out of the palette and
  // `?` (they would only lead to /forbidden). Asked again for every sign-in and role switch.
  let visibilityAsked: string | null = null;
  const hideRefusedModules = () => {
    const { session, effectiveRole } = auth.getState();
    const key = session ? `${session.accessToken}\u0000${effectiveRole ?? ''}` : null;
    if (key === visibilityAsked) return;
    visibilityAsked = key;
    if (!key) {
      commands.setHiddenModules([]);
      keybindings.setHiddenModules([]);
      return;
    }
    const modules = [...new Set(plugins.plugins().flatMap((p) => (p.moduleKey ? [p.moduleKey] : [])))];
    void Promise.all(
      modules.map((m) =>
        access.canViewModule(m).then(
          (allowed) => (allowed ? [] : [m]),
          () => [],
        ),
      ),
    ).then((refused) => {
      if (visibilityAsked !== key) return;
      commands.setHiddenModules(refused.flat());
      keybindings.setHiddenModules(refused.flat());
    });
  };
  hideRefusedModules();
  disposers.push(auth.subscribe(hideRefusedModules));

  return {
    plugins,
    context,
    commands,
    keybindings,
    auth,
    access,
    ui,
    activity,
    toasts,
    recents,
    platform,
    services,
    api,
    pluginHost,
    refusedBindings,
    setNavigate(next) {
      navigate = next;
    },
    requestHeaders,
    dispose() {
      for (const dispose of disposers.splice(0).reverse()) dispose();
      keybindings.dispose();
    },
  };
}
