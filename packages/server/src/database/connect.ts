import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '@atrium/sdk/server';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
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
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: 5000,
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
  const socketServer = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await socketServer.start();
  const address = (socketServer as unknown as { server: { address(): { port: number } } }).server.address();
  const connectionString = `postgres://postgres@127.0.0.1:${address.port}/postgres`;
  const pool = new pg.Pool({ connectionString, max: 1, idleTimeoutMillis: 0 });
  pool.on('error', () => {});
  return {
    kind: 'pglite',
    pool,
    db: drizzle(pool),
    connectionString,
    dumpDataDir: async () => (await pglite.dumpDataDir('none')) as Blob,
    async close() {
      await pool.end();
      await socketServer.stop();
      await pglite.close();
    },
  };
}
