import { createHash, randomBytes } from 'node:crypto';
import { count, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachment } from '../../server/core/tables.js';
import {
  detailOf,
  doc,
  pointersOf,
  startClaimsServer,
  type Caller,
  type ClaimsTestServer,
} from './claims-test-server.js';

/**
 * Attachments on the platform object storage: a direct upload with a ticket, registering the stored
 * file, download with its headers, delete (row and object), the limits, and rows from before object
 * storage that still carry their bytes in the database.
 */
let server: ClaimsTestServer;
let adjuster: Caller;
let underwriter: Caller;
let folderId: number;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Ticket {
  url: string;
  fields: Record<string, string>;
  storage_key: string;
  max_bytes: number;
  expires_at: string;
}

async function ticketFor(name: string, mimeType: string, size: number): Promise<Ticket> {
  const response = await adjuster(
    'POST',
    '/integrations/attachments/upload-tickets/',
    doc('attachment-upload', { name, mime_type: mimeType, size, folder_id: folderId }),
  );
  expect(response.status).toBe(201);
  return (await response.json()).data.attributes as Ticket;
}

/** The browser's part: the ticket's fields, then the file, no Authorization header. */
function upload(ticket: Pick<Ticket, 'url' | 'fields'>, bytes: Uint8Array, fileName = 'file.bin') {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  return server.fetch(ticket.url, { method: 'POST', body: form });
}

const attachmentRows = async () => (await server.atrium.database.db.select({ n: count() }).from(attachment))[0]!.n;

beforeAll(async () => {
  server = await startClaimsServer();
  adjuster = await server.as('adjuster@atrium.test');
  underwriter = await server.as('underwriter@atrium.test');
  const folder = await adjuster(
    'POST',
    '/integrations/attachments/',
    doc('attachment-folder', { name: 'Storage', reference_id: 'REF-STORAGE' }),
  );
  folderId = Number((await folder.json()).data.id);
}, 120_000);
afterAll(async () => server?.close());

