import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import type { Principal } from '@atrium/sdk/server';
import { tokenIsRevoked } from '../server/plugin.js';
import { REFRESH_REUSE_GRACE_SECONDS } from '../server/session-store.js';
import { bearer, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access and refresh tokens', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const sessionStatus = async (accessToken: string) =>
    (await server.get('/api/identity/session', bearer(accessToken))).status;
  const refresh = (refreshToken: string) =>
    server.post('/api/identity/tokens/refresh', { refresh_token: refreshToken });

  it('carries the expected header and claims, and publishes its key', async () => {
    const { access_token } = await server.tokensFor('adjuster@atrium.test');
    const [header] = access_token.split('.');
    const parsed = JSON.parse(Buffer.from(header!, 'base64url').toString());
    expect(parsed).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.any(String) });
    const claims = decodeJwt(access_token);
    expect(claims).toMatchObject({
      iss: 'urn:atrium:identity',
      aud: 'urn:atrium:api',
      username: 'adjuster@atrium.test',
      token_use: 'access',
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    const jwks = await (await server.get('/api/identity/.well-known/jwks.json')).json();
    expect(jwks.keys).toEqual([expect.objectContaining({ kid: parsed.kid, kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' })]);
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('answers 401 to no token, garbage, alg none, algorithm confusion, a foreign key and an expired token', async () => {
    const { access_token } = await server.tokensFor('adjuster@atrium.test');
    const [headerPart, payloadPart] = access_token.split('.');
    const header = JSON.parse(Buffer.from(headerPart!, 'base64url').toString());
    const claims = decodeJwt(access_token);
    const jwks = await (await server.get('/api/identity/.well-known/jwks.json')).json();

    expect((await server.get('/api/identity/session')).status).toBe(401);
    expect(await sessionStatus('garbage')).toBe(401);
    expect((await server.get('/api/identity/session', { authorization: `Basic ${access_token}` })).status).toBe(401);

    const none = `${b64({ ...header, alg: 'none' })}.${payloadPart}.`;
    expect(await sessionStatus(none)).toBe(401);

    const hsInput = `${b64({ ...header, alg: 'HS256' })}.${payloadPart}`;
    for (const secret of [JSON.stringify(jwks.keys[0]), jwks.keys[0].x]) {
      expect(
        await sessionStatus(`${hsInput}.${createHmac('sha256', secret).update(hsInput).digest('base64url')}`),
      ).toBe(401);
    }

    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const foreign = await new SignJWT(claims).setProtectedHeader(header).sign(privateKey);
    expect(await sessionStatus(foreign)).toBe(401);

    const tampered = `${headerPart}.${b64({ ...claims, username: 'admin@atrium.test' })}.${access_token.split('.')[2]}`;
    expect(await sessionStatus(tampered)).toBe(401);

    expect(await sessionStatus(access_token)).toBe(200);
    server.clock.advanceSeconds(3600);
    expect(await sessionStatus(access_token)).toBe(401);
  });

  it('rotates the refresh token on every use', async () => {
    const first = await server.tokensFor('underwriter@atrium.test');
    const response = await refresh(first.refresh_token);
    expect(response.status).toBe(200);
    const { authentication_result: second } = await response.json();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await sessionStatus(second.access_token)).toBe(200);
    const third = await refresh(second.refresh_token);
    expect(third.status).toBe(200);
  });

  it('revokes the whole family when a rotated refresh token comes back after the grace window', async () => {
    const first = await server.tokensFor('author@atrium.test');
    const { authentication_result: second } = await (await refresh(first.refresh_token)).json();

    // Past the grace window that lets several tabs refresh together (refresh-concurrency.api.test.ts).
    server.clock.advanceSeconds(REFRESH_REUSE_GRACE_SECONDS);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Refresh Token has been revoked',
    });

    // The legitimate holder's newer tokens die with the family.
    const afterReuse = await refresh(second.refresh_token);
    expect((await afterReuse.json()).detail).toBe('Refresh Token has been revoked');
    expect(await sessionStatus(second.access_token)).toBe(401);
    expect(await sessionStatus(first.access_token)).toBe(401);

    // Other sessions of the same user are untouched.
    const other = await server.tokensFor('author@atrium.test');
    expect(await sessionStatus(other.access_token)).toBe(200);
  });

  it('refuses an unknown refresh token', async () => {
    const response = await refresh('not-a-token');
    expect(await response.json()).toMatchObject({ code: 'NotAuthorizedException', detail: 'Invalid Refresh Token' });
  });

  it('sign-out ends the session at once: its access token and refresh token stop working', async () => {
    const tokens = await server.tokensFor('agent@agency.test');
    const kept = await server.tokensFor('agent@agency.test');
    const out = await server.post('/api/identity/sign-out', { refresh_token: tokens.refresh_token });
    expect(out.status).toBe(200);
    expect(await sessionStatus(tokens.access_token)).toBe(401);
    expect((await (await refresh(tokens.refresh_token)).json()).code).toBe('NotAuthorizedException');
    expect(await sessionStatus(kept.access_token)).toBe(200);
    // Signing out twice is harmless.
    expect((await server.post('/api/identity/sign-out', { refresh_token: tokens.refresh_token })).status).toBe(200);
  });

  it("the classic gateway's logOut ends the caller's session only", async () => {
    const tokens = await server.tokensFor('agent@agency.test');
    const kept = await server.tokensFor('agent@agency.test');
    const out = await server.post('/api/gateway?file=core.login&method=logOut', {}, bearer(tokens.access_token));
    expect(await out.json()).toEqual({ success: true });
    expect(await sessionStatus(tokens.access_token)).toBe(401);
    expect((await (await refresh(tokens.refresh_token)).json()).code).toBe('NotAuthorizedException');
    expect(await sessionStatus(kept.access_token)).toBe(200);
  });

  it('global sign-out ends every session of the user', async () => {
    const a = await server.tokensFor('agency@agency.test');
    const b = await server.tokensFor('agency@agency.test');
    const out = await server.post('/api/identity/global-sign-out', undefined, bearer(a.access_token));
    expect(out.status).toBe(200);
    expect(await sessionStatus(a.access_token)).toBe(401);
    expect(await sessionStatus(b.access_token)).toBe(401);
    expect((await (await refresh(b.refresh_token)).json()).code).toBe('NotAuthorizedException');
    const fresh = await server.tokensFor('agency@agency.test');
    expect(await sessionStatus(fresh.access_token)).toBe(200);
  });

  it('tokenIsRevoked tells a route that its caller was signed out after authentication', async () => {
    const tokens = await server.tokensFor('multi@atrium.test');
    const claims = decodeJwt(tokens.access_token);
    const principal: Principal = {
      kind: 'user',
      subject: claims.sub!,
      username: 'multi@atrium.test',
      effectiveRole: null,
      roles: [],
      attributes: { sessionId: claims.sid, issuedAt: claims.iat },
    };
    const db = server.atrium.database.db;
    expect(await tokenIsRevoked(db, principal)).toBe(false);
    await server.post('/api/identity/sign-out', { refresh_token: tokens.refresh_token });
    expect(await tokenIsRevoked(db, principal)).toBe(true);
  });

  it('ends the session at the session timeout (login / session-timeout)', async () => {
    const { refresh_token } = await server.tokensFor('underwriter@atrium.test');
    server.clock.advanceSeconds(480 * 60);
    expect(await (await refresh(refresh_token)).json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Refresh Token has expired',
    });
  });

  it('keeps the session past 480 minutes when the session timeout is 0 (no timeout)', async () => {
    const { db } = server.atrium.database;
    await db.execute(sql`UPDATE core.setting SET value = '0' WHERE section = 'login' AND option = 'session-timeout'`);
    try {
      const { refresh_token } = await server.tokensFor('underwriter@atrium.test');
      server.clock.advanceSeconds(481 * 60);
      expect((await refresh(refresh_token)).status).toBe(200);
    } finally {
      await db.execute(
        sql`UPDATE core.setting SET value = '480' WHERE section = 'login' AND option = 'session-timeout'`,
      );
    }
  });
});
