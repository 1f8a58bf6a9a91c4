import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../server/totp.js';
import { DEMO_TOTP_SECRET } from '../server/demo-accounts.js';
import { bearer, DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('password sign-in', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('authenticates an account without MFA and the access token opens authenticated routes', async () => {
    const { status, body } = await server.signIn('Adjuster@Atrium.test');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'AUTHENTICATED',
      authentication_result: {
        token_type: 'Bearer',
        expires_in: 3600,
        access_token: expect.any(String),
        refresh_token: expect.any(String),
      },
    });
    const session = await server.get('/api/identity/session', bearer(body.authentication_result.access_token));
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({
      username: 'adjuster@atrium.test',
      groups: ['Claims Adjuster'],
      effective_role: 'Claims Adjuster',
      is_admin: false,
      is_employee: true,
    });
  });

  it('asks the authenticator-app account for SOFTWARE_TOKEN_MFA and accepts the current code once', async () => {
    const { body } = await server.signIn('mfa@atrium.test');
    expect(body).toMatchObject({ status: 'SOFTWARE_TOKEN_MFA', session: expect.any(String), expires_in: 180 });
    const code = totpCode(DEMO_TOTP_SECRET, server.clock.now());
    const answer = await server.post('/api/identity/challenges/mfa', {
      username: 'mfa@atrium.test',
      session: body.session,
      code,
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).status).toBe('AUTHENTICATED');

    const again = await server.signIn('mfa@atrium.test');
    const replay = await server.post('/api/identity/challenges/mfa', {
      username: 'mfa@atrium.test',
      session: again.body.session,
      code,
    });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      code: 'ExpiredCodeException',
      detail: 'Your software token has already been used once.',
    });
  });

  it('sends the SMS account a code through the outbox and accepts it', async () => {
    const { body } = await server.signIn('sms@atrium.test');
    expect(body).toMatchObject({
      status: 'SMS_MFA',
      challenge_parameters: { delivery_medium: 'SMS', destination: '+*******0123', attribute_name: 'phone_number' },
    });
    const wrong = await server.post('/api/identity/challenges/mfa', {
      username: 'sms@atrium.test',
      session: body.session,
      code: '000000',
    });
    const code = await server.latestCode('+15555550123');
    expect(code).toMatch(/^\d{6}$/);
    if (code !== '000000') {
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).code).toBe('CodeMismatchException');
    }
    const answer = await server.post('/api/identity/challenges/mfa', {
      username: 'sms@atrium.test',
      session: body.session,
      code,
    });
    expect((await answer.json()).status).toBe('AUTHENTICATED');
  });

  it('answers a malformed body with InvalidParameterException', async () => {
    const response = await server.post('/api/identity/sign-in', { username: 'admin@atrium.test' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'InvalidParameterException' });
  });

  it('accepts a correct password for every demo account', async () => {
    for (const username of [
      'admin@atrium.test',
      'underwriter@atrium.test',
      'author@atrium.test',
      'multi@atrium.test',
      'agent@agency.test',
      'agency@agency.test',
    ]) {
      const { status, body } = await server.signIn(username, DEMO_PASSWORD);
      expect(status, username).toBe(200);
      expect(body.status, username).toBe('AUTHENTICATED');
    }
  });
});
