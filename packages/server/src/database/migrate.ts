import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { ServerPluginDefinition } from '@atrium/sdk/server';
import type { DatabaseHandle } from './connect.js';

/** Any fixed 64-bit key: several processes starting at once apply migrations one after another. */
const MIGRATION_LOCK_KEY = 7_245_118_003;

/**
 * Applies every plugin's generated SQL migrations, in dependency order, each plugin tracked in its
 * own table (`drizzle.__migrations_<id>`) so that plugins version independently.
 */
export async function applyMigrations(database: DatabaseHandle, plugins: ServerPluginDefinition[]): Promise<string[]> {
  const applied: string[] = [];
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    // A migration is all-or-nothing and recorded in the same transaction, so a crash that loses an
    // unflushed commit only means it runs again at the next start. Not waiting for each WAL flush
    // makes a fresh embedded database migrate several times faster.
    await client.query('SET synchronous_commit = off');
    const db = drizzle(client);
    for (const plugin of plugins) {
      if (!plugin.migrationsFolder) continue;
      await migrate(db, {
        migrationsFolder: plugin.migrationsFolder,
        migrationsSchema: 'drizzle',
        migrationsTable: `__migrations_${plugin.id.replaceAll('-', '_')}`,
      });
      applied.push(plugin.id);
    }
  } finally {
    await client.query('RESET synchronous_commit').catch(() => {});
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    client.release();
  }
  return applied;
}

/** Drops every schema the plugins own, their migration history and the job queue (seed --reset). */
export async function dropPluginSchemas(database: DatabaseHandle, plugins: ServerPluginDefinition[]): Promise<void> {
  const schemas = plugins.map((plugin) => plugin.dbSchema).filter((name): name is string => !!name);
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    for (const schema of [...schemas, 'drizzle', 'pgboss']) {
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
