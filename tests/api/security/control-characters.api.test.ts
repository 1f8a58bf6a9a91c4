import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, type Caller, type TestServer } from '@atrium/sdk/testing';

/**
 * Issue 14, hole 3: a NUL (or another control character) in a path, query, header or JSON body
 * string answered 500 on 156 routes, five of them public. The boundary answers 400 naming the
 * field, in the route's own error style, before any handler or the database sees the value.
 */
let server: TestServer;
let admin: Caller;

beforeAll(async () => {
  server = await startTestServer();
  admin = await as(server, 'admin@atrium.test');
});
afterAll(() => server?.close());

interface Problem {
  status: number;
  detail: string;
  errors: { detail: string; parameter?: string; pointer?: string; header?: string }[];
}
interface JsonApiErrors {
  errors: { status: string; detail: string; source?: { parameter?: string; pointer?: string } }[];
}

const post = (path: string, body: unknown) =>
  server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('control characters at the boundary', () => {
  it('a NUL in a query parameter of a JSON:API route is 400 naming the parameter, in JSON:API', async () => {
    const response = await admin.get('/api/claims/claims/?status=%00', { accept: 'application/vnd.api+json' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as JsonApiErrors;
    expect(body.errors[0]!.source).toEqual({ parameter: 'status' });
    expect(body.errors[0]!.detail).toMatch(/'status'.*control character/);
  });

  it('a NUL in a path parameter is 400 naming the parameter, as problem details', async () => {
    const response = await admin.get('/api/lines/products/%00/');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/problem\+json/);
    const body = (await response.json()) as Problem;
    expect(body.errors[0]!.parameter).toBeTruthy();
    expect(body.detail).toMatch(/Path parameter '.+' contains a control character/);
  });

  it.each([
    ['/api/identity/sign-in', { username: 'admin@atrium.test\u0000', password: 'x' }, '/username'],
    ['/api/identity/forgot-password', { username: '\u0000' }, '/username'],
    ['/api/identity/challenges/mfa', { username: 'a', session: 's\u0000', code: '123456' }, '/session'],
    ['/api/identity/challenges/mfa/resend', { username: 'a\u0000', session: 's' }, '/username'],
    [
      '/api/identity/challenges/new-password',
      { username: 'a', session: 's', new_password: 'P\u0000' },
      '/new_password',
    ],
  ])('the public route %s answers 400 for a NUL in the body, naming the field', async (path, body, pointer) => {
    const response = await post(path, body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as Problem;
    expect(problem.errors[0]!.pointer).toBe(pointer);
    expect(problem.detail).toContain(`'${pointer.slice(1)}'`);
  });

  it('finds a control character deep in a body, and in a key', async () => {
    const nested = await admin.post('/api/access/policies', {
      name: 'p',
      statements: [{ effect: 'allow', note: 'a\u0007' }],
    });
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as Problem).errors[0]!.pointer).toBe('/statements/0/note');
    const key = await admin.post('/api/access/roles', { ['na\u0000me']: 'x' });
    expect(key.status).toBe(400);
    expect(((await key.json()) as Problem).detail).toMatch(/control character/);
  });

  it('keeps tabs and line breaks in body text', async () => {
    const policy = await admin.post('/api/access/policies', {
      name: `Two\nlines\tand a tab ${Date.now()}`,
      statements: [],
    });
    expect(await policy.text()).not.toMatch(/control character/);
    const lines = await post('/api/identity/sign-in', { username: 'nobody\r\n@atrium.test', password: 'x\ty' });
    expect(lines.status).toBeGreaterThanOrEqual(400);
    expect(lines.status).toBeLessThan(500);
    expect(await lines.text()).not.toMatch(/control character/);
  });

  it('a control character in a header value is 400 naming the header', async () => {
    // fetch refuses to send such a header, so the request goes over a plain socket.
    const url = new URL(server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\nX-Probe: a\u0001b\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect(raw).not.toMatch(/^HTTP\/1\.1 5/);
  });
});
