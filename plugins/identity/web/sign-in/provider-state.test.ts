import { describe, expect, it } from 'vitest';
import {
  forgetProviderSignIn,
  pendingProviderSignIn,
  PROVIDER_STATE_KEY,
  rememberProviderSignIn,
} from './provider-state.js';
import { postLoginTarget } from './safe-redirect.js';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

describe('external provider sign-in state', () => {
  it('matches the state this browser started with, and nothing else', () => {
    const storage = memoryStorage();
    rememberProviderSignIn(storage, { state: 's-1', providerId: 'p', redirect: '/claims', startedAt: 1 });
    expect(pendingProviderSignIn(storage, 'forged')).toBeNull();
    expect(pendingProviderSignIn(storage, null)).toBeNull();
    expect(pendingProviderSignIn(storage, 's-1')).toMatchObject({ providerId: 'p', redirect: '/claims' });
    // Reading does not consume it (a page may render twice); forgetting does.
    expect(pendingProviderSignIn(storage, 's-1')).not.toBeNull();
    forgetProviderSignIn(storage);
    expect(storage.values.has(PROVIDER_STATE_KEY)).toBe(false);
    expect(pendingProviderSignIn(storage, 's-1')).toBeNull();
  });

  it('ignores unreadable stored state', () => {
    const storage = memoryStorage();
    storage.setItem(PROVIDER_STATE_KEY, '{not json');
    expect(pendingProviderSignIn(storage, 's-1')).toBeNull();
  });
});

describe('post-login target', () => {
  const origin = 'https://atrium.example';
  it.each([
    [null, '/?pageReload=true'],
    ['', '/?pageReload=true'],
    ['/claims?tab=open#top', '/claims?tab=open#top'],
    ['https://atrium.example/policies', '/policies'],
    ['https://evil.example/policies', '/?pageReload=true'],
    ['//evil.example/x', '/?pageReload=true'],
    ['/\\evil.example', '/?pageReload=true'],
    ['javascript:alert(1)', '/?pageReload=true'],
    ['/login', '/?pageReload=true'],
    ['/login/mfa?x=1', '/?pageReload=true'],
    ['/login/ko_roleSelect?redirect=/claims', '/login/ko_roleSelect?redirect=/claims'],
  ])('%s → %s', (value, expected) => {
    expect(postLoginTarget(value, origin)).toBe(expected);
  });
});
