import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AtriumConfig } from '../config.js';
import { CACHE_DIR } from '../paths.js';
import { LocalDiskStorage } from './local-disk-storage.js';
import { UploadTicketSigner } from './upload-ticket.js';

export interface PlatformStorage {
  storage: LocalDiskStorage;
  signer: UploadTicketSigner;
}

/**
 * The configured object storage. The local driver's directory defaults to `<DATA_DIR>/storage`, so
 * that copying DATA_DIR backs up the database and its files together; a database in memory (tests,
 * benchmarks) keeps its objects in a scratch directory under the build cache, shared by such
 * processes (keys are unique, so they never collide) and kept as long as the cached seeded database
 * templates that point into it.
 */
export async function createObjectStorage(config: AtriumConfig): Promise<PlatformStorage> {
  const dir =
    config.storage.dir ??
    (config.dataDir.startsWith('memory://')
      ? path.join(CACHE_DIR, 'memory-storage')
      : path.join(config.dataDir, 'storage'));
  const secret = config.storage.secret ? Buffer.from(config.storage.secret, 'utf8') : await localSecret(dir);
  const signer = new UploadTicketSigner(secret);
  return { storage: new LocalDiskStorage(dir, { maxUploadBytes: config.storage.maxUploadBytes, signer }), signer };
}

/**
 * Without ATRIUM_STORAGE_SECRET the local driver makes one on first start and keeps it beside the
 * objects: every process that shares the directory then signs and checks tickets alike.
 */
async function localSecret(dir: string): Promise<Buffer> {
  const file = path.join(dir, 'ticket-secret');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, randomBytes(32).toString('hex'), { mode: 0o600 });
  // link() fails when another process made the file first; then everyone reads that one.
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(partial, { force: true });
  }
  return Buffer.from((await readFile(file, 'utf8')).trim(), 'hex');
}
