import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { startIdentityServer, type IdentityTestServer } from '../../test/identity-test-server.js';
import { signInMachine, type SignInResponse } from '../machines/sign-in-machine.js';
import { createSessionClient, type HostSession, type SessionClient } from '../session/session-client.js';
import { SIGN_IN_MESSAGES } from '../sign-in-messages.js';
import { signInActors } from './sign-in-actors.js';

/**
 * The web client's sign-in machine and session with their real calls, headless, against the real
 * identity service on a fresh database: what the pages do, without a browser.
 */
describe('sign-in machine and session against the identity service', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  function client() {
    const values = new Map<string, string>();
    let role: string | null = null;
    let published: HostSession | null = null;
    const session = createSessionClient({
      storage: {
        getItem: (key) => values.get(key) ?? null,
        setItem: (key, value) => void values.set(key, value),
        removeItem: (key) => void values.delete(key),
      },
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        fetch(new URL(String(input), server.url), init)) as typeof fetch,
      now: () => server.clock.now().getTime(),
      setInterval: () => 0,
      clearInterval: () => {},
      clearCookie: () => {},
      logError: () => {},
      withLock: (task) => task(),
    });
    session.attach({
      setSession: (next) => void (published = next),
      effectiveRole: () => role,
      setEffectiveRole: (next) => void (role = next),
      signOut: () => session.signOut(),
    });
    return { session, role: () => role, published: () => published };
  }

  function run(session: SessionClient) {
    const actor = createActor(signInMachine.provide({ actors: signInActors(session) }), { input: {} });
    actor.start();
    return actor;
  }

  it('signs in with a password: the session, the user and the only role', async () => {
    const { session, role, published } = client();
    const actor = run(session);
    actor.send({ type: 'SUBMIT', username: 'adjuster@atrium.test', password: 'Atrium!demo1' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.value).toBe('signedIn');
    expect(done.context.next).toBe('continue');
    expect(role()).toBe('Claims Adjuster');
    expect(published()?.user).toMatchObject({ name: 'Casey Adjuster', roles: ['Claims Adjuster'] });
  });

  it('signs in with an authenticator code, and asks a user with two roles to choose', async () => {
    const { session } = client();
    const actor = run(session);
    actor.send({ type: 'SUBMIT', username: 'mfa@atrium.test', password: 'Atrium!demo1' });
    await waitFor(actor, (s) => s.matches('mfaRequired'));
    actor.send({
      type: 'SUBMIT_CODE',
      code: new TOTP({ secret: 'JBSWY3DPEHPK3PXP' }).generate({ timestamp: server.clock.now().getTime() }),
    });
    expect((await waitFor(actor, (s) => s.status === 'done')).value).toBe('signedIn');

    const multi = client();
    const second = run(multi.session);
    second.send({ type: 'SUBMIT', username: 'multi@atrium.test', password: 'Atrium!demo1' });
    expect((await waitFor(second, (s) => s.status === 'done')).context.next).toBe('chooseRole');
    expect(multi.role()).toBeNull();
    await multi.session.selectRole('Underwriter');
    expect(multi.role()).toBe('Underwriter');
  });

  it('shows the identity service’s message for a wrong password', async () => {
    const actor = run(client().session);
    actor.send({ type: 'SUBMIT', username: 'adjuster@atrium.test', password: 'Wrong-password-1' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Incorrect username or password.');
  });

  it('migrate_gen2_contact finds nobody without a legacy source', async () => {
    const { session } = client();
    const migrate = signInActors(session).migrateLegacyContact;
    const actor = createActor(migrate, { input: { username: 'legacy@atrium.test', password: 'Old-Password-1' } });
    actor.start();
    expect((await waitFor(actor, (s) => s.status !== 'active')).output).toBe(false);
  });

  it('a user the migration cannot find reads the migration failure default', async () => {
    // This server never answers UserNotFoundException at sign-in; an identity service that does
    // leads the machine to migrate_gen2_contact (404 here) and then to this message.
    const { session } = client();
    const actors = signInActors(session);
    const actor = createActor(
      signInMachine.provide({
        actors: {
          ...actors,
          signIn: fromPromise<SignInResponse, { username: string; password: string }>(async () => {
            throw { code: 'UserNotFoundException', message: 'User does not exist.', status: 400, body: {} };
          }),
        },
      }),
      { input: {} },
    );
    actor.start();
    actor.send({ type: 'SUBMIT', username: 'legacy@atrium.test', password: 'Old-Password-1' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(SIGN_IN_MESSAGES.usernameNotFound);
  });

  it('refreshes the token when the account changed after it was issued, and signs out', async () => {
    const { session } = client();
    const actor = run(session);
    actor.send({ type: 'SUBMIT', username: 'author@atrium.test', password: 'Atrium!demo1' });
    await waitFor(actor, (s) => s.status === 'done');
    const before = (await session.ensureSession())!.accessToken;
    server.clock.advanceSeconds(5);
    // A changed profile moves updated_at past the token's issue time.
    await session.api.patch(
      'identity/user-management/users/me',
      { data: { type: 'user', id: session.currentUser()!.id, attributes: { name: 'Parker Q. Author' } } },
      { jsonApi: true },
    );
    const after = await session.reloadUser();
    expect(after?.name).toBe('Parker Q. Author');
    const renewed = (await session.ensureSession())!.accessToken;
    expect(renewed).not.toBe(before);

    await session.signOut();
    expect(await session.ensureSession()).toBeNull();
    const revoked = await server.get('/api/identity/session', { authorization: `Bearer ${renewed}` });
    expect(revoked.status).toBe(401);
  });
});
