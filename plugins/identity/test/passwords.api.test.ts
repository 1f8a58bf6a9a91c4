import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../server/password-hasher.js';
import { user } from '../server/tables.js';
import { bearer, DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('passwords: forgotten, required resets, temporary, changed', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const setUser = (username: string, changes: Partial<typeof user.$inferInsert>) =>
    server.atrium.database.db.update(user).set(changes).where(eq(user.username, username));
  const confirm = (username: string, code: string, password: string) =>
    server.post('/api/identity/forgot-password/confirm', { username, code, password });

  it('publishes the password policy without authentication', async () => {
    const response = await server.get('/api/identity/settings/password-policy');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      minimum_length: 12,
      require_lowercase: true,
      require_uppercase: true,
      require_numbers: true,
      require_symbols: true,
      password_history_size: 5,
      temporary_password_validity_days: 7,
    });
  });

  it('resets a forgotten password with the e-mailed code, ends every session, and still asks for MFA', async () => {
    const before = await server.signIn('sms@atrium.test');
    const mfaCode = await server.latestCode('+15555550123');
    const signedIn = await (
      await server.post('/api/identity/challenges/mfa', {
        username: 'sms@atrium.test',
        session: before.body.session,
        code: mfaCode,
      })
    ).json();
    const oldAccess = signedIn.authentication_result.access_token;

    const forgot = await server.post('/api/identity/forgot-password', { username: 'sms@atrium.test' });
    expect(await forgot.json()).toEqual({
      code_delivery_details: { delivery_medium: 'EMAIL', destination: 's***@atrium.test', attribute_name: 'email' },
    });
    const code = await server.latestCode('sms@atrium.test');

    const weak = await confirm('sms@atrium.test', code, 'weak');
    expect(await weak.json()).toMatchObject({
      code: 'InvalidParameterException',
      detail: expect.stringContaining('Password not long enough'),
    });
    const reused = await confirm('sms@atrium.test', code, DEMO_PASSWORD);
    expect((await reused.json()).detail).toBe('Password has previously been used.');

    expect((await confirm('sms@atrium.test', code, 'Fresh-Password-2')).status).toBe(200);
    expect((await confirm('sms@atrium.test', code, 'Fresh-Password-3')).status).toBe(400);
    expect((await server.get('/api/identity/session', bearer(oldAccess))).status).toBe(401);
    expect((await server.signIn('sms@atrium.test')).body.code).toBe('NotAuthorizedException');
    expect((await server.signIn('sms@atrium.test', 'Fresh-Password-2')).body.status).toBe('SMS_MFA');
  });

  it('expires a reset code after ten minutes', async () => {
    await server.post('/api/identity/forgot-password', { username: 'author@atrium.test' });
    const code = await server.latestCode('author@atrium.test');
    server.clock.advanceSeconds(10 * 60);
    const late = await confirm('author@atrium.test', code, 'Fresh-Password-2');
    expect(await late.json()).toMatchObject({ code: 'ExpiredCodeException' });
  });

  it('limits forgot-password requests per username', async () => {
    for (let i = 0; i < 5; i++)
      expect((await server.post('/api/identity/forgot-password', { username: 'limit@atrium.test' })).status).toBe(200);
    const limited = await server.post('/api/identity/forgot-password', { username: 'limit@atrium.test' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({
      code: 'LimitExceededException',
      detail: 'Attempt limit exceeded, please try after some time.',
    });
    server.clock.advanceSeconds(3600);
    expect((await server.post('/api/identity/forgot-password', { username: 'limit@atrium.test' })).status).toBe(200);
  });

  it('answers PasswordResetRequiredException and e-mails a code when an administrator required a reset', async () => {
    await setUser('agency@agency.test', { status: 'RESET_REQUIRED' });
    const wrong = await server.signIn('agency@agency.test', 'Wrong-password-1');
    expect(wrong.body.code).toBe('NotAuthorizedException');
    const { status, body } = await server.signIn('agency@agency.test');
    expect(status).toBe(400);
    expect(body).toMatchObject({
      code: 'PasswordResetRequiredException',
      detail: 'For security reasons, please reset your password.',
      code_delivery_details: { delivery_medium: 'EMAIL', destination: 'a***@agency.test' },
    });
    const code = await server.latestCode('agency@agency.test');
    expect((await confirm('agency@agency.test', code, 'Agency-Password-9')).status).toBe(200);
    expect((await server.signIn('agency@agency.test', 'Agency-Password-9')).body.status).toBe('AUTHENTICATED');
  });

  it('asks a user with a temporary password for a new one (NEW_PASSWORD_REQUIRED), then signs in', async () => {
    const temporary = await new PasswordHasher().hash('Temporary-Pass1');
    await setUser('agent@agency.test', {
      status: 'FORCE_CHANGE_PASSWORD',
      passwordHash: temporary,
      passwordChangedAt: new Date(server.clock.now().getTime() - 7 * 24 * 60 * 60 * 1000),
    });
    const expired = await server.signIn('agent@agency.test', 'Temporary-Pass1');
    expect(expired.body).toMatchObject({
      code: 'NotAuthorizedException',
      detail: 'Temporary password has expired and must be reset by an administrator.',
    });
    await setUser('agent@agency.test', { passwordChangedAt: server.clock.now() });
    const { body } = await server.signIn('agent@agency.test', 'Temporary-Pass1');
    expect(body).toMatchObject({
      status: 'NEW_PASSWORD_REQUIRED',
      expires_in: 180,
      challenge_parameters: {
        user_attributes: { email: 'agent@agency.test', name: 'Alex Agent' },
        required_attributes: [],
      },
    });
    const same = await server.post('/api/identity/challenges/new-password', {
      username: 'agent@agency.test',
      session: body.session,
      new_password: 'Temporary-Pass1',
    });
    expect((await same.json()).detail).toBe('Password has previously been used.');
    const answered = await server.post('/api/identity/challenges/new-password', {
      username: 'agent@agency.test',
      session: body.session,
      new_password: 'Agent-Password-7',
    });
    expect((await answered.json()).status).toBe('AUTHENTICATED');
    expect((await server.signIn('agent@agency.test', 'Agent-Password-7')).body.status).toBe('AUTHENTICATED');
  });

  it('changes the password of a signed-in user, keeping this session and ending the others', async () => {
    const mine = await server.tokensFor('adjuster@atrium.test');
    const other = await server.tokensFor('adjuster@atrium.test');
    const wrong = await server.post(
      '/api/identity/password',
      { previous_password: 'nope', proposed_password: 'Adjuster-Pass-2' },
      bearer(mine.access_token),
    );
    expect((await wrong.json()).code).toBe('NotAuthorizedException');
    const changed = await server.post(
      '/api/identity/password',
      { previous_password: DEMO_PASSWORD, proposed_password: 'Adjuster-Pass-2' },
      bearer(mine.access_token),
    );
    expect(changed.status).toBe(200);
    expect((await server.get('/api/identity/session', bearer(mine.access_token))).status).toBe(200);
    expect((await server.get('/api/identity/session', bearer(other.access_token))).status).toBe(401);
    const back = await server.post(
      '/api/identity/password',
      { previous_password: 'Adjuster-Pass-2', proposed_password: DEMO_PASSWORD },
      bearer(mine.access_token),
    );
    expect((await back.json()).detail).toBe('Password has previously been used.');
  });
});
