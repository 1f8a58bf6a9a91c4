import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import type { ServerPluginDefinition } from '../server/index.js';
import { seededPgliteDump, seededPostgresTemplate, seededTemplateKey } from './seeded-template.js';

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
  /**
   * Lets a test helper whose server is not simply installed plugins (a stand-in identity, a plugin
   * made with options, a module without its demo seed, its own access services or environment)
   * start from a seeded template too, instead of migrating and seeding from scratch on every start.
   * The name vouches that every server with this name, these plugin ids and this `seed` makes the
   * same database: name whatever option changes what migrations or seeds write (a clock that only
   * dates the seed's rows does not; the template is rebuilt every day).
   */
  template?: string;
  /**
   * PostgreSQL only: the row-only role the server connects as (the database's owner migrates).
   * Defaults to TEST_DATABASE_APP_ROLE, which .ci/run sets; `false` connects as the owner. Ignored
   * on PGlite, which has no roles.
   */
  appRole?: string | false;
}

async function createPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `atrium_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
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

/** The same connection string signing in as `role` (trust or peer authentication, as in CI). */
function asRole(url: string, role: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(role);
  parsed.password = '';
  return parsed.toString();
}

export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.ATRIUM_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  return start(options, false) as Promise<TestServer>;
}

/**
 * Builds the seeded template that `startTestServer(options)` would start from, if the cache lacks
 * it, without starting a server: a global set-up calls it so that the build, which takes minutes on
 * a loaded machine, does not run inside one test file's hook and its timeout.
 */
export async function prepareTestTemplate(options: TestServerOptions = {}): Promise<void> {
  await start(options, true);
}

async function start(options: TestServerOptions, prepareOnly: boolean): Promise<TestServer | undefined> {
  const { createAtrium, loadConfig, discoverServerPlugins, openDatabase, REPO_ROOT, CACHE_DIR } =
    await import('@atrium/server');
  const kind = testDatabaseKind();
  const config = {
    ...loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ...options.env }),
    dataDir: 'memory://',
    databaseUrl: undefined as string | undefined,
    databaseMigrationUrl: undefined as string | undefined,
    databasePoolMax: 5,
    workers: true,
    // PostgreSQL needs ATRIUM_SECRET_KEY; tests (and their cached templates) share this one.
    secretKey: 'a7'.repeat(32),
    webDist: options.webDist,
  };
  let plugins = options.plugins;
  const installed = await discoverServerPlugins();
  if (plugins && !plugins.some((p) => p.id === 'core')) plugins = [installed.find((p) => p.id === 'core')!, ...plugins];
  // A server of installed plugins with their demo data and the real access services starts from a
  // copy of a seeded template built once per run and plugin set (seeded-template.ts), as does one
  // whose helper names its template (`template`). Other plugins a test defines itself, custom access
  // services or extra environment are built from scratch, as is everything with
  // ATRIUM_TEST_TEMPLATE=off.
  const seed = options.seed ?? 'auto';
  const vouched = options.template !== undefined;
  const fromTemplate =
    process.env.ATRIUM_TEST_TEMPLATE !== 'off' &&
    (vouched ||
      ((!plugins || plugins.every((plugin) => installed.includes(plugin))) &&
        !options.access &&
        !options.env &&
        seed === 'auto'));
  // A server of some installed plugins starts from the template of all of them: the other plugins'
  // tables and demo rows are there but unused, and one template per run is built instead of one per
  // plugin set (19 sets, ~5 s of seeding each, 29 Nov). A helper that names its template keeps its own.
  const shareAll = fromTemplate && !vouched;
  const templatePlugins = shareAll ? undefined : plugins;
  const templateKey = async () => {
    const sources = await seededTemplateKey(REPO_ROOT);
    if (!templatePlugins && !vouched) return sources;
    const ids = (templatePlugins ?? installed).map((plugin) => plugin.id).sort();
    const name = vouched ? `|${options.template}|${seed}` : '';
    return `${sources}_${createHash('sha256')
      .update(`${ids.join(',')}${name}`)
      .digest('hex')
      .slice(0, 8)}`;
  };
  const quietBuild = { ...config, workers: false };
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: import('@atrium/server').DatabaseHandle | undefined;
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('ATRIUM_TEST_DB=postgres needs TEST_DATABASE_URL.');
    // With `appRole` the server runs as that row-only role and migrates as the test database's
    // owner, as a least-privilege deployment does (docs/security.md).
    // Every PostgreSQL test server runs as the app role when .ci/run names one, so the whole
    // PostgreSQL pass proves the app needs no more than row privileges (issue 14, hole 9).
    const appRole =
      options.appRole === false ? undefined : options.appRole || process.env.TEST_DATABASE_APP_ROLE || undefined;
    const connections = (url: string) =>
      appRole ? { databaseUrl: asRole(url, appRole), databaseMigrationUrl: url } : { databaseUrl: url };
    const key = `${await templateKey()}${appRole ? `_${createHash('sha256').update(appRole).digest('hex').slice(0, 6)}` : ''}`;
    const template = fromTemplate
      ? await seededPostgresTemplate(adminUrl, key, CACHE_DIR, async (url) => {
          const built = await createAtrium({
            config: { ...quietBuild, ...connections(url) },
            plugins: templatePlugins,
            seed,
            access: options.access,
          });
          await built.close();
        })
      : undefined;
    if (prepareOnly) return undefined;
    const created = await createPostgresDatabase(adminUrl, template);
    Object.assign(config, connections(created.url));
    dropDatabase = created.drop;
  } else if (fromTemplate) {
    const dump = await seededPgliteDump(CACHE_DIR, await templateKey(), async () => {
      const handle = await openDatabase({ dataDir: 'memory://' });
      // createAtrium closes the database it was given; keep it open long enough to dump it.
      const built = await createAtrium({
        config: quietBuild,
        plugins: templatePlugins,
        database: Promise.resolve({ ...handle, close: async () => {} }),
        seed,
        access: options.access,
      });
      await built.close();
      try {
        return await handle.dumpDataDir!();
      } finally {
        await handle.close();
      }
    });
    if (prepareOnly) return undefined;
    database = await openDatabase({ dataDir: 'memory://', initialDataDir: dump });
  }
  if (prepareOnly) return undefined;
  let atrium: import('@atrium/server').Atrium;
  try {
    atrium = await createAtrium({
      config,
      plugins,
      database: database && Promise.resolve(database),
      seed,
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
