import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, DEMO_PASSWORD, startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('PUT settings/password-policy', () => {
  let server: IdentityTestServer;
  beforeAll(async () => {
    server = await startIdentityServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const policy = {
    minimum_length: 16,
    require_lowercase: true,
    require_uppercase: false,
    require_numbers: true,
    require_symbols: false,
    password_history_size: 3,
    temporary_password_validity_days: 14,
  };
  const pointersOf = async (response: Response) =>
    ((await response.json()) as { errors: { pointer: string }[] }).errors.map((e) => e.pointer);
  const admin = async () => ({
    ...bearer((await server.tokensFor('admin@atrium.test')).access_token),
    'x-effective-role': 'Administrator',
  });

  it('refuses an adjuster', async () => {
    const adjuster = bearer((await server.tokensFor('adjuster@atrium.test')).access_token);
    const put = await server.put('/api/identity/settings/password-policy', policy, adjuster);
    expect(put.status).toBe(403);
  });

  it('refuses unknown fields and values out of bounds with a pointer', async () => {
    const headers = await admin();
    const unknown = await server.put('/api/identity/settings/password-policy', { ...policy, extra: 1 }, headers);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors).toEqual([
      { detail: "Unknown field 'extra'.", pointer: '/extra', code: 'unrecognized_keys' },
    ]);
    const short = await server.put('/api/identity/settings/password-policy', { ...policy, minimum_length: 7 }, headers);
    expect(short.status).toBe(400);
    expect(await pointersOf(short)).toEqual(['/minimum_length']);
    const history = await server.put(
      '/api/identity/settings/password-policy',
      { ...policy, password_history_size: 25 },
      headers,
    );
    expect(await pointersOf(history)).toEqual(['/password_history_size']);
    const days = await server.put(
      '/api/identity/settings/password-policy',
      { ...policy, temporary_password_validity_days: 0 },
      headers,
    );
    expect(await pointersOf(days)).toEqual(['/temporary_password_validity_days']);
  });

  it('stores the policy where GET reads it and enforces it on a password change', async () => {
    const put = await server.put('/api/identity/settings/password-policy', policy, await admin());
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(policy);
    expect(await (await server.get('/api/identity/settings/password-policy')).json()).toEqual(policy);

    const mine = await server.tokensFor('adjuster@atrium.test');
    const tooShort = await server.post(
      '/api/identity/password',
      { previous_password: DEMO_PASSWORD, proposed_password: 'Short-Pass-12' },
      bearer(mine.access_token),
    );
    expect(tooShort.status).toBe(400);
    expect(await tooShort.json()).toMatchObject({
      code: 'InvalidParameterException',
      detail: expect.stringContaining('Password not long enough'),
    });
    const longEnough = await server.post(
      '/api/identity/password',
      { previous_password: DEMO_PASSWORD, proposed_password: 'long enough pass 1234' },
      bearer(mine.access_token),
    );
    expect(longEnough.status).toBe(200);
  });
});
