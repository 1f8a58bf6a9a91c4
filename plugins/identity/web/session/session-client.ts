import { createApiClient, type ApiClient } from '@atrium/sdk';
import type { z } from 'zod';
import type {
  authenticationResult,
  retrieveAllRolesResponse,
  roleSelectResponse,
  sessionUser,
} from '../../shared/identity-schemas.js';

/**
 * The browser's side of an identity session (spec: "States and transitions" → Session). It keeps
 * the tokens of one sign-in in local storage, renews them before they run out, notices when the
 * account changed under it, and hands the host the session the route guard and the API client use.
 *
 * - The access token is refreshed when it expires within 30 s, before a navigation or a request.
 * - Every 60 s a check runs: it reloads the user and refreshes when needed.
 * - When the time passes the earlier of token expiry and session timeout (setting login /
 *   session-timeout), the access token is dropped and the session refreshed; past the session
 *   timeout itself the refresh fails.
 * - The user's `updated_at` later than the token's issue time (a changed factor, role or profile)
 *   means the token describes an older account: refresh.
 * - A failed refresh signs out ('Unable to refresh session' logged).
 * - Sign-out revokes the refresh token, forgets the tokens and the chosen_role cookie; the host
 *   forgets the stored effective role.
 */
export type AuthenticationResult = z.infer<typeof authenticationResult>;
export type SessionUser = z.infer<typeof sessionUser>;

export const SESSION_STORAGE_KEY = 'atrium.identity.session';
export const REFRESH_BEFORE_EXPIRY_MS = 30_000;
export const SESSION_CHECK_INTERVAL_MS = 60_000;
export const CHOSEN_ROLE_COOKIE = 'chosen_role';
export const UNABLE_TO_REFRESH_SESSION = 'Unable to refresh session';

/** The session shape the host's auth store holds (packages/host/src/auth/session-provider.ts). */
export interface HostSession {
  accessToken: string;
  expiresAt: number;
  user: { id: string; username: string; name: string; email: string; roles: string[] };
}

/** What the host lends the identity session (its auth store, narrowed). */
export interface SessionHost {
  setSession(session: HostSession | null): void;
  effectiveRole(): string | null;
  setEffectiveRole(role: string | null): void;
  /** Signs out through the host: clears its state, then calls this client's signOut. */
  signOut(): Promise<void>;
}

export interface HostSessionProvider {
  refresh(current: HostSession | null): Promise<HostSession | null>;
  signOut(current: HostSession | null): Promise<void>;
}

export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt: number;
  /** Epoch ms when the access token was issued (its `iat`). */
  issuedAt: number;
  /** Epoch ms when the server ends the session (`session_expires_at`). */
  sessionExpiresAt: number;
  /** Epoch ms of the sign-in this session started with. */
  signedInAt: number;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface SessionClientOptions {
  storage?: KeyValueStorage | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  setInterval?: (callback: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  clearCookie?: (name: string) => void;
  logError?: (message: string, error: unknown) => void;
  /** Serializes refreshes across browser tabs (refresh tokens work once). Defaults to Web Locks. */
  withLock?: <T>(task: () => Promise<T>) => Promise<T>;
  /** After a background check signed the user out: show the login page. */
  onSignedOut?: () => void;
}

export class SessionRefreshError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SessionRefreshError';
  }
}

/** The `iat` of a JWT in epoch ms (0 when unreadable: then any updated_at counts as newer). */
export function tokenIssuedAt(token: string): number {
  const payload = token.split('.')[1];
  if (!payload) return 0;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))) as {
      iat?: unknown;
    };
    return typeof json.iat === 'number' ? json.iat * 1000 : 0;
  } catch {
    return 0;
  }
}

export function tokensFrom(result: AuthenticationResult, now: number, signedInAt = now): StoredTokens {
  return {
    accessToken: result.access_token,
    refreshToken: result.refresh_token,
    expiresAt: now + result.expires_in * 1000,
    issuedAt: tokenIssuedAt(result.access_token) || now,
    sessionExpiresAt: Date.parse(result.session_expires_at) || Number.POSITIVE_INFINITY,
    signedInAt,
  };
}

