import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClaimsServer, type Caller, type ClaimsTestServer } from './claims-test-server.js';

/**
 * JSON:API negotiation and error documents on every JSON:API route of the claims module, found in
 * the server's own route registry (a route added tomorrow is swept too): an Accept with media type
 * parameters is 406, a JSON body that is not JSON:API is 415, a malformed or mistyped document is a
 * 4xx JSON:API error document whose 400s point at what was wrong — never a 500. The administrator
 * calls, so that access never answers first.
 */
let server: ClaimsTestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startClaimsServer();
  admin = await server.as('admin@atrium.test');
}, 120_000);
afterAll(async () => server?.close());

const routes = () =>
  server.atrium.routes
    .filter((route) => route.plugin === 'claims' && route.jsonapi)
    .map((route) => ({
      method: route.method,
      // Path parameters get a value of the right shape that names no record.
      path: route.url
        .replace(/^\/api\/claims/, '')
        .replace(/:username/g, 'adjuster@atrium.test')
        .replace(/:number/g, 'NO-SUCH-1')
        .replace(/:[A-Za-z_]+/g, '987654'),
    }));
const withBody = (method: string) => ['POST', 'PATCH', 'PUT'].includes(method);

interface ErrorDocument {
  errors?: { status?: string; source?: { pointer?: string; parameter?: string; header?: string } }[];
}

describe('JSON:API on every claims route', () => {
  it('finds the routes in the registry', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(100);
    expect(all).toContainEqual({ method: 'GET', path: '/claims/' });
    expect(all).toContainEqual({ method: 'POST', path: '/payments/' });
  });

  it('answers 406 to an Accept with only parameterised JSON:API media types', async () => {
    const wrong: string[] = [];
    for (const { method, path } of routes()) {
      const response = await admin(method, path, withBody(method) ? { data: {} } : undefined, {
        accept: 'application/vnd.api+json; charset=utf-8',
      });
      const body = (await response.json()) as ErrorDocument;
      if (response.status !== 406 || body.errors?.[0]?.source?.header !== 'accept') {
        wrong.push(`${method} ${path} → ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 415 to a body sent as plain JSON', async () => {
    const wrong: string[] = [];
    for (const { method, path } of routes().filter((route) => withBody(route.method))) {
      const response = await admin(method, path, JSON.stringify({ data: { type: 'x', attributes: {} } }), {
        'content-type': 'application/json',
      });
      if (response.status !== 415) wrong.push(`${method} ${path} → ${response.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers malformed and mistyped documents with a 4xx error document, 400s with a source', async () => {
    const wrong: string[] = [];
    for (const { method, path } of routes().filter((route) => withBody(route.method))) {
      for (const body of ['{"data": ', '{"data": 42}', '[]']) {
        const response = await admin(method, path, body);
        const document = (await response.json().catch(() => ({}))) as ErrorDocument;
        const errors = document.errors ?? [];
        // A pointer of '' names the whole document (RFC 6901), which is right for a body of the wrong kind.
        const sourced = errors.every(
          (e) => typeof e.source?.pointer === 'string' || e.source?.parameter || e.source?.header,
        );
        const ok =
          response.status >= 400 &&
          response.status < 500 &&
          errors.length > 0 &&
          errors.every((e) => e.status === String(response.status)) &&
          (response.status !== 400 || body === '{"data": ' || sourced);
        if (!ok) wrong.push(`${method} ${path} ${body} → ${response.status} ${JSON.stringify(document)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
