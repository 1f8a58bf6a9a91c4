import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, opendir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  StorageLimitError,
  type ListedObject,
  type ListObjectsOptions,
  type ObjectStorage,
  type PutObjectOptions,
  type StoredObject,
  type StoredObjectStream,
  type UploadTicket,
  type UploadTicketRequest,
} from '@atrium/sdk/server';
import { assertObjectKey, pathOfKey } from './object-key.js';
import type { UploadTicketSigner } from './upload-ticket.js';

/** Where the local driver's upload route is mounted (see upload-route.ts). */
export const LOCAL_UPLOAD_PATH = '/api/storage/uploads/';
const DEFAULT_TICKET_SECONDS = 900;
const MAX_TICKET_SECONDS = 7 * 24 * 3600;

const SIDECAR_SUFFIX = '.meta.json';

interface Sidecar {
  size: number;
  contentType: string;
  sha256: string;
  createdAt: string;
  /** Set for objects a browser stored with an upload ticket; absent for `put` (and older objects). */
  origin?: 'upload-ticket';
}

/** The driver's own put options: the upload route marks what arrived with a ticket. */
export interface LocalPutOptions extends PutObjectOptions {
  viaUploadTicket?: boolean;
}

/**
 * The local-disk driver: `<root>/objects/<key>` holds the bytes and `<key>.meta.json` beside it the
 * size, content type and SHA-256. Every write goes to `<root>/tmp/` first and is renamed into place
 * (same file system, so a reader sees the old object or the whole new one, never a part), the bytes
 * before the sidecar: an object is visible only once its sidecar exists. A crash in between leaves a
 * file without a sidecar, which reads as absent.
 */
