import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AtriumConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from './connect.js';
import { ensureSeededSnapshot, restoreSnapshotObjects } from './seeded-snapshot.js';

/**
 * The database `atrium start` serves. An embedded data directory that does not exist yet starts
 * from the seeded snapshot (seeded-snapshot.ts) when demo data is wanted; an existing one, a
 * PostgreSQL server or `ATRIUM_SNAPSHOT=off` open as they are, and createAtrium migrates and seeds
 * what needs it.
 */
export async function openStartDatabase(config: AtriumConfig, options: { seed: boolean }): Promise<DatabaseHandle> {
  const plain = { databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.databasePoolMax };
  const fresh =
    !config.databaseUrl &&
    !config.dataDir.startsWith('memory://') &&
    !existsSync(path.join(config.dataDir, 'PG_VERSION'));
  if (!fresh || !options.seed || process.env.ATRIUM_SNAPSHOT === 'off') return openDatabase(plain);
  const snapshot = await ensureSeededSnapshot();
  // Objects first: once the database exists, a crash would leave rows pointing at missing objects.
  await restoreSnapshotObjects(snapshot, config.storage.dir ?? path.join(config.dataDir, 'storage'));
  const handle = await openDatabase({ ...plain, initialDataDir: snapshot.dump });
  return { ...handle, startedFrom: `seeded snapshot ${snapshot.key}` };
}
