import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHOSEN_ROLE_COOKIE,
  createSessionClient,
  SESSION_CHECK_INTERVAL_MS,
  SESSION_STORAGE_KEY,
  tokenIssuedAt,
  UNABLE_TO_REFRESH_SESSION,
  type AuthenticationResult,
  type HostSession,
  type SessionHost,
  type SessionUser,
} from './session-client.js';

/**
 * The session client against a scripted identity service: every call it makes goes through
 * `fetch`, which answers like the identity routes do (docs/identity.md) and records the call.
 */
const T0 = Date.parse('2026-03-01T09:00:00Z');

function jwt(iatMs: number, id = 'x') {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'EdDSA', typ: 'at+jwt' })}.${encode({ iat: Math.floor(iatMs / 1000), jti: id })}.signature`;
}

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
    values,
  };
}

interface Call {
  method: string;
  path: string;
  body: any;
  headers: Headers;
}

function fakeIdentity(clock: { now: number }) {
  const calls: Call[] = [];
  let generation = 0;
  const state = {
    refreshWorks: true,
    sessionMinutes: 480 as unknown,
    updatedAt: new Date(T0 - 60_000).toISOString(),
    groups: ['Underwriter'],
    effectiveRole: 'Underwriter' as string | null,
    issued: [] as string[],
  };
  const authenticationResult = (): AuthenticationResult => {
    generation += 1;
    const access = jwt(clock.now, `a${generation}`);
    state.issued.push(access);
    return {
      access_token: access,
      refresh_token: `refresh-${generation}`,
      token_type: 'Bearer',
      expires_in: 3600,
      session_expires_at: new Date(T0 + 8 * 3600_000).toISOString(),
    };
  };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
    });
  const user = (): SessionUser => ({
    id: 'u1',
    username: 'uma@atrium.test',
    email: 'uma@atrium.test',
    email_verified: true,
    name: 'Uma Underwriter',
    phone_number: null,
    phone_number_verified: false,
    picture: null,
    groups: state.groups,
    is_employee: true,
    is_admin: false,
    effective_role: state.effectiveRole,
    updated_at: state.updatedAt,
    mfa: { preferred: null, sms_mfa_enabled: false, software_token_mfa_enabled: false, software_token_verified: false },
  });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://atrium.test');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    switch (`${call.method} ${call.path}`) {
      case 'POST /api/identity/tokens/refresh':
        if (!state.refreshWorks)
          return json(400, { status: 400, code: 'NotAuthorizedException', detail: 'Refresh Token has been revoked' });
        return json(200, { authentication_result: authenticationResult() });
      case 'GET /api/identity/session':
        return json(200, user());
      case 'POST /api/v2/settings/get_setting_value':
        return json(200, { success: true, data: state.sessionMinutes });
      case 'POST /api/identity/sign-out':
        return json(200, { status: 'SUCCESS' });
      case 'POST /api/v2/contacts/retrieve_all_roles':
        return json(200, { success: true, data: state.groups.map((name) => ({ name })) });
      case 'POST /api/access/role-select':
        return json(200, { effective_role: call.body.effective_role });
      default:
        return json(404, { status: 404, detail: 'The requested resource not found.' });
    }
  });
  return { fetch, calls, state, authenticationResult };
}

function setup() {
  const clock = { now: T0 };
  const identity = fakeIdentity(clock);
  const storage = memoryStorage();
  const intervals: { callback: () => void; ms: number }[] = [];
  const cleared: string[] = [];
  const errors: [string, unknown][] = [];
  const onSignedOut = vi.fn();
  const client = createSessionClient({
    storage,
    fetch: identity.fetch as unknown as typeof fetch,
    now: () => clock.now,
    setInterval: (callback, ms) => intervals.push({ callback, ms }),
    clearInterval: () => intervals.splice(0),
    clearCookie: (name) => cleared.push(name),
    logError: (message, error) => errors.push([message, error]),
    withLock: (task) => task(),
    onSignedOut,
  });
  let role: string | null = null;
  let published: HostSession | null = null;
  const host: SessionHost = {
    setSession: (session) => void (published = session),
    effectiveRole: () => role,
    setEffectiveRole: (next) => void (role = next),
    signOut: async () => {
      published = null;
      role = null;
      await client.provider.signOut(null);
    },
  };
  client.attach(host);
  return {
    clock,
    identity,
    storage,
    intervals,
    cleared,
    errors,
    onSignedOut,
    client,
    role: () => role,
    setRole: (next: string | null) => void (role = next),
    published: () => published,
    advance: (ms: number) => void (clock.now += ms),
    refreshCalls: () => identity.calls.filter((c) => c.path === '/api/identity/tokens/refresh'),
  };
}

describe('identity session client', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the issue time of a JWT', () => {
    expect(tokenIssuedAt(jwt(T0))).toBe(T0);
    expect(tokenIssuedAt('not-a-jwt')).toBe(0);
  });

  it('has no session before anyone signs in, and calls nobody', async () => {
    const t = setup();
    expect(await t.client.provider.refresh(null)).toBeNull();
    expect(t.identity.fetch).not.toHaveBeenCalled();
  });

  it('establishes a session: stores the tokens, loads the user, captures the only role, starts the 60 s check', async () => {
    const t = setup();
    const user = await t.client.establish(t.identity.authenticationResult());
    expect(user.name).toBe('Uma Underwriter');
    expect(JSON.parse(t.storage.values.get(SESSION_STORAGE_KEY)!)).toMatchObject({ refreshToken: 'refresh-1' });
    expect(t.role()).toBe('Underwriter');
    expect(t.published()).toMatchObject({
      accessToken: t.identity.state.issued[0],
      expiresAt: T0 + 3600_000,
      user: { id: 'u1', name: 'Uma Underwriter', email: 'uma@atrium.test', roles: ['Underwriter'] },
    });
    expect(t.intervals).toEqual([{ callback: expect.any(Function), ms: SESSION_CHECK_INTERVAL_MS }]);
    expect(t.client.sessionTimeoutMinutes()).toBe(480);
    const session = t.identity.calls.find((c) => c.path === '/api/identity/session')!;
    expect(session.headers.get('authorization')).toBe(`Bearer ${t.identity.state.issued[0]}`);
  });

  it('asks for the user while the session timeout setting is still on its way: one round trip less before the first page', async () => {
    const t = setup();
    const events: string[] = [];
    const answer = t.identity.fetch.getMockImplementation()!;
    // The setting answers only once the session call has been sent (or after 1 s, if it never is).
    let sessionSent!: () => void;
    const sent = new Promise<void>((resolve) => (sessionSent = resolve));
    t.identity.fetch.mockImplementation(async (input, init) => {
      const path = new URL(String(input), 'http://atrium.test').pathname;
      if (path === '/api/identity/session') {
        events.push('session sent');
        sessionSent();
      }
      if (path === '/api/v2/settings/get_setting_value') {
        await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 1000))]);
        events.push('setting answered');
      }
      return answer(input, init);
    });
    const user = await t.client.establish(t.identity.authenticationResult());
    expect(user.name).toBe('Uma Underwriter');
    expect(events).toEqual(['session sent', 'setting answered']);
    expect(t.client.sessionTimeoutMinutes()).toBe(480);
  });

  it('gives the host the same session object while nothing changed', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    const first = await t.client.provider.refresh(null);
    expect(await t.client.provider.refresh(first)).toBe(first);
    expect(t.refreshCalls()).toHaveLength(0);
  });

  it('refreshes 30 s before the access token expires, not earlier', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.advance(3600_000 - 31_000);
    await t.client.provider.refresh(null);
    expect(t.refreshCalls()).toHaveLength(0);
    t.advance(2_000);
    const renewed = await t.client.provider.refresh(null);
    expect(t.refreshCalls()).toHaveLength(1);
    expect(t.refreshCalls()[0]!.body).toEqual({ refresh_token: 'refresh-1' });
    expect(renewed!.accessToken).toBe(t.identity.state.issued[1]);
    expect(JSON.parse(t.storage.values.get(SESSION_STORAGE_KEY)!).refreshToken).toBe('refresh-2');
  });

  it('refreshes before a request whose token expires within 30 s', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.advance(3600_000 - 10_000);
    await t.client.roles();
    const rolesCall = t.identity.calls.find((c) => c.path === '/api/v2/contacts/retrieve_all_roles')!;
    expect(t.refreshCalls()).toHaveLength(1);
    expect(rolesCall.headers.get('authorization')).toBe(`Bearer ${t.identity.state.issued[1]}`);
    expect(rolesCall.body).toEqual({ login_only: true });
  });

  it('refreshes only once when several requests need it at the same time', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.advance(3600_000);
    await Promise.all([t.client.roles(), t.client.roles(), t.client.provider.refresh(null)]);
    expect(t.refreshCalls()).toHaveLength(1);
  });

  it('drops the credentials and refreshes when the time passes the earlier of expiry and session timeout', async () => {
    const t = setup();
    t.identity.state.sessionMinutes = 30;
    await t.client.establish(t.identity.authenticationResult());
    expect(t.client.sessionTimeoutMinutes()).toBe(30);
    t.advance(29 * 60_000);
    await t.client.provider.refresh(null);
    expect(t.refreshCalls()).toHaveLength(0);
    // Past the session timeout (30 min, earlier than the token's hour) the session cannot be renewed.
    t.advance(2 * 60_000);
    await expect(t.client.provider.refresh(null)).rejects.toThrow('The session timed out.');
    expect(JSON.parse(t.storage.values.get(SESSION_STORAGE_KEY)!).accessToken).toBe('');
  });

  it("takes 'no timeout' from a failed setting call", async () => {
    const t = setup();
    t.identity.state.sessionMinutes = 'not a number';
    await t.client.establish(t.identity.authenticationResult());
    expect(t.client.sessionTimeoutMinutes()).toBe(0);
  });

  it("refreshes when the user's updated_at is later than the token's issue time", async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.advance(5_000);
    t.identity.state.updatedAt = new Date(t.clock.now).toISOString();
    t.advance(1_000);
    const before = t.published()!.accessToken;
    await t.client.reloadUser();
    expect(t.refreshCalls()).toHaveLength(1);
    expect(t.published()!.accessToken).not.toBe(before);
    // The new token is younger than the change: no second refresh.
    await t.client.reloadUser();
    expect(t.refreshCalls()).toHaveLength(1);
  });

  it('the 60 s check reloads the user and publishes changes to the host', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.identity.state.groups = ['Underwriter', 'Claims Adjuster'];
    t.advance(SESSION_CHECK_INTERVAL_MS);
    t.intervals[0]!.callback();
    await vi.waitFor(() => expect(t.published()!.user.roles).toEqual(['Underwriter', 'Claims Adjuster']));
  });

  it("signs out when a refresh fails, logging 'Unable to refresh session'", async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.identity.state.refreshWorks = false;
    t.advance(3600_000);
    await t.client.check();
    expect(t.errors.map(([message]) => message)).toContain(UNABLE_TO_REFRESH_SESSION);
    expect(t.published()).toBeNull();
    expect(t.storage.values.has(SESSION_STORAGE_KEY)).toBe(false);
    expect(t.onSignedOut).toHaveBeenCalledOnce();
    expect(t.intervals).toHaveLength(0);
    // Before a navigation the failure reaches the route guard instead, which signs out.
    await expect(t.client.provider.refresh(null)).resolves.toBeNull();
  });

  it('the route guard sees a failed refresh as a rejection', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.identity.state.refreshWorks = false;
    t.advance(3600_000);
    await expect(t.client.provider.refresh(null)).rejects.toThrow(UNABLE_TO_REFRESH_SESSION);
  });

  it('signs out: revokes the refresh token, forgets the tokens and the chosen_role cookie', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    await t.client.signOut();
    expect(t.identity.calls.at(-1)).toMatchObject({
      path: '/api/identity/sign-out',
      body: { refresh_token: 'refresh-1' },
    });
    expect(t.storage.values.has(SESSION_STORAGE_KEY)).toBe(false);
    expect(t.cleared).toContain(CHOSEN_ROLE_COOKIE);
    expect(await t.client.provider.refresh(null)).toBeNull();
  });

  it('sends the effective role as the X-Effective-Role header and chooses a role', async () => {
    const t = setup();
    t.identity.state.groups = ['Claims Adjuster', 'Underwriter'];
    t.identity.state.effectiveRole = null;
    await t.client.establish(t.identity.authenticationResult());
    expect(t.role()).toBeNull();
    expect(await t.client.roles()).toEqual(['Claims Adjuster', 'Underwriter']);
    await t.client.selectRole('Claims Adjuster');
    expect(t.role()).toBe('Claims Adjuster');
    expect(t.identity.calls.at(-1)!.body).toEqual({ effective_role: 'Claims Adjuster' });
    await t.client.roles();
    expect(t.identity.calls.at(-1)!.headers.get('x-effective-role')).toBe('Claims Adjuster');
  });

  it('forgets a stored role the user no longer holds', async () => {
    const t = setup();
    t.setRole('Administrator');
    t.identity.state.effectiveRole = null;
    await t.client.establish(t.identity.authenticationResult());
    expect(t.role()).toBeNull();
    expect(t.cleared).toContain(CHOSEN_ROLE_COOKIE);
  });

  it('adopts tokens another tab already renewed instead of spending the used refresh token', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    t.advance(3600_000 - 5_000);
    // Another tab refreshed in the meantime and stored its tokens.
    const other = t.identity.authenticationResult();
    t.storage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({
        ...JSON.parse(t.storage.values.get(SESSION_STORAGE_KEY)!),
        accessToken: other.access_token,
        refreshToken: other.refresh_token,
        expiresAt: t.clock.now + 3600_000,
        issuedAt: t.clock.now,
      }),
    );
    const session = await t.client.provider.refresh(null);
    expect(t.refreshCalls()).toHaveLength(0);
    expect(session!.accessToken).toBe(other.access_token);
  });
});

describe('identity session client before a request', () => {
  it('signs out (once) when a request finds the session past its timeout', async () => {
    const t = setup();
    t.identity.state.sessionMinutes = 30;
    await t.client.establish(t.identity.authenticationResult());
    t.advance(31 * 60_000);
    const results = await Promise.allSettled([t.client.roles(), t.client.roles()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await vi.waitFor(() => expect(t.onSignedOut).toHaveBeenCalledOnce());
    expect(t.storage.values.has(SESSION_STORAGE_KEY)).toBe(false);
    expect(t.identity.calls.some((c) => c.path === '/api/v2/contacts/retrieve_all_roles')).toBe(false);
    expect(t.errors.map(([message]) => message)).toContain(UNABLE_TO_REFRESH_SESSION);
  });
});

describe('identity session client, periodic check', () => {
  it('renews the token early enough that the host’s copy cannot run out before the next check', async () => {
    const t = setup();
    await t.client.establish(t.identity.authenticationResult());
    // 85 s left: a request would not refresh yet (30 s), but the next check comes in 60 s.
    t.advance(3600_000 - 85_000);
    await t.client.provider.refresh(null);
    expect(t.refreshCalls()).toHaveLength(0);
    await t.client.check();
    expect(t.refreshCalls()).toHaveLength(1);
    expect(t.published()!.expiresAt).toBe(t.clock.now + 3600_000);
  });
});

describe('completing a sign-in', () => {
  it('signs out again when the session cannot be completed', async () => {
    const { completeSignIn } = await import('../sign-in/sign-in-actors.js');
    const t = setup();
    t.identity.fetch.mockImplementation(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://atrium.test').pathname;
      if (path === '/api/v2/contacts/retrieve_all_roles') return new Response('{}', { status: 500 });
      if (path === '/api/identity/session') {
        return new Response(
          JSON.stringify({
            id: 'u1',
            username: 'u',
            email: 'u',
            name: 'U',
            groups: ['Underwriter'],
            effective_role: 'Underwriter',
            updated_at: new Date(0).toISOString(),
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      }
      return new Response(JSON.stringify({ success: true, data: 0, status: 'SUCCESS' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    await expect(completeSignIn(t.client, t.identity.authenticationResult())).rejects.toThrow();
    expect(t.storage.values.has(SESSION_STORAGE_KEY)).toBe(false);
    expect(t.published()).toBeNull();
    expect(t.role()).toBeNull();
  });
});
