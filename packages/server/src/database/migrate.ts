import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readFileSync } from 'node:fs';
import path from 'node:path';
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
        migrationsTable: migrationsTable(plugin),
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

const migrationsTable = (plugin: ServerPluginDefinition) => `__migrations_${plugin.id.replaceAll('-', '_')}`;

/**
 * The plugins whose newest migration the database has not recorded yet, by reading only (no
 * CREATE SCHEMA IF NOT EXISTS as drizzle's migrator does first): a role that may only read and
 * write rows can start a server on an up-to-date database, and a restart skips the migrator.
 */
export async function pendingMigrations(
  database: DatabaseHandle,
  plugins: ServerPluginDefinition[],
): Promise<string[]> {
  const withMigrations = plugins.filter((plugin) => plugin.migrationsFolder);
  if (withMigrations.length === 0) return [];
  const tables = withMigrations.map((plugin) => migrationsTable(plugin));
  const { rows: existing } = await database.pool.query<{ name: string }>(
    `SELECT t.name FROM unnest($1::text[]) AS t(name) WHERE to_regclass('drizzle.' || quote_ident(t.name)) IS NOT NULL`,
    [tables],
  );
  const last = new Map<string, number | null>();
  if (existing.length > 0) {
    // Table names come from plugin ids (letters, digits, underscores), quoted all the same.
    const { rows } = await database.pool.query<{ name: string; last: string | null }>(
      existing
        .map(({ name }) => `SELECT '${name}' AS name, max(created_at)::text AS last FROM drizzle."${name}"`)
        .join(' UNION ALL '),
    );
    for (const row of rows) last.set(row.name, row.last === null ? null : Number(row.last));
  }
  return withMigrations
    .filter((plugin) => {
      // The journal's newest entry is what drizzle's migrator compares with the recorded created_at.
      const journal = JSON.parse(
        readFileSync(path.join(plugin.migrationsFolder!, 'meta', '_journal.json'), 'utf8'),
      ) as { entries: { when: number }[] };
      const newest = journal.entries.at(-1)?.when;
      if (newest === undefined) return false;
      const recorded = last.get(migrationsTable(plugin));
      return recorded === null || recorded === undefined || recorded < newest;
    })
    .map((plugin) => plugin.id);
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
