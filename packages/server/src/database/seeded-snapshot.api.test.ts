import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtrium, type Atrium } from '../atrium.js';
import { loadConfig } from '../config.js';
import { openDatabase } from './connect.js';
import { openStartDatabase } from './open-start-database.js';
import { ensureSeededSnapshot } from './seeded-snapshot.js';

/**
 * `atrium start` on a new embedded data directory loads the seeded snapshot instead of migrating
 * and seeding. Every installation on a machine starts from the same snapshot, so the snapshot must
 * hold nothing that has to be unique to one: two fresh directories get their own signing keys and
 * their own upload-ticket secret, and still have the demo data and its stored objects.
 */
interface Started {
  dir: string;
  atrium: Atrium;
  url: string;
}

async function startFresh(): Promise<Started> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atrium-snapshot-'));
  const config = { ...loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), workers: false };
  const atrium = await createAtrium({ config, seed: 'auto', database: openStartDatabase(config, { seed: true }) });
  await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
  const { port } = atrium.app!.server.address() as AddressInfo;
  return { dir, atrium, url: `http://127.0.0.1:${port}` };
}

// Embedded databases only; the PostgreSQL project runs the same files and has nothing to add here.
describe.skipIf(process.env.ATRIUM_TEST_DB === 'postgres')('a fresh data directory from the seeded snapshot', () => {
  const started: Started[] = [];
  beforeAll(async () => {
    // One at a time: the first may have to build the snapshot, the second must then reuse it.
    started.push(await startFresh());
    started.push(await startFresh());
  }, 600_000);
  afterAll(async () => {
    for (const { atrium, dir } of started) {
      await atrium.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts from the snapshot with the demo data and its stored objects', async () => {
    for (const { atrium, dir } of started) {
      expect(atrium.database.startedFrom).toMatch(/^seeded snapshot /);
      const users = await atrium.database.pool.query<{ n: string }>(
        `select count(*) as n from identity."user" where username = 'admin@atrium.test'`,
      );
      expect(users.rows[0]!.n).toBe('1');
      const attachments = await atrium.database.pool.query<{ key: string }>(
        'select storage_key as key from claims.attachment where storage_key is not null limit 1',
      );
      const key = attachments.rows[0]?.key;
      expect(key).toBeTruthy();
      // The object lies in this installation's own storage folder, copied from the snapshot.
      expect(existsSync(path.join(dir, 'storage', 'objects', ...key!.split('/')))).toBe(true);
      expect((await atrium.storage.head(key!))?.size).toBeGreaterThan(0);
    }
  });

  it('gives each installation its own signing keys and upload-ticket secret', async () => {
    const [a, b] = started;
    const jwks = async ({ url }: Started) => {
      const response = await fetch(`${url}/api/identity/.well-known/jwks.json`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { keys: { kid: string; x: string }[] }).keys;
    };
    const keysA = await jwks(a!);
    const keysB = await jwks(b!);
    expect(keysA.length).toBeGreaterThan(0);
    expect(keysB.length).toBeGreaterThan(0);
    const kidsA = new Set(keysA.map((key) => key.kid));
    const publicA = new Set(keysA.map((key) => key.x));
    expect(keysB.some((key) => kidsA.has(key.kid) || publicA.has(key.x))).toBe(false);

    const secret = (dir: string) => readFile(path.join(dir, 'storage', 'ticket-secret'), 'utf8');
    expect(await secret(a!.dir)).not.toBe(await secret(b!.dir));
  });

  it('holds no signing key, session or app client itself', async () => {
    const snapshot = await ensureSeededSnapshot();
    const handle = await openDatabase({ dataDir: 'memory://', initialDataDir: snapshot.dump });
    try {
      const counts = await handle.pool.query<{ keys: string; sessions: string; clients: string }>(
        `select (select count(*) from identity.signing_key) as keys,
                (select count(*) from identity.refresh_token_family) as sessions,
                (select count(*) from identity.app_client) as clients`,
      );
      expect(counts.rows[0]).toEqual({ keys: '0', sessions: '0', clients: '0' });
    } finally {
      await handle.close();
    }
  });
});
