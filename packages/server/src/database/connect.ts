import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '@atrium/sdk/server';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { dumpWithoutSpareWal } from './compact-dump.js';
import { openPglite } from './pglite-template.js';

/**
 * One code path for both databases: everything talks node-postgres. With `DATABASE_URL` it is a pool
 * on that server. Without it, an embedded PGlite is served over the Postgres wire protocol on a
 * loopback port by pglite-socket and the same pool connects to it. PGlite is a single-connection
 * database, so that pool holds exactly one connection: transactions stay isolated, and pg-boss,
 * Drizzle and health checks take turns on it.
 */
export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  pool: pg.Pool;
  db: Database;
  /** A connection string for tools that want one (pg-boss workers, psql while debugging). */
  connectionString: string;
  /** Embedded database only: its whole data directory as a tarball (test templates start from one). */
  dumpDataDir?(): Promise<Blob>;
  /** How a new data directory was made, for the start-up log (e.g. from the seeded snapshot). */
  startedFrom?: string;
  close(): Promise<void>;
}

// numeric and bigint stay strings: money is never a JS float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

/**
 * Statement names by text, process-wide: a statement is parsed and planned once per connection and
 * then only bound and executed (PostgreSQL's parse and plan were a third of its CPU a statement in
 * P6, issue 20). Bounded: past the limit a new text runs unnamed, as before.
 */
const statementNames = new Map<string, string>();
const STATEMENT_NAMES_LIMIT = 2_000;
/** Statements kept prepared on one connection (each holds its plan in the server's memory). */
const PREPARED_PER_CONNECTION = 500;

/**
 * A client that names every parameterised statement by its text (Drizzle's and the modules' raw
 * SQL alike), so that node-postgres prepares it once per connection. Statements without parameters
 * (begin, commit, migrations' DDL) run as before.
 */
class PreparingClient extends pg.Client {
  #prepared = 0;
  override query(...args: unknown[]): never {
    const [config, values] = args as [{ text?: unknown; name?: unknown; values?: unknown[] } | string, unknown];
    if (
      typeof config === 'object' &&
      config !== null &&
      typeof config.text === 'string' &&
      config.name === undefined &&
      ((Array.isArray(values) && values.length > 0) || (Array.isArray(config.values) && config.values.length > 0))
    ) {
      let name = statementNames.get(config.text);
      if (name === undefined && statementNames.size < STATEMENT_NAMES_LIMIT) {
        name = `atrium_${statementNames.size + 1}`;
        statementNames.set(config.text, name);
      }
      const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
        .parsedStatements;
      if (name !== undefined && (parsed[name] !== undefined || this.#prepared < PREPARED_PER_CONNECTION)) {
        if (parsed[name] === undefined) this.#prepared++;
        args[0] = { ...config, name };
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolMax?: number;
  /** Embedded database only: start a new data directory from this dump instead of an empty cluster. */
  initialDataDir?: Blob;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      Client: PreparingClient,
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      // A guard against a server that never answers, not a budget: on a loaded machine a process
      // busy compiling or seeding can leave a finished handshake unread for several seconds.
      connectionTimeoutMillis: 20_000,
    });
    pool.on('error', () => {
      // An idle client lost its server; the pool replaces it. Health reports the outage.
    });
    return {
      kind: 'postgres',
      pool,
      db: drizzle(pool),
      connectionString: options.databaseUrl,
      close: () => pool.end(),
    };
  }

  const pglite = await openPglite(options.dataDir, options.initialDataDir);
  // Our pool holds one connection, but node-postgres ends a connection after any failed
  // `pool.query` and opens a new one at once — before the socket server has noticed the old one
  // closing. With the server's default limit of one connection that new one was refused ("Too many
  // connections"), and the request after any database error failed. The server queues statements
  // from all connections through the one PGlite anyway, so a little headroom costs nothing.
  //
  // The socket is a Unix socket in a directory only this user may enter (0700), not a loopback port:
  // pglite-socket accepts any user and password, so a TCP port would let every local process in.
  const socketDir = await privateSocketDir(options.dataDir);
  const socketServer = new PGLiteSocketServer({
    db: pglite,
    path: path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    maxConnections: 8,
  });
  await socketServer.start();
  const connectionString = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
  const pool = new pg.Pool({
    host: socketDir,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
  });
  pool.on('error', () => {});
  return {
    kind: 'pglite',
    pool,
    db: drizzle(pool),
    connectionString,
    dumpDataDir: () => dumpWithoutSpareWal(pglite),
    async close() {
      await pool.end();
      await socketServer.stop();
      await pglite.close();
      await rm(path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), { force: true });
      if (path.basename(socketDir).startsWith('atrium-')) await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** The port number only names the socket file (`.s.PGSQL.<port>`), as libpq expects. */
const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes; longer socket paths cannot be bound. */
const MAX_SOCKET_PATH = 100;

/**
 * The directory of the embedded database's socket, mode 0700: `<DATA_DIR>/run` when that path is
 * short enough for a socket, else a new one under the system's temporary directory (also for the
 * in-memory databases of tests). A socket left by a process that died is removed; one that still
 * answers means another process serves this data directory, and two would corrupt it.
 */
async function privateSocketDir(dataDir: string): Promise<string> {
  const inDataDir = !dataDir.includes('://');
  const dir = path.join(path.resolve(inDataDir ? dataDir : os.tmpdir()), 'run');
  if (!inDataDir || `${dir}/.s.PGSQL.${SOCKET_PORT}`.length > MAX_SOCKET_PATH) {
    return mkdtemp(path.join(os.tmpdir(), 'atrium-'));
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const socket = path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  if (existsSync(socket)) {
    const answered = await new Promise<boolean>((resolve) => {
      const probe = net.connect(socket, () => {
        probe.destroy();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
    });
    if (answered)
      throw new Error(`Another process is serving the database in ${dataDir} (its socket ${socket} answers).`);
    await rm(socket, { force: true });
  }
  return dir;
}
