import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { flatten, resourceBody, text } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The attachments integration as the Attachments tab uses it: the claim's folder tree (rooted at the
 * claim's `exposures_folder_id`), the files of one folder, upload into a folder (JSON:API, the bytes
 * base64-encoded, at most 5 MB), move files. A failed read says 'Failed to get attachments.'.
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

export function useAttachmentsChanged(claimId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys(claimId) });
}

/** The service takes at most 5 MB a file. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function uploadAttachment(api: ApiClient, folderId: string, file: File) {
  if (file.size > MAX_UPLOAD_BYTES) throw new Error('The file is larger than 5 MB.');
  return api.post(
    PATHS.attachments,
    resourceBody('attachment', {
      name: file.name,
      mime_type: file.type || 'application/octet-stream',
      content: await base64Of(file),
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
