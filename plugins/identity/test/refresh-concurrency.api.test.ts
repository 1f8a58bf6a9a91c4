import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@atrium/server';
import { REFRESH_REUSE_GRACE_SECONDS, SessionStore } from '../server/session-store.js';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

/**
 * Issue 14, hole 5: several tabs refreshing the same refresh token at once must not sign the user
 * out. Reuse detection stays: a rotated token that comes back after the grace window revokes the
 * whole session.
 */
describe('concurrent refresh of one refresh token', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const refresh = (refreshToken: string) =>
    server.post('/api/identity/tokens/refresh', { refresh_token: refreshToken });
  const sessionStatus = async (accessToken: string) =>
    (await server.get('/api/identity/session', bearer(accessToken))).status;

  it('ten tabs refreshing together all get a working pair of the same session', async () => {
    const first = await server.tokensFor('underwriter@atrium.test');
    const answers = await Promise.all(Array.from({ length: 10 }, () => refresh(first.refresh_token)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const pairs = await Promise.all(answers.map(async (answer) => (await answer.json()).authentication_result));
    // Every tab's access token works and names the same session as the original.
    const sid = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    for (const pair of pairs) {
      expect(sid(pair.access_token)).toBe(sid(first.access_token));
      expect(await sessionStatus(pair.access_token)).toBe(200);
    }
    // Each tab's refresh token works in turn (the winner's too).
    for (const pair of pairs) expect((await refresh(pair.refresh_token)).status).toBe(200);
    expect(await sessionStatus(first.access_token)).toBe(200);
  });

  it('a rotated token presented after the grace window revokes the whole session', async () => {
    const first = await server.tokensFor('author@atrium.test');
    const second = (await (await refresh(first.refresh_token)).json()).authentication_result;
    server.clock.advanceSeconds(REFRESH_REUSE_GRACE_SECONDS - 1);
    expect((await refresh(first.refresh_token)).status).toBe(200);
    server.clock.advanceSeconds(2);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Refresh Token has been revoked',
    });
    expect(await sessionStatus(second.access_token)).toBe(401);
    expect((await refresh(second.refresh_token)).status).toBe(400);
  });

  it('the grace window is not extended by graceful reuses', async () => {
    const first = await server.tokensFor('adjuster@atrium.test');
    expect((await refresh(first.refresh_token)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      server.clock.advanceSeconds(REFRESH_REUSE_GRACE_SECONDS / 3 - 1);
      expect((await refresh(first.refresh_token)).status).toBe(200);
    }
    server.clock.advanceSeconds(4);
    expect((await refresh(first.refresh_token)).status).toBe(400);
  });

  it('two connection pools (two processes) rotating one token at once both succeed', async () => {
    const { database } = server.atrium;
    const other =
      database.kind === 'postgres' && database.connectionString
        ? await openDatabase({ databaseUrl: database.connectionString, dataDir: 'memory://', poolMax: 5 })
        : null;
    try {
      const stores = [
        new SessionStore(database.db, server.clock),
        new SessionStore((other ?? database).db, server.clock),
      ];
      const { refresh_token } = await server.tokensFor('agent@agency.test');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) => stores[index % 2]!.rotate(refresh_token)),
      );
      expect(results.map((result) => result.outcome)).toEqual(Array(8).fill('rotated'));
      const tokens = new Set(results.map((result) => (result.outcome === 'rotated' ? result.refreshToken : '')));
      expect(tokens.size).toBe(8);
      for (const token of tokens) expect((await refresh(token)).status).toBe(200);
    } finally {
      await other?.close();
    }
  });
});