function browserStorage(): KeyValueStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export const REFRESH_LOCK_NAME = 'atrium.identity.refresh';
/** How long a tab without Web Locks waits for another tab's announced refresh before its own. */
export const BROADCAST_REFRESH_WAIT_MS = 5_000;

/**
 * One refresh at a time across the tabs of this origin: the Web Locks API where the browser has it;
 * else a BroadcastChannel on which a tab announces its refresh ('start', then 'done') and the
 * others wait for the 'done' (at most BROADCAST_REFRESH_WAIT_MS) before they look at the stored
 * tokens again. The fallback is best effort (two tabs may start within the same instant); the
 * server's grace window for a just-rotated refresh token (session-store.ts) absorbs that race.
 */
function webLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) return locks.request(REFRESH_LOCK_NAME, task) as Promise<T>;
  return broadcastLock(task);
}

let refreshChannel: BroadcastChannel | null | undefined;
/** Until when another tab said it is refreshing (epoch ms), and who waits for its 'done'. */
let otherTabRefreshingUntil = 0;
let waitingForOtherTab: (() => void)[] = [];

function channel(): BroadcastChannel | null {
  if (refreshChannel === undefined) {
    refreshChannel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(REFRESH_LOCK_NAME);
    refreshChannel?.addEventListener('message', (event: MessageEvent) => {
      if (event.data === 'start') otherTabRefreshingUntil = Date.now() + BROADCAST_REFRESH_WAIT_MS;
      if (event.data === 'done') {
        otherTabRefreshingUntil = 0;
        const waiting = waitingForOtherTab;
        waitingForOtherTab = [];
        for (const resume of waiting) resume();
      }
    });
  }
  return refreshChannel;
}

export async function broadcastLock<T>(task: () => Promise<T>): Promise<T> {
  const shared = channel();
  if (!shared) return task();
  const wait = otherTabRefreshingUntil - Date.now();
  if (wait > 0) {
    await new Promise<void>((resume) => {
      const timer = setTimeout(resume, wait);
      waitingForOtherTab.push(() => {
        clearTimeout(timer);
        resume();
      });
    });
  }
  shared.postMessage('start');
  try {
    return await task();
  } finally {
    shared.postMessage('done');
  }
}

