import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, helmetHeaders, HSTS, registerSecurityHeaders } from './security-headers.js';

/** Issue 14, hole 8: HSTS only over TLS (a plain-HTTP answer must not pin the host to HTTPS). */
const dir = mkdtempSync(path.join(tmpdir(), 'atrium-tls-'));
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
  ],
  { stdio: 'ignore' },
);

const apps: { close(): Promise<unknown> }[] = [];
afterAll(async () => Promise.all(apps.map((app) => app.close())));

async function serve(tls: boolean) {
  const https = { key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) };
  // The TLS instance differs only in its server type; the headers do not care.
  const app = (tls ? Fastify({ https }) : Fastify()) as unknown as FastifyInstance;
  await registerSecurityHeaders(app);
  app.get('/x', async () => ({ ok: true }));
  app.get('/401', async (_request, reply) => reply.status(401).send({ detail: 'no' }));
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

function getInsecure(url: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    httpsRequest(url, { rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.headers);
    })
      .on('error', reject)
      .end();
  });
}

describe('Strict-Transport-Security', () => {
  it('is sent over TLS', async () => {
    const url = await serve(true);
    const headers = await getInsecure(`${url}/x`);
    expect(headers['strict-transport-security']).toBe(HSTS);
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  it('is not sent over plain HTTP, and a 401 names the Bearer scheme', async () => {
    const url = await serve(false);
    const response = await fetch(`${url}/x`);
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${url}/401`)).headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('the headers helmet writes, once at start', () => {
  it('hold the one CSP and the hardening headers, and no HSTS (set per request over TLS)', () => {
    const headers = new Map(helmetHeaders());
    expect(headers.get('content-security-policy')?.split(';').join('; ')).toBe(CONTENT_SECURITY_POLICY);
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.has('strict-transport-security')).toBe(false);
  });
});
