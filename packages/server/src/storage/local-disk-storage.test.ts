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

  it('lists the objects below a prefix with their time and origin, older than a time if asked', async () => {
    let clock = Date.parse('2025-03-01T10:00:00Z');
    const timed = new LocalDiskStorage(root, { maxUploadBytes: 1024, signer, now: () => clock });
    await timed.put('claims/attachments/2025-03/old', Buffer.from('old'), {
      contentType: 'text/plain',
      viaUploadTicket: true,
    });
    await timed.put('claims/attachments/2025-03/seeded', Buffer.from('seed'), { contentType: 'text/plain' });
    clock += 2 * 3600_000;
    await timed.put('claims/attachments/2025-04/new', Buffer.from('new'), {
      contentType: 'text/plain',
      viaUploadTicket: true,
    });
    // Outside the prefix: a sibling whose name only starts alike, and another plugin's object.
    await timed.put('claims/attachments-old/x', Buffer.from('x'), { contentType: 'text/plain' });
    await timed.put('other/attachments/y', Buffer.from('y'), { contentType: 'text/plain' });
    // Bytes whose metadata never arrived are not an object.
    await timed.put('claims/attachments/2025-04/torn', Buffer.from('t'), { contentType: 'text/plain' });
    rmSync(path.join(root, 'objects', 'claims', 'attachments', '2025-04', 'torn.meta.json'));

    const all = [];
    for await (const object of timed.list('claims/attachments/')) all.push(object);
    expect(all.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      expect.objectContaining({
        key: 'claims/attachments/2025-03/old',
        size: 3,
        sha256: sha256('old'),
        createdAt: new Date('2025-03-01T10:00:00Z'),
        viaUploadTicket: true,
      }),
      expect.objectContaining({ key: 'claims/attachments/2025-03/seeded', viaUploadTicket: false }),
      expect.objectContaining({ key: 'claims/attachments/2025-04/new', viaUploadTicket: true }),
    ]);

    const older = [];
    for await (const object of timed.list('claims/attachments', { createdBefore: new Date(clock) })) {
      older.push(object.key);
    }
    expect(older.sort()).toEqual(['claims/attachments/2025-03/old', 'claims/attachments/2025-03/seeded']);

    const none = [];
    for await (const object of timed.list('nothing/here')) none.push(object);
    expect(none).toEqual([]);
    await expect(timed.list('../outside')[Symbol.asyncIterator]().next()).rejects.toBeInstanceOf(StorageKeyError);
  });
});