describe('attachments on object storage', () => {
  it('uploads directly with a ticket, registers, downloads the same bytes with headers, deletes row and object', async () => {
    const bytes = new Uint8Array(randomBytes(300_000));
    const name = 'Schaden "Foto"\r\n\u00fcbersicht.pdf';
    const ticket = await ticketFor(name, 'application/pdf', bytes.length);
    expect(ticket.url).toBe('/api/storage/uploads/');
    expect(ticket.max_bytes).toBe(bytes.length);
    expect(ticket.storage_key).toMatch(/^claims\/attachments\/\d{4}-\d{2}\/[0-9a-f-]{36}$/);

    const uploaded = await upload(ticket, bytes);
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toEqual({
      key: ticket.storage_key,
      size: bytes.length,
      sha256: sha256(bytes),
      content_type: 'application/pdf',
    });

    const created = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name, storage_key: ticket.storage_key, folder_id: folderId }),
    );
    expect(created.status).toBe(201);
    const file = (await created.json()).data;
    expect(file.attributes).toMatchObject({
      name,
      mime_type: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    const [row] = await server.atrium.database.db
      .select()
      .from(attachment)
      .where(eq(attachment.id, Number(file.id)));
    expect(row).toMatchObject({ storageKey: ticket.storage_key, sha256: sha256(bytes), content: null });

    const again = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'twice.pdf', storage_key: ticket.storage_key, folder_id: folderId }),
    );
    expect(again.status).toBe(409);
    expect(await detailOf(again)).toBe('This file is already attached.');
    const replaced = await upload(ticket, new Uint8Array([1, 2, 3]));
    expect(replaced.status).toBe(409);
    expect(((await replaced.json()) as { detail: string }).detail).toBe('This upload ticket has already been used.');

    const download = await underwriter('GET', `/integrations/attachments/${file.id}/content/`, undefined, {
      accept: '*/*',
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Schaden _Foto____bersicht.pdf"; filename*=UTF-8''Schaden%20%22Foto%22%0D%0A%C3%BCbersicht.pdf`,
    );
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);

    expect((await underwriter('DELETE', `/integrations/attachments/${file.id}`)).status).toBe(403);
    expect(await server.atrium.storage.head(ticket.storage_key)).not.toBeNull();
    expect((await adjuster('DELETE', `/integrations/attachments/${file.id}`)).status).toBe(204);
    expect(await server.atrium.storage.head(ticket.storage_key)).toBeNull();
    const gone = await adjuster('GET', `/integrations/attachments/${file.id}/content/`, undefined, { accept: '*/*' });
    expect(gone.status).toBe(404);
  });

  it('stores a base64 upload in object storage too', async () => {
    const created = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', {
        name: 'note.txt',
        mime_type: 'text/plain',
        content: Buffer.from('hello storage').toString('base64'),
        folder_id: folderId,
      }),
    );
    expect(created.status).toBe(201);
    const id = Number((await created.json()).data.id);
    const [row] = await server.atrium.database.db.select().from(attachment).where(eq(attachment.id, id));
    expect(row!.content).toBeNull();
    expect(await server.atrium.storage.head(row!.storageKey!)).toMatchObject({ size: 13, sha256: row!.sha256 });
    const download = await adjuster('GET', `/integrations/attachments/${id}/content/`, undefined, { accept: '*/*' });
    expect(await download.text()).toBe('hello storage');
  });

  it('refuses a file over its ticket or the configured limit, keeping no object and no row', async () => {
    const rowsBefore = await attachmentRows();
    const ticket = await ticketFor('small.bin', 'application/octet-stream', 10);
    const over = await upload(ticket, new Uint8Array(randomBytes(11)));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { detail: string }).detail).toBe('The file is larger than 10 bytes.');
    expect(await server.atrium.storage.head(ticket.storage_key)).toBeNull();
    const unregistered = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'small.bin', storage_key: ticket.storage_key, folder_id: folderId }),
    );
    expect(unregistered.status).toBe(400);
    expect(await pointersOf(unregistered)).toEqual(['/data/attributes/storage_key']);

    const limit = server.atrium.storage.maxUploadBytes;
    const tooBigTicket = await adjuster(
      'POST',
      '/integrations/attachments/upload-tickets/',
      doc('attachment-upload', { name: 'huge.bin', mime_type: 'video/mp4', size: limit + 1, folder_id: folderId }),
    );
    expect(tooBigTicket.status).toBe(413);
    expect((await tooBigTicket.json()).errors).toEqual([
      expect.objectContaining({
        detail: 'The file is larger than 25 MB.',
        source: { pointer: '/data/attributes/size' },
      }),
    ]);

    // A ticket for the largest file cannot carry one byte more, whatever the form says.
    const largest = await ticketFor('largest.bin', 'application/octet-stream', limit);
    const oneMore = await upload(largest, new Uint8Array(limit + 1));
    expect(oneMore.status).toBe(413);
    expect(((await oneMore.json()) as { detail: string }).detail).toBe('The file is larger than 25 MB.');
    expect(await server.atrium.storage.head(largest.storage_key)).toBeNull();
    expect(await attachmentRows()).toBe(rowsBefore);
  });

  it('refuses forged, tampered, expired and ticketless uploads with 4xx', async () => {
    const ticket = await ticketFor('a.txt', 'text/plain', 5);
    const policy = JSON.parse(Buffer.from(ticket.fields.policy!, 'base64url').toString('utf8'));
    const widened = Buffer.from(JSON.stringify({ ...policy, max_bytes: 10 ** 9 })).toString('base64url');
    const tampered = await upload(
      { url: ticket.url, fields: { ...ticket.fields, policy: widened } },
      new Uint8Array(5),
    );
    expect(tampered.status).toBe(403);
    expect(((await tampered.json()) as { detail: string }).detail).toBe(
      'The upload signature does not match its policy.',
    );
    const otherKey = await upload(
      { url: ticket.url, fields: { ...ticket.fields, key: 'claims/attachments/2026-01/someone-elses' } },
      new Uint8Array(5),
    );
    expect(otherKey.status).toBe(403);
    const bare = await upload({ url: ticket.url, fields: {} }, new Uint8Array(5));
    expect(bare.status).toBe(400);
    const notMultipart = await server.fetch(ticket.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notMultipart.status).toBe(400);
    expect(((await notMultipart.json()) as { detail: string }).detail).toBe(
      'The upload must be multipart/form-data with a boundary.',
    );

    const shortLived = await server.atrium.storage.createUploadTicket({
      key: 'claims/attachments/test/expiring',
      contentType: 'text/plain',
      expiresInSeconds: 1,
    });
    while (Date.now() < Date.parse(shortLived.expiresAt)) await new Promise((resolve) => setTimeout(resolve, 100));
    const expired = await upload(shortLived, new Uint8Array(5));
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toBe(
      'The upload ticket has expired; ask for a new one.',
    );
    expect(await server.atrium.storage.head('claims/attachments/test/expiring')).toBeNull();

    const outside = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'x', storage_key: '../../etc/passwd', folder_id: folderId }),
    );
    expect(outside.status).toBe(400);
    expect(await pointersOf(outside)).toEqual(['/data/attributes/storage_key']);
    const both = await adjuster(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'x', mime_type: 'text/plain', content: 'aGk=', storage_key: 'k', folder_id: folderId }),
    );
    expect(await pointersOf(both)).toEqual(['/data/attributes/storage_key']);
    const noTicketRight = await underwriter(
      'POST',
      '/integrations/attachments/upload-tickets/',
      doc('attachment-upload', { name: 'a', mime_type: 'text/plain', size: 1, folder_id: folderId }),
    );
    expect(noTicketRight.status).toBe(403);
  });

  it('still serves rows from before object storage from their content column', async () => {
    const bytes = Buffer.from('bytes kept in the database');
    const [old] = await server.atrium.database.db
      .insert(attachment)
      .values({
        folderId,
        name: 'legacy.txt',
        mimeType: 'text/plain',
        size: bytes.length,
        content: bytes,
        uploadedBy: 'adjuster@atrium.test',
      })
      .returning({ id: attachment.id });
    const download = await adjuster('GET', `/integrations/attachments/${old!.id}/content/`, undefined, {
      accept: '*/*',
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="legacy.txt"; filename*=UTF-8''legacy.txt`,
    );
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
    const listed = await (await adjuster('GET', `/integrations/attachments/${folderId}/`)).json();
    expect(listed.data.find((a: { id: string }) => a.id === String(old!.id)).attributes).toMatchObject({
      size: bytes.length,
      sha256: null,
    });
    expect((await adjuster('DELETE', `/integrations/attachments/${old!.id}`)).status).toBe(204);
  });

  it('seeds the demo attachments into object storage', async () => {
    const [demo] = await server.atrium.database.db
      .select()
      .from(attachment)
      .where(isNotNull(attachment.storageKey))
      .orderBy(attachment.id)
      .limit(1);
    expect(demo).toMatchObject({ name: 'fnol-note.txt', content: null });
    const download = await adjuster('GET', `/integrations/attachments/${demo!.id}/content/`, undefined, {
      accept: '*/*',
    });
    const body = Buffer.from(await download.arrayBuffer());
    expect(body.toString('utf8')).toMatch(/^First notice of loss for .+\.\n$/);
    expect(demo!.sha256).toBe(sha256(body));
  });
});
