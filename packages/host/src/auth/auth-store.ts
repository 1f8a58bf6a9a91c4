import { createStore, type StoreApi } from 'zustand/vanilla';
import { installPluginSessionProvider } from './plugin-session-provider.js';
import { noSessionProvider, type AuthSession, type SessionProvider } from './session-provider.js';

/**
 * Client state about who is signed in: the session (user and access token), the effective role
 * the user acts in (sent as the effective-role header), the carrier's session timeout and the last
 * time the user did something. Plugins read it through the SDK; only the host and the identity
 * module's provider write it.
 */
export const EFFECTIVE_ROLE_STORAGE_KEY = 'atrium.effectiveRole';

export interface AuthState {
  session: AuthSession | null;
  effectiveRole: string | null;
  /** Minutes of inactivity after which the user is signed out; 0 disables the timeout. */
  sessionTimeoutMinutes: number;
  /** Epoch ms of the last navigation or input; what the timeout is measured from. */
  lastActivityAt: number;
  provider: SessionProvider;

  installSessionProvider(provider: SessionProvider): void;
  setSession(session: AuthSession | null): void;
  setEffectiveRole(role: string | null): void;
  setSessionTimeoutMinutes(minutes: number): void;
  /** Records activity so the idle timeout starts again. */
  touch(now?: number): void;
  isSessionTimedOut(now?: number): boolean;
  /** Asks the provider for the current session; rejects when the refresh failed. */
  refreshSession(): Promise<AuthSession | null>;
  signOut(): Promise<void>;
}

export interface AuthStoreOptions {
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  now?: () => number;
}

function browserStorage(): AuthStoreOptions['storage'] {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage can throw when the browser blocks it (private modes, sandboxed frames).
    return undefined;
  }
}

export function createAuthStore(options: AuthStoreOptions = {}): StoreApi<AuthState> {
  const storage = options.storage ?? browserStorage();
  const now = options.now ?? Date.now;
  return createStore<AuthState>()((set, get) => ({
    session: null,
    effectiveRole: storage?.getItem(EFFECTIVE_ROLE_STORAGE_KEY) ?? null,
    sessionTimeoutMinutes: 0,
    lastActivityAt: now(),
    provider: noSessionProvider,

    installSessionProvider(provider) {
      set({ provider });
    },
    setSession(session) {
      set({ session, lastActivityAt: now() });
    },
    setEffectiveRole(role) {
      if (role) storage?.setItem(EFFECTIVE_ROLE_STORAGE_KEY, role);
      else storage?.removeItem(EFFECTIVE_ROLE_STORAGE_KEY);
      set({ effectiveRole: role });
    },
    setSessionTimeoutMinutes(minutes) {
      set({ sessionTimeoutMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : 0 });
    },
    touch(at = now()) {
      set({ lastActivityAt: at });
    },
    isSessionTimedOut(at = now()) {
      const { session, sessionTimeoutMinutes, lastActivityAt } = get();
      return session !== null && sessionTimeoutMinutes > 0 && at - lastActivityAt > sessionTimeoutMinutes * 60_000;
    },
    async refreshSession() {
      const current = get().session;
      const session = await get().provider.refresh(current);
      if (session !== current) set({ session });
      return session;
    },
    async signOut() {
      const { provider, session } = get();
      set({ session: null });
      storage?.removeItem(EFFECTIVE_ROLE_STORAGE_KEY);
      set({ effectiveRole: null });
      // Local state is cleared first: a provider that cannot reach the identity service must not
      // leave the user looking signed in.
      await provider.signOut(session).catch((error: unknown) => console.error('Sign-out failed', error));
    },
  }));
}

/** The one store of the running app, with the identity module's session provider when installed. */
export const authStore = createAuthStore();
installPluginSessionProvider(authStore);
