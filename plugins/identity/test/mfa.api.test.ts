import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRET } from '../server/demo-accounts.js';
import { user } from '../server/tables.js';
import { totpCode } from '../server/totp.js';
import { bearer, DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('multi-factor authentication', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const answer = (username: string, session: string, code: string) =>
    server.post('/api/identity/challenges/mfa', { username, session, code });
  const setUser = (username: string, changes: Partial<typeof user.$inferInsert>) =>
    server.atrium.database.db.update(user).set(changes).where(eq(user.username, username));
  const admin = async () => bearer((await server.tokensFor('admin@atrium.test')).access_token);

  it('expires a challenge after three minutes', async () => {
    const { body } = await server.signIn('mfa@atrium.test');
    server.clock.advanceSeconds(180);
    const late = await answer('mfa@atrium.test', body.session, totpCode(DEMO_TOTP_SECRET, server.clock.now()));
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Invalid session for the user, session is expired.',
    });
  });

  it('accepts a TOTP code from one step before or after, not two', async () => {
    server.clock.advanceSeconds(60);
    const first = await server.signIn('mfa@atrium.test');
    const twoStepsAgo = totpCode(DEMO_TOTP_SECRET, new Date(server.clock.now().getTime() - 60_000));
    expect((await (await answer('mfa@atrium.test', first.body.session, twoStepsAgo)).json()).code).toBe(
      'CodeMismatchException',
    );
    const oneStepAgo = totpCode(DEMO_TOTP_SECRET, new Date(server.clock.now().getTime() - 30_000));
    expect((await (await answer('mfa@atrium.test', first.body.session, oneStepAgo)).json()).status).toBe(
      'AUTHENTICATED',
    );
  });

  it('does not take a challenge session for another user', async () => {
    server.clock.advanceSeconds(60);
    const { body } = await server.signIn('mfa@atrium.test');
    const stolen = await answer('adjuster@atrium.test', body.session, totpCode(DEMO_TOTP_SECRET, server.clock.now()));
    expect(await stolen.json()).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Invalid session for the user.',
    });
  });

  it('resends SMS codes a limited number of times; only the newest code counts', async () => {
    const { body } = await server.signIn('sms@atrium.test');
    const firstCode = await server.latestCode('+15555550123');
    for (let i = 0; i < 3; i++) {
      const resend = await server.post('/api/identity/challenges/mfa/resend', {
        username: 'sms@atrium.test',
        session: body.session,
      });
      expect(resend.status).toBe(200);
      expect((await resend.json()).code_delivery_details.delivery_medium).toBe('SMS');
    }
    const limited = await server.post('/api/identity/challenges/mfa/resend', {
      username: 'sms@atrium.test',
      session: body.session,
    });
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe('LimitExceededException');
    const newest = await server.latestCode('+15555550123');
    if (newest !== firstCode) {
      expect((await (await answer('sms@atrium.test', body.session, firstCode)).json()).code).toBe(
        'CodeMismatchException',
      );
    }
    expect((await (await answer('sms@atrium.test', body.session, newest)).json()).status).toBe('AUTHENTICATED');
  });

  it('enrols an authenticator app: otpauth URI, verification, preference; sign-in then asks for it', async () => {
    const tokens = await server.tokensFor('underwriter@atrium.test');
    const headers = bearer(tokens.access_token);
    const wrongPassword = await server.post('/api/identity/software-token/associate', { password: 'nope' }, headers);
    expect((await wrongPassword.json()).code).toBe('NotAuthorizedException');

    const associate = await server.post('/api/identity/software-token/associate', { password: DEMO_PASSWORD }, headers);
    const { secret_code, otpauth_uri } = await associate.json();
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/Atrium:underwriter%40atrium\.test\?/);
    expect(new URL(otpauth_uri).searchParams.get('secret')).toBe(secret_code);

    const notVerified = await server.put(
      '/api/identity/mfa-preference',
      { password: DEMO_PASSWORD, software_token_mfa: { enabled: true, preferred: true } },
      headers,
    );
    expect((await notVerified.json()).code).toBe('InvalidParameterException');

    const enrolmentCode = totpCode(secret_code, server.clock.now());
    expect((await server.post('/api/identity/software-token/verify', { code: enrolmentCode }, headers)).status).toBe(
      200,
    );
    const preference = await server.put(
      '/api/identity/mfa-preference',
      { password: DEMO_PASSWORD, software_token_mfa: { enabled: false, preferred: true } },
      headers,
    );
    expect(preference.status).toBe(200);
    expect((await preference.json()).mfa).toEqual({
      preferred: 'SOFTWARE_TOKEN_MFA',
      sms_mfa_enabled: false,
      software_token_mfa_enabled: true,
      software_token_verified: true,
    });

    const { body } = await server.signIn('underwriter@atrium.test');
    expect(body.status).toBe('SOFTWARE_TOKEN_MFA');
    // The enrolment code is spent.
    expect((await (await answer('underwriter@atrium.test', body.session, enrolmentCode)).json()).code).toBe(
      'ExpiredCodeException',
    );
    server.clock.advanceSeconds(30);
    expect(
      (await (await answer('underwriter@atrium.test', body.session, totpCode(secret_code, server.clock.now()))).json())
        .status,
    ).toBe('AUTHENTICATED');

    const disable = await server.put(
      '/api/identity/mfa-preference',
      { password: DEMO_PASSWORD, software_token_mfa: { enabled: false, preferred: false } },
      headers,
    );
    expect((await disable.json()).mfa).toMatchObject({ preferred: null, software_token_mfa_enabled: false });
    expect((await server.signIn('underwriter@atrium.test')).body.status).toBe('AUTHENTICATED');
  });

  it('answers the MFA type choice with SMS when both methods are on and none is preferred', async () => {
    await setUser('multi@atrium.test', {
      phoneNumber: '+15555550199',
      smsMfaEnabled: true,
      softwareTokenMfaEnabled: true,
      totpSecret: DEMO_TOTP_SECRET,
      preferredMfa: null,
    });
    expect((await server.signIn('multi@atrium.test')).body).toMatchObject({
      status: 'SMS_MFA',
      challenge_parameters: { destination: '+*******0199' },
    });
    await setUser('multi@atrium.test', {
      smsMfaEnabled: false,
      softwareTokenMfaEnabled: false,
      phoneNumber: null,
      totpSecret: null,
    });
  });

  it('with MFA required: SMS for users with a phone, MFAMethodNotFoundException for users without a method', async () => {
    const headers = { ...(await admin()), 'x-effective-role': 'Administrator' };
    const adjusterHeaders = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    expect(
      (await server.put('/api/identity/settings/mfa-settings', { mfa_configuration: 'required' }, adjusterHeaders))
        .status,
    ).toBe(403);
    const put = await server.put('/api/identity/settings/mfa-settings', { mfa_configuration: 'required' }, headers);
    expect(put.status).toBe(200);
    expect(await (await server.get('/api/identity/settings/mfa-settings', headers)).json()).toEqual({
      mfa_configuration: 'required',
    });

    const missing = await server.signIn('agent@agency.test');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'MFAMethodNotFoundException',
      detail:
        'Your user does not have a phone number or other authentication method set up. Please contact an administrator.',
    });
    await setUser('agent@agency.test', { phoneNumber: '+15555550177' });
    expect((await server.signIn('agent@agency.test')).body.status).toBe('SMS_MFA');

    await server.put('/api/identity/settings/mfa-settings', { mfa_configuration: 'off' }, headers);
    expect((await server.signIn('mfa@atrium.test')).body.status).toBe('AUTHENTICATED');
    await server.put('/api/identity/settings/mfa-settings', { mfa_configuration: 'optional' }, headers);
    expect((await server.signIn('mfa@atrium.test')).body.status).toBe('SOFTWARE_TOKEN_MFA');
  });
});
