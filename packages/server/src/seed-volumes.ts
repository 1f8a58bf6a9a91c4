/* eslint-disable no-console -- the seed command prints what it wrote, like a CLI. */
import { sql } from 'drizzle-orm';
import type { Atrium } from './atrium.js';
import { ConfigError } from './config.js';

/**
 * `atrium seed --claims N` (and `--policies N`): after the demo seed, each named volume generator of
 * an installed plugin (`volumes` in its server definition) appends N records in bulk. A name no
 * installed plugin generates is an error that says so: `--policies` is answered once the policies
 * module declares `volumes: { policies }`. Prints what was written, how long it took and the disk
 * the database uses.
 */
export async function seedVolumes(atrium: Atrium, requested: Record<string, string | undefined>): Promise<void> {
  const wanted = Object.entries(requested).filter((entry): entry is [string, string] => entry[1] !== undefined);
  for (const [name, raw] of wanted) {
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ConfigError(`--${name} takes a whole number above 0.`);
    if (!atrium.plugins.some((plugin) => plugin.volumes?.[name])) {
      throw new ConfigError(`No installed module generates ${name} (a module declares volumes.${name} to do so).`);
    }
  }
  for (const [name, raw] of wanted) {
    const plugin = atrium.plugins.find((p) => p.volumes?.[name])!;
    const count = Number(raw);
    const started = performance.now();
    const log = atrium.log.child({ plugin: plugin.id, volume: name });
    const written = await plugin.volumes![name]!(
      { db: atrium.database.db, log, progress: (message) => console.log(`  ${name}: ${message}`) },
      count,
    );
    const seconds = (performance.now() - started) / 1000;
    const [size] = (
      await atrium.database.db.execute<{ bytes: string }>(sql`select pg_database_size(current_database()) as bytes`)
    ).rows;
    const summary = Object.entries(written)
      .filter(([key]) => key !== 'seconds')
      .map(([key, value]) => `${value.toLocaleString('en-US')} ${key}`)
      .join(', ');
    console.log(`seeded ${summary} in ${seconds.toFixed(1)} s (${atrium.database.kind})`);
    console.log(`disk used by the database: ${(Number(size?.bytes ?? 0) / 1024 ** 3).toFixed(2)} GiB`);
  }
}