export class LocalDiskStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly root: string;
  readonly maxUploadBytes: number;
  private readonly objects: string;
  private readonly tmp: string;

  constructor(root: string, options: { maxUploadBytes: number; signer: UploadTicketSigner; now?: () => number }) {
    this.root = path.resolve(root);
    this.objects = path.join(this.root, 'objects');
    this.tmp = path.join(this.root, 'tmp');
    this.maxUploadBytes = options.maxUploadBytes;
    this.signer = options.signer;
    this.now = options.now ?? Date.now;
  }

  private readonly signer: UploadTicketSigner;
  private readonly now: () => number;

  async put(key: string, body: Readable | Uint8Array, options: LocalPutOptions): Promise<StoredObject> {
    const target = pathOfKey(this.objects, key);
    const maxBytes = options.maxBytes ?? this.maxUploadBytes;
    await mkdir(this.tmp, { recursive: true });
    const partial = path.join(this.tmp, `${randomUUID()}.part`);
    const sidecarPartial = `${partial}.meta`;
    const hash = createHash('sha256');
    let size = 0;
    // Counts and hashes on the way through and stops at the first byte over the limit, so an
    // oversized upload never reaches the disk beyond the limit.
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) return callback(new StorageLimitError(maxBytes));
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    const source = body instanceof Uint8Array ? Readable.from([Buffer.from(body)]) : body;
    try {
      await pipeline(source, meter, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await syncToDisk(partial);
      const sidecar: Sidecar = {
        size,
        contentType: options.contentType,
        sha256: hash.digest('hex'),
        createdAt: new Date(this.now()).toISOString(),
        ...(options.viaUploadTicket ? { origin: 'upload-ticket' as const } : {}),
      };
      await writeFile(sidecarPartial, JSON.stringify(sidecar), { mode: 0o600 });
      await syncToDisk(sidecarPartial);
      await mkdir(path.dirname(target), { recursive: true });
      await rename(partial, target);
      await rename(sidecarPartial, `${target}${SIDECAR_SUFFIX}`);
      return describe(key, sidecar);
    } catch (error) {
      await rm(partial, { force: true });
      await rm(sidecarPartial, { force: true });
      throw error;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const sidecar = await this.readSidecar(pathOfKey(this.objects, key));
    return sidecar && describe(key, sidecar);
  }

  async get(key: string): Promise<StoredObjectStream | null> {
    const target = pathOfKey(this.objects, key);
    const sidecar = await this.readSidecar(target);
    if (!sidecar) return null;
    // Open before answering, so that a file removed in between reads as absent instead of failing
    // half-way through a response.
    const stream = createReadStream(target);
    const opened = await new Promise<boolean>((resolve) => {
      stream.once('open', () => resolve(true));
      stream.once('error', () => resolve(false));
    });
    if (!opened) return null;
    const body = new PassThrough();
    stream.pipe(body);
    stream.once('error', (error) => body.destroy(error));
    return { ...describe(key, sidecar), body };
  }

  async delete(key: string): Promise<boolean> {
    const target = pathOfKey(this.objects, key);
    const existed = (await this.readSidecar(target)) !== null;
    // The sidecar first: the object stops being visible before its bytes go.
    await rm(`${target}${SIDECAR_SUFFIX}`, { force: true });
    await rm(target, { force: true });
    return existed;
  }

  /**
   * Walks `objects/<prefix>/` and reports every object by its sidecar: bytes without one (a crash
   * between the renames) are not objects, as for `get`.
   */
  async *list(prefix: string, options: ListObjectsOptions = {}): AsyncGenerator<ListedObject> {
    const base = prefix.replace(/\/+$/, '');
    assertObjectKey(base);
    const before = options.createdBefore?.getTime();
    yield* this.walk(pathOfKey(this.objects, base), base, before);
  }

  private async *walk(dir: string, keyPrefix: string, before: number | undefined): AsyncGenerator<ListedObject> {
    let entries;
    try {
      entries = await opendir(dir);
    } catch (error) {
      // Nothing stored under the prefix yet, or the prefix names an object rather than a folder.
      if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
      throw error;
    }
    for await (const entry of entries) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        yield* this.walk(child, `${keyPrefix}/${entry.name}`, before);
        continue;
      }
      if (!entry.isFile() || !entry.name.endsWith(SIDECAR_SUFFIX)) continue;
      const key = `${keyPrefix}/${entry.name.slice(0, -SIDECAR_SUFFIX.length)}`;
      // Deleted since the directory was read: skip it.
      const sidecar = await this.readSidecar(child.slice(0, -SIDECAR_SUFFIX.length));
      if (!sidecar) continue;
      if (before !== undefined && !(Date.parse(sidecar.createdAt) < before)) continue;
      yield { ...describe(key, sidecar), viaUploadTicket: sidecar.origin === 'upload-ticket' };
    }
  }

  async createUploadTicket(request: UploadTicketRequest): Promise<UploadTicket> {
    pathOfKey(this.objects, request.key);
    const maxBytes = Math.min(request.maxBytes ?? this.maxUploadBytes, this.maxUploadBytes);
    const seconds = Math.min(Math.max(request.expiresInSeconds ?? DEFAULT_TICKET_SECONDS, 1), MAX_TICKET_SECONDS);
    const expiresAt = Math.floor(this.now() / 1000) + seconds;
    const fields = this.signer.sign({
      key: request.key,
      content_type: request.contentType,
      max_bytes: maxBytes,
      expires_at: expiresAt,
    });
    return {
      url: LOCAL_UPLOAD_PATH,
      fields,
      key: request.key,
      maxBytes,
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
  }

  private async readSidecar(target: string): Promise<Sidecar | null> {
    try {
      return JSON.parse(await readFile(`${target}${SIDECAR_SUFFIX}`, 'utf8')) as Sidecar;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}

/** The bytes are on disk before the rename makes them visible (a crash never shows an empty file). */
async function syncToDisk(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function describe(key: string, sidecar: Sidecar): StoredObject {
  return {
    key,
    size: sidecar.size,
    contentType: sidecar.contentType,
    sha256: sidecar.sha256,
    createdAt: new Date(sidecar.createdAt),
  };
}
