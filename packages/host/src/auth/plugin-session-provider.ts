import type { StoreApi } from 'zustand/vanilla';
import type { AuthState } from './auth-store.js';
import type { AuthSession, SessionProvider } from './session-provider.js';

/**
 * The identity module supplies the real session provider: a plugin's `web/session-provider.ts`
 * default-exports a factory that receives a narrow view of the auth store (it may publish a renewed
 * session between navigations, capture the effective role, and sign out when a background refresh
 * fails) and returns the provider. Found by file name, like the plugin manifests.
 */
export interface SessionProviderHost {
  setSession(session: AuthSession | null): void;
  effectiveRole(): string | null;
  setEffectiveRole(role: string | null): void;
  signOut(): Promise<void>;
}

export type SessionProviderFactory = (host: SessionProviderHost) => SessionProvider;

const modules = import.meta.glob<{ default?: unknown }>('../../../../plugins/*/web/session-provider.ts', {
  eager: true,
});

export function pluginSessionProviderFactories(): SessionProviderFactory[] {
  return Object.entries(modules)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, module]) => {
      if (typeof module.default !== 'function')
        throw new Error(`${file} must default-export a session provider factory.`);
      return module.default as SessionProviderFactory;
    });
}

/** Installs the first plugin's provider on `store`; without one the store keeps the no-session provider. */
export function installPluginSessionProvider(store: StoreApi<AuthState>, factories = pluginSessionProviderFactories()) {
  const factory = factories[0];
  if (!factory) return;
  const host: SessionProviderHost = {
    setSession: (session) => {
      if (store.getState().session !== session) store.getState().setSession(session);
    },
    effectiveRole: () => store.getState().effectiveRole,
    setEffectiveRole: (role) => store.getState().setEffectiveRole(role),
    signOut: () => store.getState().signOut(),
  };
  store.getState().installSessionProvider(factory(host));
}
