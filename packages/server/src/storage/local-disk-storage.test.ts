import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageKeyError, StorageLimitError } from '@atrium/sdk/server';
import { LocalDiskStorage } from './local-disk-storage.js';
import { UploadTicketSigner } from './upload-ticket.js';

let root: string;
let storage: LocalDiskStorage;
const signer = new UploadTicketSigner(randomBytes(32));

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'atrium-storage-'));
  storage = new LocalDiskStorage(root, { maxUploadBytes: 1024, signer });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('local-disk object storage', () => {
  it('stores, describes, reads and deletes an object with its SHA-256', async () => {
    const bytes = Buffer.from('first notice of loss\n');
    const stored = await storage.put('claims/attachments/a1', Readable.from([bytes]), { contentType: 'text/plain' });
    expect(stored).toMatchObject({ key: 'claims/attachments/a1', size: bytes.length, contentType: 'text/plain' });
    expect(stored.sha256).toBe(sha256(bytes));
    expect(await readFile(path.join(root, 'objects', 'claims', 'attachments', 'a1'))).toEqual(bytes);
    const head = await storage.head('claims/attachments/a1');
    expect(head).toMatchObject({ size: bytes.length, sha256: sha256(bytes), contentType: 'text/plain' });
    const read = await storage.get('claims/attachments/a1');
    expect(await text(read!.body)).toBe('first notice of loss\n');
    expect(await storage.delete('claims/attachments/a1')).toBe(true);
    expect(await storage.head('claims/attachments/a1')).toBeNull();
    expect(await storage.get('claims/attachments/a1')).toBeNull();
    expect(await storage.delete('claims/attachments/a1')).toBe(false);
  });

  it('refuses keys that would leave the directory or name hidden files', async () => {
    for (const key of [
      '../outside',
      'a/../../outside',
      '/etc/passwd',
      'a//b',
      'a/./b',
      '.hidden',
      'a/..',
      'a\\..\\b',
      '',
      'x.meta.json',
      'a/b/c/d/e/f/g/h/i',
    ]) {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' }), key).rejects.toBeInstanceOf(
        StorageKeyError,
      );
      await expect(storage.get(key), key).rejects.toMatchObject({ status: 400 });
      await expect(storage.delete(key), key).rejects.toMatchObject({ status: 400 });
    }
    expect(readdirSync(root)).not.toContain('outside');
  });

  it('refuses more bytes than allowed and keeps neither the object nor a temporary file', async () => {
    const chunks = [randomBytes(600), randomBytes(600)];
    const refused = storage.put('big', Readable.from(chunks), { contentType: 'application/octet-stream' });
    await expect(refused).rejects.toBeInstanceOf(StorageLimitError);
    await expect(refused).rejects.toMatchObject({ status: 413, message: 'The file is larger than 1 KB.' });
    expect(await storage.head('big')).toBeNull();
    expect(readdirSync(path.join(root, 'tmp'))).toEqual([]);
    // A smaller per-call limit wins over the store's.
    await expect(storage.put('small', Buffer.alloc(11), { contentType: 'text/plain', maxBytes: 10 })).rejects.toThrow(
      'The file is larger than 10 bytes.',
    );
    expect(await storage.put('exact', Buffer.alloc(1024), { contentType: 'text/plain' })).toMatchObject({ size: 1024 });
  });

  it('replaces an object atomically: a failed write leaves the previous bytes whole', async () => {
    await storage.put('doc', Buffer.from('version one'), { contentType: 'text/plain' });
    const failing = new Readable({
      read() {
        this.push(Buffer.from('half of version two'));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('doc', failing, { contentType: 'text/plain' })).rejects.toThrow('client went away');
    const read = await storage.get('doc');
    expect(await text(read!.body)).toBe('version one');
    expect(read!.sha256).toBe(sha256('version one'));
    expect(readdirSync(path.join(root, 'tmp'))).toEqual([]);
    await storage.put('doc', Buffer.from('version two'), { contentType: 'text/markdown' });
    const replaced = await storage.get('doc');
    expect(await text(replaced!.body)).toBe('version two');
    expect(replaced!.contentType).toBe('text/markdown');
  });

  it('treats bytes without their metadata (a crash between the renames) as absent', async () => {
    await storage.put('orphan', Buffer.from('bytes'), { contentType: 'text/plain' });
    rmSync(path.join(root, 'objects', 'orphan.meta.json'));
    expect(await storage.head('orphan')).toBeNull();
    expect(await storage.get('orphan')).toBeNull();
  });

  it('makes upload tickets capped at the store limit, for valid keys only', async () => {
    const ticket = await storage.createUploadTicket({ key: 'claims/x', contentType: 'image/png', maxBytes: 10_000 });
    expect(ticket).toMatchObject({ url: '/api/storage/uploads/', key: 'claims/x', maxBytes: 1024 });
    expect(Object.keys(ticket.fields).sort()).toEqual(['Content-Type', 'key', 'policy', 'signature']);
    expect(signer.verify(ticket.fields)).toMatchObject({ key: 'claims/x', content_type: 'image/png', max_bytes: 1024 });
    await expect(storage.createUploadTicket({ key: '../x', contentType: 'image/png' })).rejects.toBeInstanceOf(
      StorageKeyError,
    );
  });
});
