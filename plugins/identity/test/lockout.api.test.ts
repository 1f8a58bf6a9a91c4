import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('account lockout on a fake clock', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const fail = async (username: string) => {
    const { status, body } = await server.signIn(username, 'Wrong-password-1');
    return { status, body };
  };

  it('locks after five failures for 2^(n−5) seconds and refuses even the right password meanwhile', async () => {
    const username = 'underwriter@atrium.test';
    for (let i = 1; i <= 5; i++) {
      const { status, body } = await fail(username);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'NotAuthorizedException', detail: 'Incorrect username or password.' });
    }
    const locked = await server.post('/api/identity/sign-in', { username, password: 'Atrium!demo1' });
    expect(locked.status).toBe(400);
    expect(locked.headers.get('retry-after')).toBe('1');
    expect(await locked.json()).toMatchObject({ code: 'NotAuthorizedException', detail: 'Password attempts exceeded' });

    server.clock.advanceSeconds(1);
    expect((await fail(username)).body.detail).toBe('Incorrect username or password.');
    // Sixth failure: two seconds.
    const second = await server.post('/api/identity/sign-in', { username, password: 'Atrium!demo1' });
    expect(second.headers.get('retry-after')).toBe('2');
    server.clock.advanceSeconds(2);
    const { body } = await server.signIn(username);
    expect(body.status).toBe('AUTHENTICATED');

    // The success cleared the count: four failures are free again.
    for (let i = 0; i < 4; i++) expect((await fail(username)).body.detail).toBe('Incorrect username or password.');
    expect((await server.signIn(username)).body.status).toBe('AUTHENTICATED');
  });

  it('caps the lock at 15 minutes', async () => {
    const username = 'author@atrium.test';
    let retryAfter = 0;
    for (let n = 1; n <= 16; n++) {
      await fail(username);
      if (n < 5) continue;
      const locked = await server.post('/api/identity/sign-in', { username, password: 'Atrium!demo1' });
      retryAfter = Number(locked.headers.get('retry-after') ?? 0);
      expect(retryAfter).toBe(Math.min(2 ** (n - 5), 900));
      server.clock.advanceSeconds(retryAfter);
    }
    expect(retryAfter).toBe(900);
    expect((await server.signIn(username)).body.status).toBe('AUTHENTICATED');
  });

  it('counts wrong MFA codes towards the same lockout', async () => {
    const username = 'mfa@atrium.test';
    const { body } = await server.signIn(username);
    for (let i = 0; i < 5; i++) {
      const answer = await server.post('/api/identity/challenges/mfa', {
        username,
        session: body.session,
        code: '12345',
      });
      expect((await answer.json()).code).toBe('CodeMismatchException');
    }
    const locked = await server.post('/api/identity/challenges/mfa', {
      username,
      session: body.session,
      code: '123456',
    });
    expect(await locked.json()).toMatchObject({ code: 'NotAuthorizedException', detail: 'Password attempts exceeded' });
    expect((await server.signIn(username)).body.detail).toBe('Password attempts exceeded');
  });
});
