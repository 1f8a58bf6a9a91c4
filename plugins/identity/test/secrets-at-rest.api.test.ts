import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEALED_PREFIX } from '@atrium/sdk/server';
import { DEMO_TOTP_SECRET } from '../server/demo-accounts.js';
import { user } from '../server/tables.js';
import { totpCode } from '../server/totp.js';
import { bearer, DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

/** Issue 14, hole 9: TOTP secrets are sealed at rest by the SDK secrets service; MFA still works. */
describe('TOTP secrets at rest', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const stored = async (username: string) => {
    const [row] = await server.atrium.database.db
      .select({ secret: user.totpSecret, pending: user.totpPendingSecret })
      .from(user)
      .where(eq(user.username, username));
    return row!;
  };
  const answer = (username: string, session: string, code: string) =>
    server.post('/api/identity/challenges/mfa', { username, session, code });

  it('an enrolled secret is stored sealed, pending and verified, and signs in', async () => {
    const headers = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    const associate = await server.post('/api/identity/software-token/associate', { password: DEMO_PASSWORD }, headers);
    const { secret_code } = await associate.json();
    const pending = (await stored('adjuster@atrium.test')).pending!;
    expect(pending.startsWith(SEALED_PREFIX)).toBe(true);
    expect(pending).not.toContain(secret_code);

    const verify = await server.post(
      '/api/identity/software-token/verify',
      { code: totpCode(secret_code, server.clock.now()) },
      headers,
    );
    expect(verify.status).toBe(200);
    const preference = await server.put(
      '/api/identity/mfa-preference',
      { password: DEMO_PASSWORD, software_token_mfa: { enabled: true, preferred: true } },
      headers,
    );
    expect(preference.status).toBe(200);
    const secret = (await stored('adjuster@atrium.test')).secret!;
    expect(secret.startsWith(SEALED_PREFIX)).toBe(true);
    expect(secret).not.toContain(secret_code);

    server.clock.advanceSeconds(30);
    const { body } = await server.signIn('adjuster@atrium.test');
    expect(body.status).toBe('SOFTWARE_TOKEN_MFA');
    const done = await answer('adjuster@atrium.test', body.session, totpCode(secret_code, server.clock.now()));
    expect((await done.json()).status).toBe('AUTHENTICATED');
  });

  it('seals secrets stored in plaintext (older rows, the demo seed) and MFA goes on working', async () => {
    // A row as it was before sealing.
    await server.atrium.database.db
      .update(user)
      .set({ totpSecret: DEMO_TOTP_SECRET })
      .where(eq(user.username, 'mfa@atrium.test'));
    // Housekeeping (in the background of a sign-in, at most hourly) seals it.
    server.clock.advanceSeconds(2 * 60 * 60);
    const { body } = await server.signIn('mfa@atrium.test');
    let secret = '';
    for (let i = 0; i < 100 && !secret.startsWith(SEALED_PREFIX); i++) {
      secret = (await stored('mfa@atrium.test')).secret!;
      if (!secret.startsWith(SEALED_PREFIX)) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(secret.startsWith(SEALED_PREFIX)).toBe(true);
    expect(secret).not.toContain(DEMO_TOTP_SECRET);
    const done = await answer('mfa@atrium.test', body.session, totpCode(DEMO_TOTP_SECRET, server.clock.now()));
    expect((await done.json()).status).toBe('AUTHENTICATED');
  });
});