function clearBrowserCookie(name: string) {
  if (typeof document !== 'undefined') document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export interface SessionClient {
  /** The provider the host's auth store calls before every navigation and on sign-out. */
  readonly provider: HostSessionProvider;
  /** Identity and classic calls with the user's token (renewed first when needed) and effective role. */
  readonly api: ApiClient;
  /** Calls made before anyone is signed in (sign-in, challenges, password resets). */
  readonly publicApi: ApiClient;
  attach(host: SessionHost): void;
  /** Starts the session a finished sign-in answered with; resolves with the signed-in user. */
  establish(result: AuthenticationResult): Promise<SessionUser>;
  /**
   * The current session, renewed when it expires within `margin` ms (default 30 s); null when nobody
   * is signed in. Throws when renewal failed.
   */
  ensureSession(margin?: number): Promise<HostSession | null>;
  /** The signed-in user as last loaded. */
  currentUser(): SessionUser | null;
  /** Loads the user again (after a profile or factor change) and refreshes the token when it is older. */
  reloadUser(): Promise<SessionUser | null>;
  /** The caller's roles (POST /api/v2/contacts/retrieve_all_roles). */
  roles(): Promise<string[]>;
  /** Chooses the effective role (POST /api/access/role-select) and stores it with the host. */
  selectRole(role: string): Promise<void>;
  /** Minutes of the carrier's session timeout as last read (0: none). */
  sessionTimeoutMinutes(): number;
  signOut(): Promise<void>;
  /** Ends the session through the host too (its state, the effective role), without leaving the page. */
  discard(): Promise<void>;
  /** Runs the 60-second check now (what the interval does). */
  check(): Promise<void>;
  dispose(): void;
}

export function createSessionClient(options: SessionClientOptions = {}): SessionClient {
  const storage = options.storage ?? browserStorage();
  const now = options.now ?? Date.now;
  const startInterval = options.setInterval ?? ((callback, ms) => globalThis.setInterval(callback, ms));
  const stopInterval =
    options.clearInterval ?? ((handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>));
  const clearCookie = options.clearCookie ?? clearBrowserCookie;
  const logError = options.logError ?? ((message, error) => console.error(message, error));
  const withLock = options.withLock ?? webLock;

  let host: SessionHost | null = null;
  let user: SessionUser | null = null;
  let userLoadedAt = 0;
  let timeoutMinutes: number | null = null;
  let timer: unknown = null;
  let refreshing: Promise<StoredTokens> | null = null;
  let published: HostSession | null = null;

  const readTokens = (): StoredTokens | null => {
    const raw = storage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<StoredTokens>;
      if (typeof parsed.refreshToken !== 'string' || typeof parsed.expiresAt !== 'number') return null;
      return {
        accessToken: typeof parsed.accessToken === 'string' ? parsed.accessToken : '',
        refreshToken: parsed.refreshToken,
        expiresAt: parsed.expiresAt,
        issuedAt: typeof parsed.issuedAt === 'number' ? parsed.issuedAt : 0,
        sessionExpiresAt: typeof parsed.sessionExpiresAt === 'number' ? parsed.sessionExpiresAt : Infinity,
        signedInAt: typeof parsed.signedInAt === 'number' ? parsed.signedInAt : 0,
      };
    } catch {
      return null;
    }
  };
  const writeTokens = (tokens: StoredTokens | null) => {
    if (tokens) storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(tokens));
    else storage?.removeItem(SESSION_STORAGE_KEY);
  };

  /** When the session ends on its own: the server's end, or sign-in time plus the carrier's timeout. */
  const sessionEndsAt = (tokens: StoredTokens) => {
    const byTimeout =
      timeoutMinutes && timeoutMinutes > 0 ? tokens.signedInAt + timeoutMinutes * 60_000 : Number.POSITIVE_INFINITY;
    return Math.min(tokens.sessionExpiresAt, byTimeout);
  };

  const publicApi = createApiClient({
    baseUrl: '/api',
    fetch: options.fetch,
    getToken: () => null,
    getEffectiveRole: () => null,
  });

  /**
   * Trades the refresh token for new tokens, once at a time in this tab and across tabs: a refresh
   * token works once, and presenting a used one revokes the whole session. Inside the lock the
   * stored tokens are read again, so a tab that finds them already renewed by another just adopts them.
   */
  const refreshTokens = (needed: (tokens: StoredTokens) => boolean): Promise<StoredTokens> => {
    refreshing ??= withLock(async () => {
      const stored = readTokens();
      if (!stored) throw new SessionRefreshError('There is no session to refresh.');
      if (!needed(stored)) return stored;
      if (now() >= sessionEndsAt(stored)) throw new SessionRefreshError('The session timed out.');
      try {
        const answer = await publicApi.post<{ authentication_result: AuthenticationResult }>(
          'identity/tokens/refresh',
          {
            refresh_token: stored.refreshToken,
          },
        );
        const next = tokensFrom(answer.authentication_result, now(), stored.signedInAt);
        writeTokens(next);
        return next;
      } catch (error) {
        throw new SessionRefreshError(UNABLE_TO_REFRESH_SESSION, { cause: error });
      }
    }).finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  const expiresWithin = (margin: number) => (tokens: StoredTokens) =>
    !tokens.accessToken || tokens.expiresAt - now() <= margin;

  /**
   * An access token worth sending: renewed first when it expires within `margin` (30 s before a
   * request) or the deadline passed.
   */
  const validTokens = async (margin = REFRESH_BEFORE_EXPIRY_MS): Promise<StoredTokens | null> => {
    const expiresSoon = expiresWithin(margin);
    let tokens = readTokens();
    if (!tokens) return null;
    if (now() >= Math.min(tokens.expiresAt, sessionEndsAt(tokens))) {
      // Past the earlier of token expiry and session timeout: the credentials are no longer trusted.
      writeTokens({ ...tokens, accessToken: '' });
      tokens = await refreshTokens(expiresSoon);
    } else if (expiresSoon(tokens)) {
      tokens = await refreshTokens(expiresSoon);
    }
    return tokens;
  };

  const authenticated = {
    baseUrl: '/api',
    fetch: options.fetch,
    getToken: async () => (await validTokens())?.accessToken ?? null,
    getEffectiveRole: () => host?.effectiveRole() ?? null,
  };
  /** For the session's own calls: a failure there is the refresh failing, which the caller handles. */
  const sessionApi = createApiClient(authenticated);
  const api = createApiClient({
    ...authenticated,
    getToken: async () => {
      try {
        return (await validTokens())?.accessToken ?? null;
      } catch (error) {
        // Past the session timeout, or the refresh was refused: sign out before the request.
        logError(UNABLE_TO_REFRESH_SESSION, error);
        void signOutThroughHost();
        throw error;
      }
    },
    onUnauthorized: () => {
      // The server no longer accepts the token (revoked, expired session): end it here too.
      if (readTokens()) void signOutThroughHost();
    },
  });

  const loadUser = async (): Promise<SessionUser> => {
    const loaded = await sessionApi.get<SessionUser>('identity/session');
    user = loaded;
    userLoadedAt = now();
    return loaded;
  };

  const loadSessionTimeout = async () => {
    try {
      const answer = await sessionApi.post<{ data?: unknown }>('v2/settings/get_setting_value', {
        section: 'login',
        option: 'session-timeout',
      });
      const minutes = Number(answer?.data);
      timeoutMinutes = Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
    } catch {
      // 'Unauthorized request' (and any other failure) means no timeout from the setting (0); the
      // server's own end of the session still applies.
      timeoutMinutes = 0;
    }
  };

  /** Takes the effective role from the server (chosen_role cookie, or the only role) when the host has none. */
  const captureEffectiveRole = (loaded: SessionUser) => {
    if (!host) return;
    const current = host.effectiveRole();
    if (current && !loaded.groups.includes(current)) {
      // The stored role was taken away: forget it so the user is asked again.
      host.setEffectiveRole(null);
      clearCookie(CHOSEN_ROLE_COOKIE);
      return;
    }
    if (!current && loaded.effective_role && loaded.groups.includes(loaded.effective_role)) {
      host.setEffectiveRole(loaded.effective_role);
    }
  };

  const hostSessionOf = (tokens: StoredTokens, loaded: SessionUser): HostSession => {
    if (published && published.accessToken === tokens.accessToken && published.expiresAt === tokens.expiresAt) {
      const same = published.user;
      if (
        same.id === loaded.id &&
        same.name === loaded.name &&
        same.email === loaded.email &&
        same.roles.join('\n') === loaded.groups.join('\n')
      ) {
        return published;
      }
    }
    published = {
      accessToken: tokens.accessToken,
      expiresAt: tokens.expiresAt,
      user: {
        id: loaded.id,
        username: loaded.username,
        name: loaded.name,
        email: loaded.email,
        roles: [...loaded.groups],
      },
    };
    return published;
  };

  const startTimer = () => {
    if (timer !== null) return;
    timer = startInterval(() => void client.check(), SESSION_CHECK_INTERVAL_MS);
  };
  const stopTimer = () => {
    if (timer === null) return;
    stopInterval(timer);
    timer = null;
  };

  const forget = () => {
    writeTokens(null);
    stopTimer();
    user = null;
    userLoadedAt = 0;
    published = null;
    timeoutMinutes = null;
    clearCookie(CHOSEN_ROLE_COOKIE);
  };

  let signingOut: Promise<void> | null = null;
  /** Signs out once, however many requests find the session over at the same time. */
  const signOutThroughHost = () => {
    signingOut ??= (async () => {
      if (host) await host.signOut();
      else await client.signOut();
      options.onSignedOut?.();
    })().finally(() => {
      signingOut = null;
    });
    return signingOut;
  };

  const ensureSession = async (margin = REFRESH_BEFORE_EXPIRY_MS): Promise<HostSession | null> => {
    if (!readTokens()) {
      if (user || timer !== null) forget();
      return null;
    }
    // On the first call the user loads while the timeout setting does: both are on the way to every
    // page's first paint and neither needs the other. The stored token is checked against the timeout
    // once the setting is in (below); if the early load failed, the user loads again after that.
    const early = timeoutMinutes === null && !user ? loadUser().catch(() => null) : null;
    if (timeoutMinutes === null) await loadSessionTimeout();
    let tokens = await validTokens(margin);
    if (!tokens) {
      // Signed out meanwhile: the early load's user is not kept.
      if (await early) user = null;
      return null;
    }
    let loaded = (await early) ?? user;
    if (!loaded || now() - userLoadedAt >= SESSION_CHECK_INTERVAL_MS) loaded = await loadUser();
    if (Date.parse(loaded.updated_at) > tokens.issuedAt) {
      // The account changed after this token was issued (factor, role, profile): get a current one.
      const issuedBefore = tokens.issuedAt;
      tokens = await refreshTokens((stored) => stored.issuedAt <= issuedBefore);
    }
    captureEffectiveRole(loaded);
    startTimer();
    return hostSessionOf(tokens, loaded);
  };

  const client: SessionClient = {
    provider: {
      refresh: () => ensureSession(),
      signOut: () => client.signOut(),
    },
    api,
    publicApi,
    attach(next) {
      host = next;
    },
    async establish(result) {
      writeTokens(tokensFrom(result, now()));
      user = null;
      published = null;
      timeoutMinutes = null;
      await ensureSession();
      host?.setSession(published);
      return user!;
    },
    ensureSession,
    currentUser: () => user,
    async reloadUser() {
      if (!readTokens()) return null;
      userLoadedAt = 0;
      const session = await ensureSession();
      host?.setSession(session);
      return user;
    },
    async roles() {
      const answer = await api.post<z.infer<typeof retrieveAllRolesResponse>>('v2/contacts/retrieve_all_roles', {
        login_only: true,
      });
      return answer.data.map((role) => role.name);
    },
    async selectRole(role) {
      const answer = await api.post<z.infer<typeof roleSelectResponse>>('access/role-select', { effective_role: role });
      host?.setEffectiveRole(answer.effective_role);
    },
    sessionTimeoutMinutes: () => timeoutMinutes ?? 0,
    async signOut() {
      const tokens = readTokens();
      forget();
      if (tokens?.refreshToken) {
        // Revoking is best effort: the local session is gone either way.
        await publicApi
          .post('identity/sign-out', { refresh_token: tokens.refreshToken })
          .catch((error: unknown) => logError('Sign-out could not reach the identity service', error));
      }
    },
    async discard() {
      if (host) await host.signOut();
      else await client.signOut();
    },
    async check() {
      if (!readTokens()) {
        stopTimer();
        return;
      }
      userLoadedAt = 0;
      try {
        // The host sends the token it holds without asking first: renew it early enough that it
        // cannot run out before the next check.
        const session = await ensureSession(REFRESH_BEFORE_EXPIRY_MS + SESSION_CHECK_INTERVAL_MS);
        host?.setSession(session);
      } catch (error) {
        logError(UNABLE_TO_REFRESH_SESSION, error);
        await signOutThroughHost();
      }
    },
    dispose() {
      stopTimer();
    },
  };
  return client;
}
