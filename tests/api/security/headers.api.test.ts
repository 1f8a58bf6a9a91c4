import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * Issue 14, hole 8: every answer carries the one Content-Security-Policy, nosniff and a
 * Referrer-Policy (not only downloads); HSTS is left to TLS (security-headers.test.ts); every 401
 * names the Bearer scheme.
 */
const CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The policy's directives in order (helmet writes `;` without the space the text has). */
const directives = (policy: string | null) => (policy ?? '').split(';').map((d) => d.trim().replace(/\s+/g, ' '));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('security headers', () => {
  it.each([
    ['GET', '/api/health'],
    ['GET', '/api/no-such-route'],
    ['GET', '/api/docs/json'],
    ['GET', '/api/claims/claims/'],
    ['POST', '/api/identity/sign-in'],
  ])('%s %s carries the CSP, nosniff and a Referrer-Policy', async (method, path) => {
    const response = await server.fetch(path, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: method === 'POST' ? '{}' : undefined,
    });
    await response.arrayBuffer();
    expect(directives(response.headers.get('content-security-policy'))).toEqual(directives(CSP));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    // Served over plain HTTP here: no HSTS.
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('401 answers carry WWW-Authenticate: Bearer', async () => {
    for (const path of ['/api/claims/claims/', '/api/access/roles', '/api/lines/products/']) {
      const response = await server.fetch(path, { headers: { authorization: 'Bearer not-a-token' } });
      await response.arrayBuffer();
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate'), path).toMatch(/^Bearer\b/);
    }
  });
});
