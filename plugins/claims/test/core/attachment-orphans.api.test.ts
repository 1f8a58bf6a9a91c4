import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import accessPlugin from '@atrium/plugin-access/server';
import claimsPlugin from '@atrium/plugin-claims/server';
import contactsPlugin from '@atrium/plugin-contacts/server';
import identityPlugin from '@atrium/plugin-identity/server';
import { startTestServer, type TestServer } from '@atrium/sdk/testing';
import {
  ATTACHMENT_ORPHANS_JOB,
  ORPHAN_GRACE_MS,
  sweepAttachmentOrphans,
} from '../../server/integrations/attachment-orphans-job.js';
import { detailOf, doc, JSONAPI, pointersOf } from './claims-test-server.js';

/**
 * The orphan sweep against real object storage and a real database: an upload with a ticket that
 * was never registered goes once it is older than the grace period; a registered one, a fresh one
 * and objects the server stored itself stay. The server gets a storage directory of its own, so the
 * sweep never sees the objects other test processes keep in the shared test storage.
 */
let server: TestServer;
let root: string;
let token: string;
let folderId: number;

const HOUR = 3600_000;

function call(method: string, route: string, body?: unknown) {
  return server.fetch(`/api/claims${route}`, {
    method,
    headers: {
      accept: JSONAPI,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': JSONAPI }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A ticket and the browser's upload with it: the real route, so the object is marked as a ticket upload. */
async function uploadWithTicket(name: string, bytes: string): Promise<string> {
  const issued = await call(
    'POST',
    '/integrations/attachments/upload-tickets/',
    doc('attachment-upload', { name, mime_type: 'text/plain', size: bytes.length, folder_id: folderId }),
  );
  expect(issued.status).toBe(201);
  const ticket = (await issued.json()).data.attributes as { url: string; fields: Record<string, string> };
  const form = new FormData();
  for (const [field, value] of Object.entries(ticket.fields)) form.append(field, value);
  form.append('file', new Blob([bytes]), name);
  const uploaded = await server.fetch(ticket.url, { method: 'POST', body: form });
  expect(uploaded.status).toBe(201);
  return ((await uploaded.json()) as { key: string }).key;
}

/**
 * Makes an object older by moving the time in its metadata file (the local driver's documented
 * layout, docs/storage.md): waiting a day is not an option in a test.
 */
function age(key: string, ms: number) {
  const file = path.join(root, 'objects', ...key.split('/')) + '.meta.json';
  const meta = JSON.parse(readFileSync(file, 'utf8')) as { createdAt: string };
  meta.createdAt = new Date(Date.parse(meta.createdAt) - ms).toISOString();
  writeFileSync(file, JSON.stringify(meta));
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'atrium-orphans-'));
  server = await startTestServer({
    plugins: [identityPlugin, accessPlugin, contactsPlugin, claimsPlugin],
    env: { ATRIUM_STORAGE_DIR: root },
  });
  const signIn = await server.fetch('/api/identity/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'adjuster@atrium.test', password: 'Atrium!demo1' }),
  });
  token = ((await signIn.json()) as { authentication_result: { access_token: string } }).authentication_result
    .access_token;
  const folder = await call(
    'POST',
    '/integrations/attachments/',
    doc('attachment-folder', { name: 'Orphans', reference_id: 'REF-ORPHANS' }),
  );
  folderId = Number((await folder.json()).data.id);
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('attachment orphan sweep', () => {
  it('deletes an old unregistered upload and keeps registered, fresh and server-stored objects', async () => {
    const { storage } = server.atrium;
    const orphan = await uploadWithTicket('closed-the-form.txt', 'never registered');
    const registered = await uploadWithTicket('kept.txt', 'registered');
    const created = await call(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'kept.txt', storage_key: registered, folder_id: folderId }),
    );
    expect(created.status).toBe(201);
    const fresh = await uploadWithTicket('still-filling-in.txt', 'fresh');
    // Stored by the server itself (the demo seed, base64 uploads): never a sweep candidate.
    const serverStored = 'claims/attachments/2000-01/stored-by-put';
    await storage.put(serverStored, Buffer.from('seeded'), { contentType: 'text/plain' });
    // The first two are past the grace period, the fresh one an hour short of it.
    age(orphan, ORPHAN_GRACE_MS + HOUR);
    age(registered, ORPHAN_GRACE_MS + HOUR);
    age(fresh, ORPHAN_GRACE_MS - HOUR);
    age(serverStored, 30 * ORPHAN_GRACE_MS);
    const sweepTime = Date.now();

    const result = await sweepAttachmentOrphans(
      { db: server.atrium.database.db, storage, log: server.atrium.log },
      new Date(sweepTime),
    );
    expect(result).toEqual({ checked: 2, deleted: [orphan] });
    expect(await storage.head(orphan)).toBeNull();
    expect(await storage.head(registered)).not.toBeNull();
    expect(await storage.head(fresh)).not.toBeNull();
    expect(await storage.head(serverStored)).not.toBeNull();
    // The registered file still downloads.
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    const download = await call('GET', `/integrations/attachments/${id}/content/`);
    expect(await download.text()).toBe('registered');
    // Nothing is left to do a second time.
    const again = await sweepAttachmentOrphans(
      { db: server.atrium.database.db, storage, log: server.atrium.log },
      new Date(sweepTime),
    );
    expect(again.deleted).toEqual([]);
  });

  it('refuses to register an upload so old that a sweep may be deleting it', async () => {
    const key = await uploadWithTicket('late.txt', 'late');
    age(key, ORPHAN_GRACE_MS - 30 * 60_000);
    const response = await call(
      'POST',
      '/integrations/attachments/',
      doc('attachment', { name: 'late.txt', storage_key: key, folder_id: folderId }),
    );
    expect(response.status).toBe(400);
    expect(await pointersOf(response.clone())).toEqual(['/data/attributes/storage_key']);
    expect(await detailOf(response)).toBe('This upload is too old to attach; upload the file again.');
  });

  it('schedules one sweep per hour of tickets, after their uploads have outlived the grace period', async () => {
    const db = server.atrium.database.db;
    await db.execute(sql`DELETE FROM pgboss.job WHERE name = ${ATTACHMENT_ORPHANS_JOB}`);
    const before = Date.now();
    await uploadWithTicket('one.txt', '1');
    await uploadWithTicket('two.txt', '2');
    const jobs = (
      await db.execute<{ start_after: Date | string }>(
        sql`SELECT start_after FROM pgboss.job WHERE name = ${ATTACHMENT_ORPHANS_JOB}`,
      )
    ).rows;
    // One run for both, unless the two tickets fell into two different hours.
    const hours = new Set([before, Date.now()].map((t) => Math.floor(t / HOUR))).size;
    expect(jobs).toHaveLength(hours);
    const startAfter = new Date(jobs[0]!.start_after).getTime();
    // Ticket lifetime (15 min) + grace period + the hour the run stands for + a minute.
    expect(startAfter).toBeGreaterThanOrEqual(before + 15 * 60_000 + ORPHAN_GRACE_MS + HOUR);
    expect(startAfter).toBeLessThan(Date.now() + 15 * 60_000 + ORPHAN_GRACE_MS + HOUR + 2 * 60_000);
  });
});
