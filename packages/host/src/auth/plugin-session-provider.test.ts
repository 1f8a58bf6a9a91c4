import { describe, expect, it, vi } from 'vitest';
import { createAuthStore } from './auth-store.js';
import {
  installPluginSessionProvider,
  pluginSessionProviderFactories,
  type SessionProviderHost,
} from './plugin-session-provider.js';
import type { AuthSession } from './session-provider.js';

const session: AuthSession = {
  accessToken: 'token-1',
  expiresAt: 10_000_000,
  user: { id: 'u1', username: 'jane', name: 'Jane Doe', email: 'jane@example.com', roles: ['Underwriter'] },
};

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe('plugin session provider', () => {
  it('finds the identity module’s provider factory by file name', () => {
    expect(pluginSessionProviderFactories().length).toBeGreaterThan(0);
  });

  it('installs the factory’s provider and lends it a narrow view of the store', async () => {
    const store = createAuthStore({ storage: memoryStorage() });
    let lent: SessionProviderHost | undefined;
    const signOut = vi.fn(async () => {});
    installPluginSessionProvider(store, [
      (host) => {
        lent = host;
        return { refresh: async () => session, signOut };
      },
    ]);
    expect(await store.getState().refreshSession()).toBe(session);

    lent!.setEffectiveRole('Underwriter');
    expect(store.getState().effectiveRole).toBe('Underwriter');
    expect(lent!.effectiveRole()).toBe('Underwriter');
    const renewed = { ...session, accessToken: 'token-2' };
    lent!.setSession(renewed);
    expect(store.getState().session).toBe(renewed);

    await lent!.signOut();
    expect(store.getState().session).toBeNull();
    expect(store.getState().effectiveRole).toBeNull();
    expect(signOut).toHaveBeenCalledWith(renewed);
  });

  it('keeps the no-session provider when no plugin supplies one', async () => {
    const store = createAuthStore({ storage: memoryStorage() });
    installPluginSessionProvider(store, []);
    expect(await store.getState().refreshSession()).toBeNull();
  });
});
