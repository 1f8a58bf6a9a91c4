import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ObjectStorage, SeedContext, ServerPluginDefinition } from '@atrium/sdk/server';
import type { DatabaseHandle } from './database/connect.js';
import { seedRun } from './core/tables.js';

/**
 * Demo data: on the first start of an empty database every plugin's seed hook runs, in dependency
 * order (optional dependencies included, so a seed may read a provider's demo records through its
 * service), inside one transaction; a row in core.seed_run records it so later starts skip it.
 */
export async function isSeeded(database: DatabaseHandle): Promise<boolean> {
  const [row] = await database.db.select({ runs: count() }).from(seedRun);
  return (row?.runs ?? 0) > 0;
}

export async function runSeeds(
  database: DatabaseHandle,
  plugins: ServerPluginDefinition[],
  log: FastifyBaseLogger,
  storage: ObjectStorage,
  /** The server's service resolver: a seed reads other modules' demo records through their services. */
  services: Pick<SeedContext, 'service' | 'optionalService'>,
): Promise<string[]> {
  const seeded = plugins.filter((plugin) => plugin.seed).map((plugin) => plugin.id);
  await database.db.transaction(async (tx) => {
    // Demo data can be rebuilt at any time; its one commit need not wait for the WAL flush.
    await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    for (const plugin of plugins) {
      if (!plugin.seed) continue;
      await plugin.seed({
        tx,
        log: log.child({ plugin: plugin.id }),
        storage,
        service: services.service,
        optionalService: services.optionalService,
      });
    }
    await tx.insert(seedRun).values({ plugins: seeded });
  });
  return seeded;
}
