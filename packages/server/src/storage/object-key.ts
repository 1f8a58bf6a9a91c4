import path from 'node:path';
import { StorageKeyError } from '@atrium/sdk/server';

/**
 * Keys come from plugins and, through upload tickets, travel through browsers; a key only becomes a
 * file path after this check. Segments start with a letter or digit (so never `.`, `..` or a hidden
 * name), hold letters, digits, `.`, `_`, `-`, and there are at most 8 of them.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_SEGMENTS = 8;
const MAX_KEY_LENGTH = 512;

export function assertObjectKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH)
    throw new StorageKeyError(String(key));
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS || !segments.every((segment) => SEGMENT.test(segment))) {
    throw new StorageKeyError(key);
  }
  // Sidecar metadata files end in `.meta.json`; a key must never name one.
  if (key.endsWith('.meta.json')) throw new StorageKeyError(key);
}

/** The file path of a key below `root`, checked again after resolution (defence in depth). */
export function pathOfKey(root: string, key: string): string {
  assertObjectKey(key);
  const resolved = path.resolve(root, ...key.split('/'));
  if (!resolved.startsWith(path.resolve(root) + path.sep)) throw new StorageKeyError(key);
  return resolved;
}
