import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabaseKind, type TestServer } from '@atrium/sdk/testing';
import { seededPostgresTemplate, seededTemplateKey } from '../../packages/sdk/src/testing/seeded-template.js';

/**
 * Tables a server's background work writes on its own clock, not the seed: documents' outbox cursor
 * is made by the listener's first pass, 2 s after start, so it is there in whichever of the two
 * servers has run that long when the rows are counted.
 */
const WRITTEN_AFTER_START = new Set(['documents.event_cursor']);

/** Rows per table of every Atrium schema: what a copy of the template must share with a fresh seed. */
async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const pool = server.atrium.database.pool;
  const tables = await pool.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema', 'pgboss')
      ORDER BY 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    if (WRITTEN_AFTER_START.has(name)) continue;
    const result = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}`);
    counts[name] = Number(result.rows[0]!.n);
  }
  return counts;
}

describe('seeded test templates', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('starts a server from the template with exactly the rows a fresh migrate-and-seed makes', async () => {
    const fromTemplate = await startTestServer();
    servers.push(fromTemplate);
    const before = process.env.ATRIUM_TEST_TEMPLATE;
    process.env.ATRIUM_TEST_TEMPLATE = 'off';
    try {
      servers.push(await startTestServer());
    } finally {
      if (before === undefined) delete process.env.ATRIUM_TEST_TEMPLATE;
      else process.env.ATRIUM_TEST_TEMPLATE = before;
    }
    const [copied, fresh] = [await rowCounts(fromTemplate), await rowCounts(servers[1]!)];
    expect(Object.keys(copied).length).toBeGreaterThan(20);
    expect(copied['core.seed_run']).toBe(1);
    expect(copied).toEqual(fresh);
    // Each copy is its own database: a write in one is not seen by another.
    await fromTemplate.atrium.database.pool.query(`DELETE FROM core.seed_run`);
    expect((await rowCounts(servers[1]!))['core.seed_run']).toBe(1);
  }, 240_000);

  it('names a new template when a server source changes', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'atrium-template-key-'));
    try {
      await cp(path.resolve('plugins/hello'), path.join(root, 'plugins/hello'), { recursive: true });
      await writeFile(path.join(root, 'package-lock.json'), '{}');
      const first = await seededTemplateKey(root);
      const other = path.join(root, 'copy');
      await cp(path.join(root, 'plugins'), path.join(other, 'plugins'), { recursive: true });
      await writeFile(path.join(other, 'package-lock.json'), '{}');
      expect(await seededTemplateKey(other)).toBe(first);
      await writeFile(path.join(other, 'plugins/hello/server/seed-change.ts'), 'export const changed = 1;\n');
      const changedRoot = path.join(root, 'changed');
      await cp(other, changedRoot, { recursive: true });
      expect(await seededTemplateKey(changedRoot)).not.toBe(first);
      // Web code and tests do not make demo data, so they do not name a new template.
      const webOnly = path.join(root, 'web-only');
      await cp(path.join(root, 'plugins'), path.join(webOnly, 'plugins'), { recursive: true });
      await writeFile(path.join(webOnly, 'package-lock.json'), '{}');
      await writeFile(path.join(webOnly, 'plugins/hello/server/thing.test.ts'), 'export {};\n');
      await writeFile(path.join(webOnly, 'plugins/hello/web/thing.ts'), 'export {};\n');
      expect(await seededTemplateKey(webOnly)).toBe(first);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe.runIf(testDatabaseKind() === 'postgres')('PostgreSQL templates', () => {
  it('are trusted only by the cache that built them: another checkout builds its own', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const key = `t${randomBytes(6).toString('hex')}`;
    const [mine, other] = [await mkdtemp(path.join(tmpdir(), 'tpl-a-')), await mkdtemp(path.join(tmpdir(), 'tpl-b-'))];
    const builds: string[] = [];
    const build = (cache: string) => async (url: string) => {
      builds.push(cache);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE TABLE built_by (cache text); INSERT INTO built_by VALUES ('${cache}')`);
      await client.end();
    };
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const name = await seededPostgresTemplate(adminUrl, key, mine, build('mine'));
      expect(await seededPostgresTemplate(adminUrl, key, mine, build('mine'))).toBe(name);
      expect(builds).toEqual(['mine']);
      // Same sources, same day, but a cache without this template's objects: built again for it.
      expect(await seededPostgresTemplate(adminUrl, key, other, build('other'))).toBe(name);
      expect(builds).toEqual(['mine', 'other']);
      const copy = `${name}_copy`;
      await admin.query(`CREATE DATABASE "${copy}" TEMPLATE "${name}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${copy}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      expect((await client.query('SELECT cache FROM built_by')).rows).toEqual([{ cache: 'other' }]);
      await client.end();
      await admin.query(`DROP DATABASE "${copy}"`);
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    } finally {
      await admin.end();
      await Promise.all([mine, other].map((dir) => rm(dir, { recursive: true, force: true })));
    }
  });
});
