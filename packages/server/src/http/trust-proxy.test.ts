import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { fastifyTrustProxy, parseTrustProxy, type TrustProxy } from './trust-proxy.js';

describe('ATRIUM_TRUST_PROXY', () => {
  it('trusts nobody by default, and refuses to trust everybody', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toMatchObject({ error: expect.stringContaining('any client') });
  });

  it('reads a hop count or a list of addresses and ranges', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('0')).toMatchObject({ error: expect.any(String) });
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(parseTrustProxy('10.0.0.0/33')).toMatchObject({ error: expect.stringContaining('prefix') });
    expect(parseTrustProxy('proxy.internal')).toMatchObject({ error: expect.stringContaining('proxy.internal') });
  });

  const apps: { close(): Promise<unknown> }[] = [];
  afterAll(async () => Promise.all(apps.map((app) => app.close())));
  async function clientSeen(trust: TrustProxy, forwardedFor: string) {
    const app = Fastify({ trustProxy: fastifyTrustProxy(trust) });
    app.get('/who', async (request) => ({ ip: request.ip, protocol: request.protocol }));
    apps.push(app);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${url}/who`, {
      headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
    });
    return (await response.json()) as { ip: string; protocol: string };
  }

  it('decides which address the sign-in throttle counts and which protocol HSTS sees', async () => {
    // Untrusted: a client cannot name itself (the throttle would be walked around).
    expect(await clientSeen(false, '203.0.113.9')).toEqual({ ip: '127.0.0.1', protocol: 'http' });
    // One trusted hop (the load balancer on 127.0.0.1): the address it saw is the client.
    expect(await clientSeen(1, '198.51.100.1, 203.0.113.9')).toEqual({ ip: '203.0.113.9', protocol: 'https' });
    // Trusted by address: hops from trusted ranges are skipped, the first untrusted one is the client.
    expect(await clientSeen(['127.0.0.1', '10.0.0.0/8'], '203.0.113.9, 10.1.2.3')).toEqual({
      ip: '203.0.113.9',
      protocol: 'https',
    });
  });
});
