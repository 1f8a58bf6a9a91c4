import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { and, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attachment, attachmentFolder, claim } from '../../plugins/claims/server/core/tables.js';
import { useE2eSession } from './browser.js';

/**
 * The claim's Attachments tab against the real server: the demo folder tree and file, its download
 * (the bytes the store holds, under the server's file name), then an upload that goes straight to
 * object storage with a ticket (no bearer token on the upload itself) and shows up in the folder
 * with its bytes intact.
 */
describe('Claims attachments', () => {
  const e2e = useE2eSession('claims-attachments');
  const { errors, signIn } = e2e;

  it('shows the demo folders and file, downloads it, uploads a file directly to storage and lists it', async () => {
    const db = e2e.server.atrium.database.db;
    // Every claim has a folder; the demo put a Photos folder with a note in some of them.
    const [withFolder] = await db
      .select({ number: claim.number })
      .from(claim)
      .innerJoin(attachmentFolder, eq(attachmentFolder.referenceId, claim.number))
      .where(and(isNotNull(claim.exposuresFolderId), eq(attachmentFolder.name, 'Photos')))
      .limit(1);
    expect(withFolder).toBeDefined();
    const page = await signIn('adjuster@atrium.test', `/claims/${encodeURIComponent(withFolder!.number)}/attachments`);
    const uploads: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/storage/uploads/')
        uploads.push({ url: request.url(), authorization: request.headers().authorization });
    });

    // react-arborist's row and the tab's own row renderer are both tree items; the inner one selects.
    await page
      .getByRole('treeitem', { name: /Photos/ })
      .last()
      .click();
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByText('fnol-note.txt').waitFor();

    // This claim's demo note (every demo claim with folders has one, each naming its claim).
    const [demo] = await db
      .select({ storageKey: attachment.storageKey })
      .from(attachment)
      .innerJoin(attachmentFolder, eq(attachmentFolder.id, attachment.folderId))
      .where(and(eq(attachment.name, 'fnol-note.txt'), eq(attachmentFolder.referenceId, withFolder!.number)));
    const expected = await buffer((await e2e.server.atrium.storage.get(demo!.storageKey!))!.body);
    expect(expected.toString('utf8')).toContain(withFolder!.number);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      files.getByRole('button', { name: 'Download fnol-note.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('fnol-note.txt');
    // The browser is shared over a connection: save the download locally rather than read its path.
    const saved = path.join(tmpdir(), `atrium-e2e-${Date.now()}-fnol-note.txt`);
    await download.saveAs(saved);
    expect(await readFile(saved)).toEqual(expected);

    const content = Buffer.from(`Repair estimate for ${withFolder!.number}\n`.repeat(2000));
    await page.locator('input[type="file"]').setInputFiles({
      name: 'repair-estimate.txt',
      mimeType: 'text/plain',
      buffer: content,
    });
    await files.getByText('repair-estimate.txt').waitFor();

    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.authorization).toBeUndefined();
    const [row] = await db
      .select()
      .from(attachment)
      .where(and(eq(attachment.name, 'repair-estimate.txt'), isNotNull(attachment.storageKey)));
    expect(row).toMatchObject({ size: content.length, mimeType: 'text/plain', content: null });
    const stored = await e2e.server.atrium.storage.get(row!.storageKey!);
    expect(await text(stored!.body)).toBe(content.toString('utf8'));
    expect(errors).toEqual([]);
  }, 120_000);
});
