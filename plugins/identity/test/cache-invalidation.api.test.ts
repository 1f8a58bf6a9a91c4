import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKind, type TestServer } from '@atrium/sdk/testing';
import { REVISION_CHECK_MS } from '../server/revision-watch.js';

/**
 * The caches of authentication (session, user, groups: revision-watch.ts) and of access (compiled
 * policies, role assignments: access-state.ts) never let a revoked session or a changed role live
 * longer than documented (docs/architecture.md, "Caches"): at once in the process that made the
 * change, within REVISION_CHECK_MS in every other process on the same database.
 *
 * On PostgreSQL this runs the way a carrier outgrows one machine: two `atrium start` processes and an
 * `atrium worker` on one fresh database. Changes go through server A's API; server B must honour them
 * for every request it is sent REVISION_CHECK_MS after A answered. On embedded PGlite there is one
 * process, so the change must take effect on the very next request.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const PASSWORD = 'Atrium!demo1';
const GREETING = '/api/hello/greeting/signed-in?name=Ada';
/** How long a test waits for an answer that should come much sooner, on two loaded cores. */
const PATIENCE_MS = 20_000;

interface Session {
  accessToken: string;
  refreshToken: string;
}

async function signIn(base: string, username: string): Promise<Session> {
  const response = await fetch(`${base}/api/identity/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { authentication_result: { access_token: string; refresh_token: string } };
  return {
    accessToken: body.authentication_result.access_token,
    refreshToken: body.authentication_result.refresh_token,
  };
}

const bearer = (session: Session, role: string) => ({
  authorization: `Bearer ${session.accessToken}`,
  'x-effective-role': role,
});

async function greetingStatus(base: string, session: Session, role: string): Promise<number> {
  const response = await fetch(`${base}${GREETING}`, { headers: bearer(session, role) });
  await response.arrayBuffer();
  return response.status;
}

async function call(base: string, method: string, route: string, session: Session, body?: unknown) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { ...bearer(session, 'Administrator'), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  expect(response.status, `${method} ${route}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Asks `ask` again and again from the moment `changedAt` (when the change's response arrived)
 * until it answers `expected`. Every answer to a question sent `windowMs` or more after the change
 * must be `expected`; answers sent sooner may still be the old one. Returns when the new answer was
 * first seen, in milliseconds after the change.
 */
async function honouredWithin(
  changedAt: number,
  windowMs: number,
  expected: number,
  ask: () => Promise<number>,
): Promise<number> {
  for (;;) {
    const sentAt = performance.now();
    const status = await ask();
    if (sentAt - changedAt >= windowMs)
      expect(status, `asked ${Math.round(sentAt - changedAt)} ms after`).toBe(expected);
    if (status === expected) return sentAt - changedAt;
    if (sentAt - changedAt > PATIENCE_MS) throw new Error(`still ${status} after ${PATIENCE_MS} ms`);
  }
}

describe.runIf(testDatabaseKind() === 'pglite')('caches in the one process of an embedded database', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('refuses a revoked session and honours a changed role on the next request', async () => {
    const admin = await signIn(server.url, 'admin@atrium.test');
    const underwriter = await signIn(server.url, 'underwriter@atrium.test');
    expect(await greetingStatus(server.url, underwriter, 'Underwriter')).toBe(403);

    const policy = await call(server.url, 'POST', '/api/access/policies', admin, {
      name: 'Greeting readers',
      statements: [{ effect: 'allow', actions: ['read'], resources: ['hello:greeting'] }],
    });
    await call(server.url, 'POST', '/api/access/policy-assignments', admin, {
      policy_id: policy.id,
      role: 'Underwriter',
    });
    expect(await greetingStatus(server.url, underwriter, 'Underwriter')).toBe(200);

    const [assignment] = (
      await call(server.url, 'GET', '/api/access/role-user-name-assignments?user_name=underwriter@atrium.test', admin)
    ).results;
    await call(server.url, 'DELETE', `/api/access/role-user-name-assignments/${assignment.id}`, admin);
    expect(await greetingStatus(server.url, underwriter, 'Underwriter')).toBe(403);

    expect(await greetingStatus(server.url, admin, 'Administrator')).toBe(200);
    await call(server.url, 'POST', '/api/identity/sign-out', admin, { refresh_token: admin.refreshToken });
    expect(await greetingStatus(server.url, admin, 'Administrator')).toBe(401);
  });

  it('refuses the sessions of a user disabled by hand-written SQL within the revision check', async () => {
    // No code path told the cache: the trigger's revision bump alone must reach it.
    const adjuster = await signIn(server.url, 'adjuster@atrium.test');
    const headers = { authorization: `Bearer ${adjuster.accessToken}` };
    expect((await fetch(`${server.url}/api/identity/session`, { headers })).status).not.toBe(401);
    await server.atrium.database.pool.query(
      `UPDATE identity."user" SET enabled = false WHERE username = 'adjuster@atrium.test'`,
    );
    const changedAt = performance.now();
    await honouredWithin(changedAt, REVISION_CHECK_MS, 401, async () => {
      const response = await fetch(`${server.url}/api/identity/session`, { headers });
      await response.arrayBuffer();
      return response.status;
    });
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('caches across processes on one PostgreSQL', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `atrium_cache_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  let dataDir = '';
  const children: ChildProcess[] = [];
  const output = new Map<ChildProcess, string>();
  let serverA = '';
  let serverB = '';

  const launch = (command: 'start' | 'worker', port?: number) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli.ts', command, ...(command === 'start' ? ['--no-build'] : [])],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
          // Required with DATABASE_URL; any valid key will do for a database made for this test.
          ATRIUM_SECRET_KEY: 'c3'.repeat(32),
          DATABASE_POOL_MAX: '4',
          HOST: '127.0.0.1',
          PORT: String(port ?? 0),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          ATRIUM_WORKERS: 'false',
          ATRIUM_STORAGE_SECRET: 'a shared secret of at least thirty-two characters',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    output.set(child, '');
    const keep = (chunk: Buffer) => output.set(child, (output.get(child)! + chunk.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    children.push(child);
    return child;
  };

  const healthy = async (base: string, child: ChildProcess) => {
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output.get(child)}`);
      const ok = await fetch(`${base}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) return;
      if (Date.now() > deadline) throw new Error(`server not healthy: ${output.get(child)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-cache-'));
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const [portA, portB] = [9100 + Math.floor(Math.random() * 400), 9500 + Math.floor(Math.random() * 400)];
    serverA = `http://127.0.0.1:${portA}`;
    serverB = `http://127.0.0.1:${portB}`;
    // A migrates and seeds the empty database; B and the worker start on it once it is ready.
    const a = launch('start', portA);
    await healthy(serverA, a);
    const b = launch('start', portB);
    const worker = launch('worker');
    await healthy(serverB, b);
    expect(worker.exitCode).toBeNull();
  }, 600_000);

  afterAll(async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('honours a role changed through one server in the other within the revision check', async () => {
    const admin = await signIn(serverA, 'admin@atrium.test');
    const underwriter = await signIn(serverA, 'underwriter@atrium.test');
    // B has the underwriter's session and the Underwriter's policies in its caches.
    expect(await greetingStatus(serverB, underwriter, 'Underwriter')).toBe(403);
    expect(await greetingStatus(serverB, underwriter, 'Underwriter')).toBe(403);

    const policy = await call(serverA, 'POST', '/api/access/policies', admin, {
      name: 'Greeting readers',
      statements: [{ effect: 'allow', actions: ['read'], resources: ['hello:greeting'] }],
    });
    await call(serverA, 'POST', '/api/access/policy-assignments', admin, { policy_id: policy.id, role: 'Underwriter' });
    const granted = await honouredWithin(performance.now(), REVISION_CHECK_MS, 200, () =>
      greetingStatus(serverB, underwriter, 'Underwriter'),
    );

    const [assignment] = (
      await call(serverA, 'GET', '/api/access/role-user-name-assignments?user_name=underwriter@atrium.test', admin)
    ).results;
    expect(await greetingStatus(serverB, underwriter, 'Underwriter')).toBe(200);
    await call(serverA, 'DELETE', `/api/access/role-user-name-assignments/${assignment.id}`, admin);
    const removed = await honouredWithin(performance.now(), REVISION_CHECK_MS, 403, () =>
      greetingStatus(serverB, underwriter, 'Underwriter'),
    );
    expect(Math.max(granted, removed)).toBeLessThan(PATIENCE_MS);
  });

  it('refuses in the other server a session revoked through one within the revision check', async () => {
    const admin = await signIn(serverA, 'admin@atrium.test');
    expect(await greetingStatus(serverB, admin, 'Administrator')).toBe(200);
    expect(await greetingStatus(serverB, admin, 'Administrator')).toBe(200);
    const response = await fetch(`${serverA}/api/identity/sign-out`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: admin.refreshToken }),
    });
    expect(response.status).toBe(200);
    await honouredWithin(performance.now(), REVISION_CHECK_MS, 401, () =>
      greetingStatus(serverB, admin, 'Administrator'),
    );
    // A's own answer never lagged: the change was made there.
    expect(await greetingStatus(serverA, admin, 'Administrator')).toBe(401);
  });

  it('keeps the worker running beside both servers', () => {
    const worker = children[2]!;
    expect(worker.exitCode, output.get(worker)).toBeNull();
  });
});
