import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAtrium, loadConfig, type AtriumConfig } from '@atrium/server';
import { testDatabaseKind } from '@atrium/sdk/testing';

/**
 * Demo data on a database that outlives the process: the first start seeds, a restart does not seed
 * again, `seed --reset` rebuilds it. Runs on an on-disk PGlite directory, or on a fresh PostgreSQL
 * database in the api-postgres project.
 */
describe('demo data across restarts', () => {
  let config: AtriumConfig;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const base = { ...loadConfig({ LOG_LEVEL: 'silent' }), workers: false };
    if (testDatabaseKind() === 'postgres') {
      const name = `atrium_seed_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      // ATRIUM_SECRET_KEY is required beside DATABASE_URL; any valid key for this test's database.
      config = { ...base, databaseUrl: url.toString(), secretKey: 'b5'.repeat(32) };
      cleanup = async () => {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      };
    } else {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-seed-'));
      config = { ...base, dataDir, databaseUrl: undefined };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await cleanup?.();
  });

  const carrierNames = async (atrium: Awaited<ReturnType<typeof createAtrium>>) =>
    (await atrium.database.pool.query('SELECT name FROM core.carrier ORDER BY id')).rows.map((r) => r.name);

  it('seeds once, keeps changes over a restart, and rebuilds on reset', async () => {
    const first = await createAtrium({ config, http: false, seed: 'auto' });
    expect(await carrierNames(first)).toEqual(['Atrium Mutual Insurance']);
    await first.database.pool.query("UPDATE core.carrier SET name = 'Renamed Mutual'");
    await first.close();

    const second = await createAtrium({ config, http: false, seed: 'auto' });
    expect(await carrierNames(second)).toEqual(['Renamed Mutual']);
    expect((await second.database.pool.query('SELECT count(*)::int AS n FROM core.seed_run')).rows[0].n).toBe(1);
    await second.close();

    const reset = await createAtrium({ config, http: false, seed: 'reset' });
    expect(await carrierNames(reset)).toEqual(['Atrium Mutual Insurance']);
    expect((await reset.database.pool.query('SELECT count(*)::int AS n FROM core.seed_run')).rows[0].n).toBe(1);
    await reset.close();
    // Two full demo seeds from scratch (first start and reset): a guard against a hang, not a budget;
    // on two busy cores this took over 180 s (29 Nov).
  }, 600_000);

  it('applies no migration twice', async () => {
    const atrium = await createAtrium({ config, http: false, seed: 'never' });
    const { rows } = await atrium.database.pool.query('SELECT count(*)::int AS n FROM drizzle.__migrations_core');
    expect(rows[0].n).toBeGreaterThan(0);
    await atrium.close();
    const again = await createAtrium({ config, http: false, seed: 'never' });
    const after = await again.database.pool.query('SELECT count(*)::int AS n FROM drizzle.__migrations_core');
    expect(after.rows[0].n).toBe(rows[0].n);
    await again.close();
  });
});
