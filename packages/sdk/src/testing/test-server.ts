import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { ServerPluginDefinition } from '../server/index.js';

/**
 * Starts a real Atrium server on a loopback port with a fresh database: in-memory PGlite by default,
 * or a new database on the PostgreSQL server named by TEST_DATABASE_URL when the test run targets
 * PostgreSQL (ATRIUM_TEST_DB=postgres). The database is dropped again by `close()`.
 */
export interface TestServer {
  url: string;
  databaseKind: 'pglite' | 'postgres';
  /** Typed loosely on purpose: tests reach into the app for routes and logs. */
  atrium: import('@atrium/server').Atrium;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Defaults to core + every installed plugin. Core is always included. */
  plugins?: ServerPluginDefinition[];
  seed?: 'auto' | 'never';
  access?: import('@atrium/server').AccessServices;
  webDist?: string;
  logStream?: NodeJS.WritableStream;
  /** More environment for the server's configuration, e.g. `{ SMTP_URL: 'smtp://127.0.0.1:2525' }`. */
  env?: Record<string, string>;
}

async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `atrium_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.ATRIUM_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { createAtrium, loadConfig, discoverServerPlugins } = await import('@atrium/server');
  const kind = testDatabaseKind();
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('ATRIUM_TEST_DB=postgres needs TEST_DATABASE_URL.');
    const created = await createPostgresDatabase(adminUrl);
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const config = {
    ...loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...options.env }),
    dataDir: 'memory://',
    databaseUrl,
    databasePoolMax: 5,
    workers: true,
    webDist: options.webDist,
  };
  let plugins = options.plugins;
  if (plugins) {
    const all = await discoverServerPlugins();
    const core = all.find((p) => p.id === 'core')!;
    if (!plugins.some((p) => p.id === 'core')) plugins = [core, ...plugins];
  }
  let atrium: import('@atrium/server').Atrium;
  try {
    atrium = await createAtrium({
      config,
      plugins,
      seed: options.seed ?? 'auto',
      access: options.access,
      logStream: options.logStream,
    });
  } catch (error) {
    await dropDatabase?.();
    throw error;
  }
  await atrium.app!.listen({ port: 0, host: '127.0.0.1' });
  const { port } = atrium.app!.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    databaseKind: kind,
    atrium,
    fetch: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      await atrium.close();
      await dropDatabase?.();
    },
  };
}
