import { Writable } from 'node:stream';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineGatewayMethod,
  defineServerPlugin,
  z,
  type AccessEvaluator,
  type Authenticator,
  type Principal,
} from '@atrium/sdk/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';

/**
 * The platform's promises to every plugin: routes must declare access and are checked before the
 * handler; jobs run on the queue; the seed runs once; OpenAPI lists every route; logs carry the
 * request id; the SPA is served with history fallback.
 */

// A bearer token naming the caller and an evaluator over a fixed grant table: the interfaces the
// identity and access modules implement, in their simplest real form.
const principals: Record<string, Principal> = {
  'token-adjuster': {
    kind: 'user',
    subject: 'u1',
    username: 'adjuster@atrium.test',
    effectiveRole: 'Claims Adjuster',
    roles: ['Claims Adjuster'],
  },
  'token-norole': { kind: 'user', subject: 'u2', username: 'new@atrium.test', effectiveRole: null, roles: [] },
};
const authenticator: Authenticator = {
  async authenticate(request) {
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? header.replace(/^Bearer /, '') : '';
    return principals[token] ?? null;
  },
};
const grants = new Set(['Claims Adjuster:probe:read']);
const evaluator: AccessEvaluator = {
  evaluate(principal, request) {
    if (!principal.effectiveRole)
      return { allowed: false, reason: principal.roles.length ? 'no-effective-role' : 'no-role-assignment' };
    return {
      allowed: grants.has(`${principal.effectiveRole}:${request.resource}:${request.action}`),
      reason: 'denied-by-statement',
    };
  },
};

let jobRuns: string[] = [];
const probePlugin = defineServerPlugin({
  id: 'probe',
  permissions: [
    { resource: 'probe', action: 'read', description: 'Read probes.' },
    { resource: 'probe', action: 'write', description: 'Write probes.' },
  ],
  jobs: [
    {
      name: 'probe.record',
      pollingIntervalSeconds: 0.5,
      handler: async (data: { value: string }) => {
        jobRuns.push(data.value);
      },
    },
  ],
  async seed({ tx }) {
    await tx.execute(sql`CREATE TABLE IF NOT EXISTS public.probe_seed (id serial primary key)`);
    await tx.execute(sql`INSERT INTO public.probe_seed DEFAULT VALUES`);
  },
  routes(router, { jobs }) {
    router.get('/read', { config: { access: { resource: 'probe', action: 'read' } } }, async (request) => ({
      username: request.principal?.username,
    }));
    router.post('/write', { config: { access: { resource: 'probe', action: 'write' } } }, async () => ({ ok: true }));
    router.get('/me', { config: { access: 'authenticated' } }, async (request) => ({
      subject: request.principal?.subject,
    }));
    router.post(
      '/enqueue',
      { config: { access: 'public' }, schema: { body: z.strictObject({ value: z.string().max(20) }) } },
      async (request) => ({ id: await jobs.send('probe.record', { value: request.body.value }) }),
    );
  },
});

