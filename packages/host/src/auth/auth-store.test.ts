import { describe, expect, it, vi } from 'vitest';
import { createAuthStore, EFFECTIVE_ROLE_STORAGE_KEY } from './auth-store.js';
import type { AuthSession, SessionProvider } from './session-provider.js';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

const session: AuthSession = {
  accessToken: 'token-1',
  expiresAt: 10_000_000,
  user: { id: 'u1', username: 'jane', name: 'Jane Doe', email: 'jane@example.com', roles: ['Administrator'] },
};

describe('auth store', () => {
  it('has no session until a provider returns one', async () => {
    const store = createAuthStore({ storage: memoryStorage() });
    expect(await store.getState().refreshSession()).toBeNull();
    expect(store.getState().session).toBeNull();
  });

  it('takes the session the installed provider refreshes', async () => {
    const store = createAuthStore({ storage: memoryStorage() });
    const provider: SessionProvider = { refresh: vi.fn(async () => session), signOut: vi.fn(async () => {}) };
    store.getState().installSessionProvider(provider);
    await store.getState().refreshSession();
    expect(store.getState().session).toBe(session);
    expect(provider.refresh).toHaveBeenCalledWith(null);
  });

  it('rejects when the provider fails to refresh, leaving the decision to the guard', async () => {
    const store = createAuthStore({ storage: memoryStorage() });
    store
      .getState()
      .installSessionProvider({ refresh: async () => Promise.reject(new Error('expired')), signOut: async () => {} });
    await expect(store.getState().refreshSession()).rejects.toThrow('expired');
  });

  it('keeps the effective role in local storage', () => {
    const storage = memoryStorage({ [EFFECTIVE_ROLE_STORAGE_KEY]: 'Employee' });
    const store = createAuthStore({ storage });
    expect(store.getState().effectiveRole).toBe('Employee');
    store.getState().setEffectiveRole('Agent');
    expect(storage.values.get(EFFECTIVE_ROLE_STORAGE_KEY)).toBe('Agent');
  });

  it('times out after the configured minutes of inactivity, and not when the timeout is 0', () => {
    let now = 1_000_000;
    const store = createAuthStore({ storage: memoryStorage(), now: () => now });
    store.getState().setSession(session);
    store.getState().setSessionTimeoutMinutes(15);
    now += 15 * 60_000;
    expect(store.getState().isSessionTimedOut()).toBe(false);
    now += 1;
    expect(store.getState().isSessionTimedOut()).toBe(true);
    store.getState().touch();
    expect(store.getState().isSessionTimedOut()).toBe(false);
    store.getState().setSessionTimeoutMinutes(0);
    now += 60 * 60_000;
    expect(store.getState().isSessionTimedOut()).toBe(false);
  });

  it('signs out locally even when the provider cannot reach the identity service', async () => {
    const storage = memoryStorage();
    const store = createAuthStore({ storage });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    store.getState().installSessionProvider({
      refresh: async () => session,
      signOut: async () => Promise.reject(new Error('offline')),
    });
    store.getState().setSession(session);
    store.getState().setEffectiveRole('Employee');
    await store.getState().signOut();
    expect(store.getState().session).toBeNull();
    expect(store.getState().effectiveRole).toBeNull();
    expect(storage.values.has(EFFECTIVE_ROLE_STORAGE_KEY)).toBe(false);
    error.mockRestore();
  });
});
