import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/**
 * Most API tests start a server on a fresh database with all demo data. Running every migration and
 * every plugin's seed costs seconds per server, paid again by each test file. Instead the first
 * server of a run builds the seeded database once — a PGlite data-directory dump in the cache
 * directory, or a template database on PostgreSQL — and every later server starts from a copy
 * (PGlite loads the dump; PostgreSQL runs `CREATE DATABASE … TEMPLATE …`).
 *
 * A copy must be exactly what migrating and seeding would have produced, so the template's name is
 * a hash of everything that could change it: the server-side sources and migrations of the core and
 * every plugin, the lockfile (library versions such as pg-boss make schema too), and today's date
 * (demo data is dated relative to today). Editing a seed, a table or a migration makes a new
 * template on the next run.
 */

/** Folders (relative to the repository root) whose files decide what a seeded database holds. */
const SOURCE_ROOTS = [
  'packages/server/src',
  'packages/server/migrations',
  'packages/sdk/src/server',
  'packages/rating/src',
];
const PLUGIN_PARTS = ['server', 'shared', 'package.json'];
const SKIPPED = /(\.test\.tsx?$|\/node_modules\/|\/web\/)/;

async function filesUnder(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  if ((await stat(root)).isFile()) return [root];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !SKIPPED.test(file.split(path.sep).join('/')));
}

const keys = new Map<string, Promise<string>>();

/** The hash naming today's template for a checkout (computed once per process and checkout). */
export function seededTemplateKey(repoRoot: string): Promise<string> {
  let key = keys.get(repoRoot);
  if (key) return key;
  key = (async () => {
    const roots = SOURCE_ROOTS.map((root) => path.join(repoRoot, root));
    const pluginsDir = path.join(repoRoot, 'plugins');
    for (const plugin of existsSync(pluginsDir) ? (await readdir(pluginsDir)).sort() : []) {
      for (const part of PLUGIN_PARTS) roots.push(path.join(pluginsDir, plugin, part));
    }
    roots.push(path.join(repoRoot, 'package-lock.json'));
    const files = (await Promise.all(roots.map(filesUnder))).flat().sort();
    const hash = createHash('sha256');
    hash.update(new Date().toISOString().slice(0, 10));
    for (const file of files) {
      hash.update(path.relative(repoRoot, file));
      hash.update('\0');
      hash.update(await readFile(file));
      hash.update('\0');
    }
    return hash.digest('hex').slice(0, 20);
  })();
  keys.set(repoRoot, key);
  return key;
}

/**
 * The seeded PGlite dump for `key`, built with `build` (which must return the dump of a freshly
 * migrated and seeded database) when the cache lacks it. One test worker builds it while the others
 * wait for the file (a lock file naming the builder's process; a builder that died leaves a lock
 * that the next one takes over); the file is written under another name and renamed, so nobody ever
 * reads half a file.
 */
export async function seededPgliteDump(cacheDir: string, key: string, build: () => Promise<Blob>): Promise<Blob> {
  const file = path.join(cacheDir, `pglite-seeded-${key}.tar`);
  const read = async () => {
    const kept = dumpsRead.get(file);
    if (kept) return kept;
    const blob = new Blob([await readFile(file)]);
    remember(file, blob);
    return blob;
  };
  if (existsSync(file) || dumpsRead.has(file)) return read();
  await mkdir(cacheDir, { recursive: true });
  const release = await takeBuildLock(`${file}.lock`, () => existsSync(file));
  if (!release) return read();
  try {
    if (existsSync(file)) return read();
    const dump = await build();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    await dropStaleDumps(cacheDir, file);
    remember(file, dump);
    return dump;
  } finally {
    await release();
  }
}

/**
 * The dumps this process has read, newest last. A dump never changes once written (its name is the
 * hash of what made it), and a Blob is immutable, so every server of a worker starts from the same
 * Blob instead of reading ~55 MB from disk and copying it into a new Blob each time (~0.3 s of CPU
 * per test server, more under load). A worker's files use a few templates; the oldest is let go past
 * DUMPS_KEPT to bound memory.
 */
