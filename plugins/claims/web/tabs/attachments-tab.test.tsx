// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { preloadTestHost, renderInTestHost } from '@atrium/sdk/testing';
import type { Claim } from '../api/claims-api.js';
import { AttachmentsTab } from './attachments-tab.js';

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
const doc = (data: unknown, status = 200) =>
  new Response(JSON.stringify({ data, meta: { count: Array.isArray(data) ? data.length : 1, pages: 1 } }), {
    status,
    headers: JSONAPI,
  });

const claim = { id: '7', number: 'CLM-7', status: 'open', exposures_folder_id: 40 } as unknown as Claim;
const note = {
  type: 'attachment',
  id: '12',
  attributes: { name: 'fnol-note.txt', mime_type: 'text/plain', size: 21, created_at: '2025-03-01T10:00:00Z' },
};
const bytes = 'First notice of loss\n';

function attachmentsApis(content: (request: { headers: Headers }) => Response) {
  return {
    'GET /claims/integrations/attachments/:id/folder-tree/': () =>
      doc({ type: 'attachment-folder', id: '40', attributes: { name: 'CLM-7', children: [] } }),
    'GET /claims/integrations/attachments/:id/content/': content,
    'GET /claims/integrations/attachments/:id/': () => doc([note]),
  };
}

// jsdom has no object URLs; each test puts fakes in and the originals (if any) go back after it.
const originalUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
function fakeObjectUrls(url: string) {
  const created: Blob[] = [];
  const createObjectURL = vi.fn((blob: Blob) => {
    created.push(blob);
    return url;
  });
  const revokeObjectURL = vi.fn();
  Object.assign(URL, { createObjectURL, revokeObjectURL });
  return { created, createObjectURL, revokeObjectURL };
}

afterEach(() => {
  Object.assign(URL, originalUrls);
  vi.restoreAllMocks();
});

describe('attachments tab: download', () => {
  beforeAll(preloadTestHost);

  it("fetches the file with the caller's token and saves it under the server's file name, then frees the URL", async () => {
    const { created, revokeObjectURL } = fakeObjectUrls('blob:http://host/download-1');
    const clicked: { href: string; download: string; attached: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, attached: this.isConnected });
    });
    // The revocation waits for the browser to take the file over; run it here instead of in 10 s.
    const delayed: (() => void)[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms === 10_000) {
        delayed.push(callback);
        return 0 as unknown as ReturnType<typeof setTimeout>;
      }
      return realSetTimeout(callback, ms, ...rest);
    }) as typeof setTimeout);

    let authorization: string | null = null;
    const host = await renderInTestHost(<AttachmentsTab claim={claim} />, {
      role: 'Claims Adjuster',
      apis: attachmentsApis(({ headers }) => {
        authorization = headers.get('authorization');
        return new Response(bytes, {
          headers: {
            'content-type': 'text/plain',
            'content-disposition': `attachment; filename="fnol-note_v2.txt"; filename*=UTF-8''FNOL%20note%20%E2%80%93%20v2.txt`,
          },
        });
      }),
    });
    const seen = host.requests;
    const files = await screen.findByRole('table', { name: 'Files' });
    await host.user.click(within(files).getByRole('button', { name: 'Download fnol-note.txt' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(seen.filter((r) => r.path.endsWith('/content/')).map((r) => r.path)).toEqual([
      '/api/claims/integrations/attachments/12/content/',
    ]);
    // A plain link could not send it: the bytes came through the API client.
    expect(authorization).toMatch(/^Bearer \S+/);
    expect(clicked[0]).toEqual({
      href: 'blob:http://host/download-1',
      download: 'FNOL note – v2.txt',
      attached: true,
    });
    expect(await created[0]!.text()).toBe(bytes);
    // The link is gone from the page at once, the URL once the browser has the file.
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revokeObjectURL).not.toHaveBeenCalled();
    delayed.forEach((run) => run());
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:http://host/download-1');
  });

  it('shows why a download failed and saves nothing', async () => {
    const { createObjectURL } = fakeObjectUrls('blob:http://host/x');
    const host = await renderInTestHost(<AttachmentsTab claim={claim} />, {
      role: 'Claims Adjuster',
      apis: attachmentsApis(
        () =>
          new Response(
            JSON.stringify({
              errors: [{ status: '400', detail: 'The file of this attachment is missing from storage.' }],
            }),
            { status: 400, headers: JSONAPI },
          ),
      ),
    });
    const files = await screen.findByRole('table', { name: 'Files' });
    await host.user.click(within(files).getByRole('button', { name: 'Download fnol-note.txt' }));
    await screen.findByText('The file of this attachment is missing from storage.');
    expect(createObjectURL).not.toHaveBeenCalled();
  });
});
