import type { ApiClient } from '@atrium/sdk';
import { PATHS } from '../api/paths.js';

/** How long the object URL outlives the click: the browser has taken the bytes over by then. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Downloads an attachment and hands it to the browser as a file. The content route needs the
 * bearer token, which a plain link would not send, so the bytes are fetched with the API client
 * and saved through an object URL and a transient `<a download>`; the URL is revoked afterwards so
 * the blob does not stay in memory for the life of the page.
 */
export async function downloadAttachment(
  api: ApiClient,
  file: { id: string; name: string },
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const { blob, fileName } = await api.getBlob(`${PATHS.attachments}${encodeURIComponent(file.id)}/content/`, {
    signal: options.signal,
  });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    // The server's name is the stored one (renames included); the listed name if it sent none.
    link.download = fileName ?? file.name;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
