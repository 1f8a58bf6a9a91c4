import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { flatten, resourceBody, text } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The attachments integration as the Attachments tab uses it: the claim's folder tree (rooted at the
 * claim's `exposures_folder_id`), the files of one folder, upload into a folder (a direct upload with
 * a ticket, so the bytes never pass through JSON; see docs/storage.md), move files. A failed read
 * says 'Failed to get attachments.'.
 */
export const ATTACHMENTS_FAILED = 'Failed to get attachments.';

export interface FolderNode {
  id: string;
  name: string;
  children: FolderNode[];
}

export interface AttachmentFile {
  id: string;
  name: string;
  mime_type: string;
  size: number | null;
  is_folder: boolean;
  date_added: string;
}

function toFolder(raw: Record<string, unknown>): FolderNode {
  const attributes = (raw.attributes ?? raw) as Record<string, unknown>;
  const children = (attributes.children ?? raw.children ?? []) as Record<string, unknown>[];
  return { id: text(raw.id), name: text(attributes.name), children: children.map(toFolder) };
}

async function orFailed<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch {
    throw new Error(ATTACHMENTS_FAILED);
  }
}

const keys = (claimId: string) => ['claims-module', 'attachments', claimId] as const;

export function useFolderTree(claimId: string, rootFolderId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...keys(claimId), 'tree', rootFolderId],
    enabled: !!rootFolderId,
    queryFn: ({ signal }) =>
      orFailed(
        api
          .get<{ data: unknown }>(PATHS.folderTree(rootFolderId!), { jsonApi: true, signal })
          .then((doc) =>
            (Array.isArray(doc.data) ? doc.data : [doc.data]).map((n) => toFolder(n as Record<string, unknown>)),
          ),
      ),
  });
}

export function useFolderFiles(claimId: string, folderId: string | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...keys(claimId), 'folder', folderId],
    enabled: !!folderId,
    queryFn: ({ signal }) =>
      orFailed(
        api.get<{ data: unknown[] }>(PATHS.attachment(folderId!), { jsonApi: true, signal }).then((doc) =>
          (doc.data ?? []).map((r): AttachmentFile => {
            const f = flatten(r as Parameters<typeof flatten>[0]);
            return {
              id: f.id,
              name: text(f.name),
              mime_type: text(f.mime_type),
              size: typeof f.size === 'number' ? f.size : null,
              is_folder: f.type === 'attachment-folder',
              date_added: text(f.created_at).slice(0, 10),
            };
          }),
        ),
      ),
  });
}

/** Deletes one attachment (its stored file goes with it). */
export async function deleteAttachment(api: ApiClient, id: string): Promise<void> {
  await api.delete(PATHS.attachment(id), { jsonApi: true });
}

export function useAttachmentsChanged(claimId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys(claimId) });
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

interface UploadTicket {
  url: string;
  fields: Record<string, string>;
  storage_key: string;
}

const UPLOAD_FAILED = 'The upload failed; check the connection and try again.';

/** The detail of an upload route's refusal (problem JSON), else a general message. */
function refusalOf(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    if (typeof parsed.detail === 'string' && parsed.detail) return parsed.detail;
  } catch {
    // not JSON (an S3-style XML answer, a proxy's page): fall through
  }
  return `${UPLOAD_FAILED} (HTTP ${status})`;
}

/**
 * The browser's half of a direct upload: the ticket's fields first, the file last, and no
 * Authorization header (the ticket's signature authorises it). XMLHttpRequest rather than fetch,
 * because only it reports upload progress.
 */
function postToTicket(ticket: UploadTicket, file: File, onProgress?: (progress: UploadProgress) => void) {
  return new Promise<void>((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
    form.append('file', file, file.name);
    const request = new XMLHttpRequest();
    request.open('POST', ticket.url);
    request.upload.onprogress = (event) =>
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve()
        : reject(new Error(refusalOf(request.status, request.responseText)));
    request.onerror = () => reject(new Error(UPLOAD_FAILED));
    request.send(form);
  });
}

/**
 * Uploads a file into a folder: a ticket for it (refused with the server's limit when too large),
 * the bytes straight to storage, then the attachment record pointing at them.
 */
export async function uploadAttachment(
  api: ApiClient,
  folderId: string,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
) {
  const mimeType = file.type || 'application/octet-stream';
  const issued = await api.post<{ data: { attributes: UploadTicket } }>(
    `${PATHS.attachments}upload-tickets/`,
    resourceBody('attachment-upload', {
      name: file.name,
      mime_type: mimeType,
      size: file.size,
      folder_id: Number(folderId),
    }),
    { jsonApi: true },
  );
  const ticket = issued.data.attributes;
  await postToTicket(ticket, file, onProgress);
  return api.post(
    PATHS.attachments,
    resourceBody('attachment', {
      name: file.name,
      mime_type: mimeType,
      storage_key: ticket.storage_key,
      folder_id: Number(folderId),
    }),
    { jsonApi: true },
  );
}

export function moveAttachments(api: ApiClient, targetFolderId: string, attachmentIds: string[]) {
  return api.patch(
    PATHS.moveAttachments(targetFolderId),
    { data: attachmentIds.map((id) => ({ type: 'attachment', id })) },
    { jsonApi: true },
  );
}
