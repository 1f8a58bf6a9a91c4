import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityServer, type IdentityTestServer } from './identity-test-server.js';

describe('an unknown user and a wrong password answer the same', () => {
  let server: IdentityTestServer;
  let verifications = 0;
  beforeAll(async () => {
    server = await startIdentityServer({ plugin: { passwordHashing: { onVerify: () => verifications++ } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const attempt = async (username: string) => {
    const response = await server.post('/api/identity/sign-in', { username, password: 'Not-the-password-1' });
    return { status: response.status, headers: response.headers, body: await response.json() };
  };

  it('in status and body', async () => {
    const known = await attempt('adjuster@atrium.test');
    const unknown = await attempt('nobody@atrium.test');
    expect(known.status).toBe(400);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({
      type: 'about:blank',
      status: 400,
      title: 'Bad Request',
      detail: 'Incorrect username or password.',
      instance: '/api/identity/sign-in',
      code: 'NotAuthorizedException',
      errors: [{ detail: 'Incorrect username or password.', code: 'NotAuthorizedException' }],
    });
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
  });

  it('in work: an unknown user also pays for a password hash', async () => {
    // Counted, not timed: timings on a shared machine flake, and the point is only that neither
    // path skips the argon2id verification (benchmarks measure the time itself).
    const before = verifications;
    await attempt('agent@agency.test');
    const afterKnown = verifications;
    await attempt('ghost@agency.test');
    expect(afterKnown - before).toBe(1);
    expect(verifications - afterKnown).toBe(1);
  });

  it('in lockout: unknown usernames lock exactly like real ones', async () => {
    for (let i = 0; i < 5; i++) {
      await attempt('agency@agency.test');
      await attempt('phantom@agency.test');
    }
    const known = await attempt('agency@agency.test');
    const unknown = await attempt('phantom@agency.test');
    expect(unknown.body).toEqual(known.body);
    expect(known.body.detail).toBe('Password attempts exceeded');
    expect(unknown.headers.get('retry-after')).toBe(known.headers.get('retry-after'));
  });

  it('in forgot-password', async () => {
    const timed = async (username: string) => {
      const started = performance.now();
      const response = await server.post('/api/identity/forgot-password', { username });
      return { response, elapsed: performance.now() - started };
    };
    const { response: known, elapsed: knownElapsed } = await timed('multi@atrium.test');
    const { response: unknown, elapsed: unknownElapsed } = await timed('ghost@atrium.test');
    // Both wait for the same floor, whether or not a code was sent.
    expect(knownElapsed).toBeGreaterThanOrEqual(145);
    expect(unknownElapsed).toBeGreaterThanOrEqual(145);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.json()).toEqual({
      code_delivery_details: { delivery_medium: 'EMAIL', destination: 'm***@atrium.test', attribute_name: 'email' },
    });
    expect(await unknown.json()).toEqual({
      code_delivery_details: { delivery_medium: 'EMAIL', destination: 'g***@atrium.test', attribute_name: 'email' },
    });
    const confirmUnknown = await server.post('/api/identity/forgot-password/confirm', {
      username: 'ghost@atrium.test',
      code: '123456',
      password: 'Brand-new-pass1',
    });
    const confirmKnown = await server.post('/api/identity/forgot-password/confirm', {
      username: 'multi@atrium.test',
      code: 'x',
      password: 'Brand-new-pass1',
    });
    expect(await confirmUnknown.json()).toEqual({
      ...(await confirmKnown.json()),
      instance: '/api/identity/forgot-password/confirm',
    });
  });
});