describe('the platform around a plugin', () => {
  let server: TestServer;
  const logLines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(tmpdir(), 'atrium-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Atrium SPA</title>');
    writeFileSync(path.join(webDist, 'app.js'), 'console.log(1)');
    process.env.TEST_LOG_LEVEL = 'info';
    server = await startTestServer({
      plugins: [probePlugin],
      access: { authenticator, evaluator },
      logStream,
      webDist,
      // The probe plugin creates its table in its seed (it has no migrations), which the row-only
      // app role may not do.
      appRole: false,
    });
    delete process.env.TEST_LOG_LEVEL;
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (url: string, token?: string) =>
    server.fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("refuses a protected route without credentials with the spec's 401", async () => {
    const response = await get('/api/probe/read');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 401, title: 'Authorization Required.' });
  });

  it('runs the handler when the evaluator allows the action for the effective role', async () => {
    const response = await get('/api/probe/read', 'token-adjuster');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ username: 'adjuster@atrium.test' });
  });

  it("refuses a denied action with the spec's 403 before the handler runs", async () => {
    const response = await server.fetch('/api/probe/write', {
      method: 'POST',
      headers: { authorization: 'Bearer token-adjuster' },
    });
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body.title).toBe("Forbidden resource can't be accessed.");
    expect(body.ingress_denied).toBeUndefined();
  });

  it('marks a 403 for a caller without a role assignment as ingress-denied', async () => {
    const response = await get('/api/probe/read', 'token-norole');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ingress_denied: true, annotation: 'no-role-assignment' });
  });

  it('lets any signed-in caller reach an `authenticated` route', async () => {
    expect((await get('/api/probe/me')).status).toBe(401);
    expect(await (await get('/api/probe/me', 'token-norole')).json()).toEqual({ subject: 'u2' });
  });

  it('runs a queued job on pg-boss', async () => {
    jobRuns = [];
    const response = await server.fetch('/api/probe/enqueue', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'from-test' }),
    });
    expect(response.status).toBe(200);
    const deadline = Date.now() + 15_000;
    while (!jobRuns.includes('from-test') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(jobRuns).toContain('from-test');
  });

  it('ran every seed hook once, in one transaction, and recorded it', async () => {
    const { rows } = await server.atrium.database.pool.query('SELECT count(*)::int AS n FROM public.probe_seed');
    expect(rows[0].n).toBe(1);
    const runs = await server.atrium.database.pool.query('SELECT plugins FROM core.seed_run');
    expect(runs.rows).toEqual([{ plugins: ['core', 'probe'] }]);
  });

  it('lists every route in the OpenAPI document with its access declaration', async () => {
    const document = await (await get('/api/docs/json')).json();
    expect(document.paths['/api/probe/read'].get['x-atrium-access']).toEqual({ resource: 'probe', action: 'read' });
    expect(document.paths['/api/health'].get['x-atrium-access']).toBe('public');
    expect((await get('/api/docs')).status).toBeLessThan(400);
  });

  it('writes structured log lines carrying the request id', async () => {
    const response = await server.fetch('/api/probe/me', { headers: { 'x-request-id': 'log-probe-1' } });
    expect(response.status).toBe(401);
    const lines = logLines.filter((line) => line.reqId === 'log-probe-1');
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ method: 'GET', url: '/api/probe/me', statusCode: 401, msg: 'request completed' });
  });

  it('serves the SPA: files as they are, client routes through index.html, /api misses as 404 JSON', async () => {
    expect(await (await get('/app.js')).text()).toBe('console.log(1)');
    const clientRoute = await get('/claims/CLM-1/exposures');
    expect(clientRoute.status).toBe(200);
    expect(await clientRoute.text()).toContain('Atrium SPA');
    const apiMiss = await get('/api/claims/nothing-here');
    expect(apiMiss.status).toBe(404);
    expect(apiMiss.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('route declarations', () => {
  it('refuses to start when a route declares no access', async () => {
    const careless = defineServerPlugin({
      id: 'careless',
      routes(router) {
        router.get('/open', async () => ({ oops: true }));
      },
    });
    await expect(startTestServer({ plugins: [careless], seed: 'never' })).rejects.toThrow(/GET \/api\/careless\/open/);
  });

  it('refuses to start when a route uses a permission its plugin does not declare', async () => {
    const sloppy = defineServerPlugin({
      id: 'sloppy',
      routes(router) {
        router.get('/x', { config: { access: { resource: 'sloppy', action: 'read' } } }, async () => ({}));
      },
    });
    await expect(startTestServer({ plugins: [sloppy], seed: 'never' })).rejects.toThrow(
      /GET \/api\/sloppy\/x \(sloppy\)/,
    );
  });

  it('refuses to start when two plugins answer the same gateway method, or one checks an undeclared permission', async () => {
    const answering = (id: string, declare = true) =>
      defineServerPlugin({
        id,
        permissions: declare ? [{ resource: `${id}:thing`, action: 'read', description: 'Read things.' }] : [],
        gateway: [
          defineGatewayMethod({
            file: 'more.ajax_suggest',
            method: 'ajaxSuggestThings',
            summary: 'Things.',
            access: { resource: `${id}:thing`, action: 'read' },
            body: z.strictObject({}),
            handler: async () => ({ success: true }),
          }),
        ],
      });
    await expect(
      startTestServer({ plugins: [answering('first'), answering('second')], seed: 'never' }),
    ).rejects.toThrow(/more\.ajax_suggest\.ajaxSuggestThings is answered by two plugins \(first and second\)/);
    await expect(startTestServer({ plugins: [answering('loose', false)], seed: 'never' })).rejects.toThrow(
      /loose:thing:read, which its plugin does not declare/,
    );
  });

  it('every route of the installed plugins declares its access', async () => {
    const server = await startTestServer({ seed: 'never' });
    try {
      expect(server.atrium.routes.length).toBeGreaterThan(3);
      const undeclared = server.atrium.routes.filter((route) => !route.access);
      expect(undeclared).toEqual([]);
      for (const route of server.atrium.routes) {
        if (typeof route.access !== 'object') continue;
        const plugin = server.atrium.plugins.find((p) => p.id === route.plugin);
        const declared = plugin?.permissions?.some(
          (p) => p.resource === (route.access as { resource: string }).resource,
        );
        expect(declared, `${route.method} ${route.url} uses a permission its plugin does not declare`).toBe(true);
      }
    } finally {
      await server.close();
    }
  });
});