const dumpsRead = new Map<string, Blob>();
const DUMPS_KEPT = 4;
function remember(file: string, blob: Blob): void {
  dumpsRead.delete(file);
  dumpsRead.set(file, blob);
  for (const oldest of dumpsRead.keys()) {
    if (dumpsRead.size <= DUMPS_KEPT) break;
    dumpsRead.delete(oldest);
  }
}

const building = new Set<string>();

/**
 * Takes the lock file `lock` (answering its release), or waits until `done()` says another builder
 * finished (answering null). Waiting has no deadline of its own: a build takes as long as the loaded
 * machine needs, and a builder that hangs is ended by its test's hook timeout, which frees the lock
 * for the next (its process is gone).
 */
async function takeBuildLock(lock: string, done: () => boolean): Promise<(() => Promise<void>) | null> {
  for (;;) {
    if (!building.has(lock)) {
      // Marked before the file is written: another server of this process must not take this
      // process's fresh lock for a stale one.
      building.add(lock);
      try {
        await writeFile(lock, String(process.pid), { flag: 'wx' });
        return async () => {
          building.delete(lock);
          await rm(lock, { force: true });
        };
      } catch (error) {
        building.delete(lock);
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      // A lock of this process that it is not building under is left by a build that failed here.
      if (holder && !building.has(lock) && (holder === process.pid || !processAlive(holder))) {
        await rm(lock, { force: true });
        continue;
      }
    }
    if (done()) return null;
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (done()) return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Dumps of other keys untouched for an hour (sources changed since, and each is tens of megabytes),
 * and locks left by builders that died.
 */
async function dropStaleDumps(cacheDir: string, keep: string): Promise<void> {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of await readdir(cacheDir)) {
    const file = path.join(cacheDir, name);
    if (!/^pglite-seeded-.*\.tar(\.lock)?$/.test(name) || file === keep) continue;
    const info = await stat(file).catch(() => null);
    if (!info || info.mtimeMs >= hourAgo) continue;
    // A lock this old was left by a build whose process died (its test timed out or was stopped).
    if (name.endsWith('.lock') && processAlive(Number(await readFile(file, 'utf8').catch(() => '')))) continue;
    await rm(file, { force: true });
  }
}

const TEMPLATE_PREFIX = 'atrium_tpl_';

/**
 * Makes sure the template database for `key` exists on the server of `adminUrl`, building it with
 * `build(url)` (migrate and seed the database at `url`, then disconnect) under an advisory lock so
 * that parallel workers build it once. Returns its name. Templates of earlier days are dropped.
 *
 * A template is trusted only by the checkout whose `cacheDir` built it (a marker file there): the
 * seed also writes objects (demo attachments) to the test storage under that cache, so a template
 * left on the server by another checkout or an earlier clone — same sources, same day — names
 * objects this checkout does not have. Without the marker it is dropped and built again.
 */
export async function seededPostgresTemplate(
  adminUrl: string,
  key: string,
  cacheDir: string,
  build: (url: string) => Promise<void>,
): Promise<string> {
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const name = `${TEMPLATE_PREFIX}${day}_${key}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Same lock id for every key: building is rare and short, and one lock keeps the drop of old
    // templates below from racing with a build.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', ['atrium-test-templates']);
    const existing = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${TEMPLATE_PREFIX}%`,
    ]);
    const marker = path.join(cacheDir, `pg-template-${name}`);
    if (existing.rows.some((row) => row.datname === name)) {
      if (existsSync(marker)) return name;
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    for (const { datname } of existing.rows) {
      // Only templates of earlier days: another checkout may be testing other code today.
      const built = /^atrium_tpl_(\d{8})_/.exec(datname)?.[1];
      if (built && built < day) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    const building = `${name}_b${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${building}"`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      await build(url.toString());
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      await mkdir(cacheDir, { recursive: true });
      await writeFile(marker, `${new Date().toISOString()}\n`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      throw error;
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', ['atrium-test-templates']).catch(() => {});
    await admin.end();
  }
}
