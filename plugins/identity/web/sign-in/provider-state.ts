/**
 * Sign-in with an external OpenID Connect provider keeps its state in local storage under a per-client
 * key (spec: "Auth settings and identity"): the `state` the identity service issued (it carries the
 * nonce binding on the server), the provider and where to go afterwards. The callback page compares
 * the returned state with it, so a callback this browser did not start is refused.
 */
export const PROVIDER_STATE_KEY = 'atrium.identity.oidc.pending';

export interface PendingProviderSignIn {
  state: string;
  providerId: string;
  redirect: string | null;
  startedAt: number;
}

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function rememberProviderSignIn(storage: Storage, pending: PendingProviderSignIn) {
  storage.setItem(PROVIDER_STATE_KEY, JSON.stringify(pending));
}

/**
 * The pending sign-in when `state` matches it, else null. Read without removing it: React may render
 * a page more than once before it commits; `forgetProviderSignIn` clears it once the callback ran.
 */
export function pendingProviderSignIn(storage: Storage, state: string | null): PendingProviderSignIn | null {
  const raw = storage.getItem(PROVIDER_STATE_KEY);
  if (!raw || !state) return null;
  try {
    const pending = JSON.parse(raw) as PendingProviderSignIn;
    return pending.state === state ? pending : null;
  } catch {
    return null;
  }
}

export function forgetProviderSignIn(storage: Storage) {
  storage.removeItem(PROVIDER_STATE_KEY);
}
