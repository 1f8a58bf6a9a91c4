import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ApiError } from './http-problem.js';

/**
 * Object storage, a platform service every plugin gets as `context.storage` (and seeds as
 * `SeedContext.storage`): file bytes live here, their metadata in the plugin's own tables. The
 * driver is chosen by configuration (local disk by default); plugins see only this interface.
 * See docs/storage.md.
 */

/** What the store knows about an object. */
export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  /** Lowercase hex SHA-256 of the bytes, computed by the store while writing. */
  sha256: string;
  createdAt: Date;
}

/** An object opened for reading: its description and a stream of its bytes. */
export interface StoredObjectStream extends StoredObject {
  body: Readable;
}

/** An object found by `list`: its description and how it arrived. */
export interface ListedObject extends StoredObject {
  /**
   * Stored by a browser's direct upload with a ticket rather than by `put` on the server. Only such
   * objects can be orphans nobody meant to keep: the browser uploaded, then the form was closed
   * before the plugin's row was written.
   */
  viaUploadTicket: boolean;
}

export interface ListObjectsOptions {
  /** Only objects stored before this time. */
  createdBefore?: Date;
}

export interface PutObjectOptions {
  contentType: string;
  /**
   * Refuse the object once more bytes than this arrive (StorageLimitError, 413); nothing is kept.
   * Default: the store's `maxUploadBytes`.
   */
  maxBytes?: number;
}

export interface UploadTicketRequest {
  /** The key the uploaded object gets; make it unguessable (`newObjectKey`). */
  key: string;
  /** The content type the object is stored with, whatever the browser sends. */
  contentType: string;
  /** At most this many bytes (default and ceiling: the store's `maxUploadBytes`). */
  maxBytes?: number;
  /** Seconds the ticket stays valid; default 900. */
  expiresInSeconds?: number;
}

/**
 * A direct upload: the browser POSTs multipart/form-data to `url` with every entry of `fields` first
 * and then the file in a part named `file`, without an Authorization header (the signed fields are
 * the authorisation). The shape of an S3 presigned POST. For the local driver `url` is a path on the
 * API's own origin.
 */
export interface UploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
  maxBytes: number;
  /** ISO 8601. */
  expiresAt: string;
}

export interface ObjectStorage {
  /** Which driver is configured; only `local` is built (see docs/storage.md). */
  readonly driver: 'local';
  /** The configured ceiling for one object (ATRIUM_UPLOAD_MAX_BYTES). */
  readonly maxUploadBytes: number;
  /** Stores the bytes under `key` (replacing an object there), counting and hashing while streaming. */
  put(key: string, body: Readable | Uint8Array, options: PutObjectOptions): Promise<StoredObject>;
  /** The object's description, or null when there is none. */
  head(key: string): Promise<StoredObject | null>;
  /** The object with a stream of its bytes, or null when there is none. */
  get(key: string): Promise<StoredObjectStream | null>;
  /** Removes the object; false when there was none. */
  delete(key: string): Promise<boolean>;
  /**
   * Every object whose key lies below `prefix` (whole segments: `claims/attachments` lists
   * `claims/attachments/…`, not `claims/attachments-old/…`), in no particular order. Streams, so a
   * large store is never held in memory at once.
   */
  list(prefix: string, options?: ListObjectsOptions): AsyncIterable<ListedObject>;
  /** A signed, expiring, size-limited direct upload for one key. */
  createUploadTicket(request: UploadTicketRequest): Promise<UploadTicket>;
}

/** A key that is not `segment(/segment)*` of letters, digits, `.`, `_`, `-` (never `.`/`..`). */
export class StorageKeyError extends ApiError {
  constructor(key: string) {
    super(400, `The storage key '${key.slice(0, 80)}' is not valid.`, { code: 'invalid_storage_key' });
    this.name = 'StorageKeyError';
  }
}

/** More bytes than allowed arrived; the object was not kept. */
export class StorageLimitError extends ApiError {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(413, `The file is larger than ${formatBytes(maxBytes)}.`, {
      code: 'file_too_large',
      meta: { max_bytes: maxBytes },
    });
    this.name = 'StorageLimitError';
    this.maxBytes = maxBytes;
  }
}

/** `25 MB`, `512 KB`, `100 bytes`: binary units, as people read file sizes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.floor(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * A fresh, unguessable key under a plugin's prefix (`claims/attachments`), spread over month folders
 * so that no directory grows without bound.
 */
export function newObjectKey(prefix: string, now: Date = new Date()): string {
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return `${prefix.replace(/\/+$/, '')}/${month}/${randomUUID()}`;
}
