import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startTestServer, testDatabaseKind, type TestServer } from '@atrium/sdk/testing';

/**
 * Kill -9 between commit and delivery loses no event (docs/integrations.md, "Restart safety"), and
 * `atrium worker` delivers. A real `atrium start` process, whose dispatcher polls only every ten
 * minutes (so nothing is sent unless kicked), activates a subscription to a receiver on 127.0.0.1;
 * three claims are committed through its API (their events are in the outbox, undelivered); the
 * process is killed with SIGKILL. An `atrium worker` then starts on the same database (the same data
 * directory on PGlite, the same database on PostgreSQL) and delivers all three, signed; an integration
 * listening to claims' events runs once for each of them too.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SECRET_KEY = 'a7'.repeat(32); // the test templates' key: the seeded secrets are sealed with it

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('delivery across a kill -9', () => {
  const kind = testDatabaseKind();
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const copyName = `atrium_webhook_restart_${Date.now()}_${randomBytes(3).toString('hex')}`;
  /** This test's own temporary folder (removed at the end); the data directory is inside it. */
  let scratch = '';
  let dataDir = '';
  let databaseUrl: string | undefined;
  const children: ChildProcess[] = [];
  const output = new Map<ChildProcess, string>();
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  /** What the integration's http step posted (its own path on the receiver). */
  const runPosts: string[] = [];
  let receiver: http.Server;
  let receiverUrl = '';

  const launch = (command: 'start' | 'worker', env: Record<string, string>) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli.ts', command, ...(command === 'start' ? ['--no-build'] : [])],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          ATRIUM_SECRET_KEY: SECRET_KEY,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ATRIUM_STORAGE_SECRET: 'a shared secret of at least thirty-two characters',
          ATRIUM_WEBHOOKS_ALLOW_PRIVATE: 'true',
          ...env,
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

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => (body += c.toString()));
      request.on('end', () => {
        if (request.url === '/run') runPosts.push(body);
        else received.push({ headers: request.headers, body });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    scratch = mkdtempSync(path.join(tmpdir(), 'atrium-webhook-restart-'));
    dataDir = path.join(scratch, 'data');
    // The seeded test template, made into a database the spawned processes open as it is (no
    // migrating or seeding in the test's time).
    const seeded: TestServer = await startTestServer();
    if (kind === 'postgres') {
      const name = (await seeded.atrium.database.pool.query<{ name: string }>('select current_database() as name'))
        .rows[0]!.name;
      await seeded.atrium.close();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${copyName}" TEMPLATE "${name}"`);
      await admin.end();
      databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${copyName}` }).toString();
    } else {
      const dump = await seeded.atrium.database.dumpDataDir!();
      const { openDatabase } = await import('@atrium/server');
      const handle = await openDatabase({ dataDir, initialDataDir: dump });
      await handle.close();
    }
    await seeded.close();
  }, 300_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    if (kind === 'postgres' && databaseUrl) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`);
      await admin.end();
    }
    if (scratch.startsWith(path.join(tmpdir(), 'atrium-webhook-restart-'))) {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it('delivers from atrium worker every event committed before the server was killed, and runs integrations on them', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Ten minutes between polls: after the subscription's own kick, nothing is fanned out or sent.
    const server = launch('start', { PORT: String(port), ATRIUM_WEBHOOKS_POLL_MS: '600000' });
    await until(
      'the server',
      async () => {
        if (server.exitCode !== null) throw new Error(`server exited: ${output.get(server)}`);
        return fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false);
      },
      120_000,
    );
    const remote = { fetch: (p: string, init?: RequestInit) => fetch(`${base}${p}`, init) } as TestServer;
    const admin = await as(remote, 'admin@atrium.test', { base: '/api', mediaType: 'jsonapi' });
    // An integration started by claims' events: its runs are queued and run the same way.
    const integration = await admin.post('/integrations/integrations', {
      data: {
        type: 'integration',
        attributes: {
          name: 'Claims onward',
          events: ['claims'],
          definition: { steps: [{ name: 'Post', type: 'http', url: receiverUrl.replace('/hooks', '/run') }] },
        },
      },
    });
    expect(integration.status).toBe(201);
    const created = await admin.post('/events/subscriptions', {
      data: { type: 'subscription', attributes: { url: receiverUrl, events: ['claims'] } },
    });
    expect(created.status).toBe(202);
    const { data: subscription, meta } = await created.json();
    await until('activation', async () => {
      const one = await (await admin.get(`/events/subscriptions/${subscription.id}`)).json();
      return one.data.attributes.status === 'active';
    });

    const adjuster = await as(remote, 'adjuster@atrium.test', { base: '/api/claims', mediaType: 'jsonapi' });
    const claimIds: string[] = [];
    for (const loss of ['Burst pipe', 'Hail', 'Kitchen fire']) {
      const response = await adjuster.post('/claims/', {
        data: { type: 'claim', attributes: { loss_description: loss } },
      });
      expect(response.status).toBe(201);
      claimIds.push(String((await response.json()).data.id));
    }
    // Committed, not delivered: the dispatcher has not looked at the outbox since the kick.
    const messages = await (await admin.get(`/events/subscriptions/${subscription.id}/messages`)).json();
    expect(messages.data).toEqual([]);
    expect(received).toEqual([]);
    expect(runPosts).toEqual([]);

    server.kill('SIGKILL');
    await until('the kill', async () => server.signalCode === 'SIGKILL');

    const worker = launch('worker', { ATRIUM_WEBHOOKS_POLL_MS: '200' });
    await until(
      'three deliveries from the worker',
      async () => {
        if (worker.exitCode !== null) throw new Error(`worker exited: ${output.get(worker)}`);
        return received.length >= 3 && runPosts.length >= 3;
      },
      120_000,
    );
    // One run per event, each posting its event's envelope.
    const ran = runPosts.map((body) => (JSON.parse(body) as { data: { claim_id: string } }).data.claim_id);
    expect(ran.sort()).toEqual([...claimIds].sort());
    const verifier = new Webhook(meta.secret);
    const delivered = received.map(({ headers, body }) => {
      const envelope = verifier.verify(body, headers as Record<string, string>) as {
        topic: string;
        data: { claim_id: string };
      };
      expect(envelope.topic).toBe('claims.claim.created');
      return envelope.data.claim_id;
    });
    expect(delivered.sort()).toEqual([...claimIds].sort());
    worker.kill('SIGTERM');
    await until('the worker to stop', async () => worker.exitCode !== null, 20_000);
    expect(worker.exitCode, output.get(worker)).toBe(0);
  }, 300_000);
});
