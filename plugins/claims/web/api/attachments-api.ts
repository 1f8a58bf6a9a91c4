import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { flatten, text } from './jsonapi.js';
import { PATHS } from './paths.js';

/**
 * The attachments integration as the Attachments tab uses it: the claim's folder tree (rooted at
 * the claim: reference_id), the files of one folder (list_view), upload into a folder, move files.
 * A failed read says 'Failed to get attachments.' (spec error catalogue).
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

export function useFolderTree(claimId: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: [...keys(claimId), 'tree'],
    queryFn: ({ signal }) =>
      orFailed(
        api
          .get<{ data: unknown }>(PATHS.folderTree(claimId), { jsonApi: true, signal })
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
        api
          .get<{ data: unknown[] }>(PATHS.attachment(folderId!), {
            jsonApi: true,
            signal,
            query: { list_view: 'true', reference_id: claimId },
          })
          .then((doc) =>
            (doc.data ?? []).map((r): AttachmentFile => {
              const f = flatten(r as Parameters<typeof flatten>[0]);
              return {
                id: f.id,
                name: text(f.name ?? f.title),
                mime_type: text(f.mime_type),
                size: typeof f.size === 'number' ? f.size : null,
                is_folder: f.is_folder === true,
                date_added: text(f.date_added).slice(0, 10),
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

export function uploadAttachment(api: ApiClient, claimId: string, folderId: string, file: File) {
  const form = new FormData();
  form.append('file', file);
  form.append('folder', folderId);
  form.append('reference_id', claimId);
  return api.post(PATHS.attachments, form);
}

export function moveAttachments(api: ApiClient, targetFolderId: string, attachmentIds: string[]) {
  return api.patch(PATHS.moveAttachments(targetFolderId), { attachment_ids: attachmentIds.map(Number) });
}
