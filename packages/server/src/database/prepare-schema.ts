import type { FastifyBaseLogger } from 'fastify';
import type { JobDefinition, ServerPluginDefinition } from '@atrium/sdk/server';
import type { AtriumConfig } from '../config.js';
import { installJobSchema } from '../jobs/job-queue.js';
import { openDatabase, type DatabaseHandle } from './connect.js';
import { grantApplicationRole, roleOfConnectionString } from './least-privilege.js';
import { applyMigrations, dropPluginSchemas, pendingMigrations } from './migrate.js';

export interface PrepareSchemaOptions {
  config: AtriumConfig;
  /** The application's own connection. */
  database: DatabaseHandle;
  plugins: ServerPluginDefinition[];
  jobs: JobDefinition[];
  /** Drop every plugin schema first (seed --reset). */
  reset: boolean;
  log: FastifyBaseLogger;
}

/**
 * Brings the schema up to date before anything else touches the database.
 *
 * With DATABASE_MIGRATION_URL (the schema owner), migrations, the job queue's schema and queues and
 * the application role's grants all run over a short-lived owner connection, and the application's
 * own connection (DATABASE_URL) only ever reads and writes rows. Without it, DATABASE_URL owns the
 * schema as before and pg-boss installs its schema itself when the job queue starts.
 *
 * Either way a database with nothing pending is not handed to drizzle's migrator at all (it would
 * CREATE SCHEMA IF NOT EXISTS first, which a row-only role may not do, and a restart saves the time).
 */
export async function prepareSchema(options: PrepareSchemaOptions): Promise<void> {
  const { config, database, plugins, reset } = options;
  if (!config.databaseMigrationUrl) {
    if (reset) await dropPluginSchemas(database, plugins);
    if (reset || (await pendingMigrations(database, plugins)).length > 0) await applyMigrations(database, plugins);
    return;
  }
  const owner = await openDatabase({ databaseUrl: config.databaseMigrationUrl, dataDir: config.dataDir, poolMax: 1 });
  try {
    if (reset) await dropPluginSchemas(owner, plugins);
    const pending = reset ? ['*'] : await pendingMigrations(owner, plugins);
    if (pending.length > 0) {
      await applyMigrations(owner, plugins);
      options.log.info({ plugins: pending }, 'migrations applied as the schema owner');
    }
    await installJobSchema(owner, options.jobs);
    const appRole = roleOfConnectionString(config.databaseUrl!);
    if (appRole !== roleOfConnectionString(config.databaseMigrationUrl)) {
      const schemas = plugins.map((plugin) => plugin.dbSchema).filter((name): name is string => !!name);
      await grantApplicationRole(owner.pool, appRole, [...schemas, 'pgboss']);
    }
  } finally {
    await owner.close();
  }
}
