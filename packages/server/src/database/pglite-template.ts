import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { CACHE_DIR } from '../paths.js';

/**
 * `initdb` inside PGlite takes seconds; loading an already initialised, empty cluster from a tarball
 * takes a few hundred milliseconds. Like PostgreSQL's own template databases, we make that empty
 * cluster once per PGlite version (at build time or on first need), keep it in node_modules/.cache,
 * and start every fresh data directory from it. It holds no Atrium data: migrations and seeds still
 * run on the new directory.
 */
async function pgliteVersion(): Promise<string> {
  // The package does not export its package.json; find it above its entry point.
  let dir = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** ATRIUM_CACHE_DIR moves the cache (the cold-start benchmark uses an empty one to time initdb). */
const cacheDir = () => process.env.ATRIUM_CACHE_DIR ?? CACHE_DIR;

export async function templatePath(): Promise<string> {
  return path.join(cacheDir(), `pglite-initdb-${await pgliteVersion()}.tar`);
}

export async function ensurePgliteTemplate(): Promise<Blob> {
  const file = await templatePath();
  if (existsSync(file)) return new Blob([await readFile(file)]);
  const db = await PGlite.create();
  const blob = await db.dumpDataDir('none');
  await db.close();
  await mkdir(path.dirname(file), { recursive: true });
  // Write then rename so that a concurrent start never reads half a template.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  await rename(partial, file);
  return blob;
}

/**
 * Opens PGlite in `dataDir` (or in memory for `memory://`), initialising a new one from `initial`
 * when given (a dump of another data directory), else from the empty-cluster template.
 */
export async function openPglite(dataDir: string, initial?: Blob): Promise<PGlite> {
  const inMemory = dataDir.startsWith('memory://');
  const initialised = !inMemory && existsSync(path.join(dataDir, 'PG_VERSION'));
  if (initialised) return PGlite.create(dataDir);
  const template = initial ?? (await ensurePgliteTemplate());
  if (inMemory) return PGlite.create({ loadDataDir: template });
  await mkdir(dataDir, { recursive: true });
  return PGlite.create(dataDir, { loadDataDir: template });
}
