import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
// The test suite's seeded templates, reused: the same key (sources, migrations, lockfile, today's
// date) and the same write-then-rename dump file. Imported by path: the SDK exports only its
// testing entry point, which loads the browser test tools too.
import { seededPgliteDump, seededTemplateKey } from '../../../sdk/src/testing/seeded-template.js';
import { loadConfig } from '../config.js';
import { CACHE_DIR, REPO_ROOT } from '../paths.js';
import { openDatabase } from './connect.js';

/**
 * A fresh embedded database starts from a seeded snapshot: a PGlite dump of a database with every
 * migration applied and the demo data loaded, plus the objects the demo data stored. Loading it
 * takes a fraction of a second; migrating and seeding statement by statement took seconds.
 *
 * The snapshot is shared by every installation on the machine, so it holds nothing that must be
 * unique to one: access-token signing keys are made on first use, the upload-ticket secret on first
 * start (beside the objects), sessions and client secrets only by people. It is keyed like the test
 * templates, so a change to a source, a migration or a library builds a new one, and so does a new
 * day: demo data is dated relative to the day it was made. The server still applies migrations after
 * loading it, so a snapshot built before a migration landed would get just that migration.
 */
export interface SeededSnapshot {
  key: string;
  dump: Blob;
  /** Objects (demo attachments) the seed stored, laid out as the local driver's `objects/` folder. */
  objectsDir: string;
}

const snapshotDir = () => path.join(process.env.ATRIUM_CACHE_DIR ?? CACHE_DIR, 'start-snapshot');

/** The snapshot for today's sources, built (migrate + seed in memory, then dump) when missing. */
export async function ensureSeededSnapshot(): Promise<SeededSnapshot> {
  const dir = snapshotDir();
  const key = await seededTemplateKey(REPO_ROOT);
  const storageDir = path.join(dir, `storage-${key}`);
  const dump = await seededPgliteDump(dir, key, () => buildSnapshot(storageDir));
  await dropStaleStorage(dir, key);
  return { key, dump, objectsDir: path.join(storageDir, 'objects') };
}

async function buildSnapshot(storageDir: string): Promise<Blob> {
  const { createAtrium } = await import('../atrium.js');
  const handle = await openDatabase({ dataDir: 'memory://' });
  const defaults = loadConfig({ LOG_LEVEL: 'warn' });
  const config = {
    ...defaults,
    dataDir: 'memory://',
    databaseUrl: undefined,
    workers: false,
    webDist: undefined,
    // A throwaway ticket secret, so none is written beside the objects: each installation makes its own.
    storage: { ...defaults.storage, dir: storageDir, secret: randomBytes(32).toString('hex') },
  };
  try {
    // createAtrium closes the database it was given; keep it open long enough to dump it.
    const built = await createAtrium({
      config,
      seed: 'auto',
      database: Promise.resolve({ ...handle, close: async () => {} }),
    });
    await built.close();
    return await handle.dumpDataDir!();
  } finally {
    await handle.close();
  }
}

/** Object folders whose dump seededPgliteDump has since dropped as stale. */
async function dropStaleStorage(dir: string, key: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const other = /^storage-(.+)$/.exec(name)?.[1];
    if (!other || other === key || existsSync(path.join(dir, `pglite-seeded-${other}.tar`))) continue;
    await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Copies the snapshot's objects into an installation's object storage (never over an existing one). */
export async function restoreSnapshotObjects(snapshot: SeededSnapshot, storageRoot: string): Promise<void> {
  if (!existsSync(snapshot.objectsDir)) return;
  await cp(snapshot.objectsDir, path.join(storageRoot, 'objects'), {
    recursive: true,
    force: false,
    errorOnExist: false,
  });
}
