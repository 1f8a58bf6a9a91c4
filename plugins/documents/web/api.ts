import { resourceClient, type ApiClient } from '@atrium/sdk';
import type { DataPoint } from '../shared/data-points.js';
import { folderShape, templateShape, type PreviewResult, type TemplateVersion } from '../shared/shapes.js';

export const foldersClient = resourceClient(folderShape);
export const templatesClient = resourceClient(templateShape);

export interface FolderItem {
  id: string;
  name: string;
  parent_id: string | null;
}
export interface TemplateItem {
  id: string;
  name: string;
  description: string;
  subject: 'policy' | 'claim';
  folder_id: string;
}

export const versionKeys = (templateId: string) => ['documents', 'versions', templateId] as const;

export const listVersions = (api: ApiClient, templateId: string) =>
  api.get<{ results: TemplateVersion[] }>(`/documents/templates/${templateId}/versions/`).then((body) => body.results);

export const createVersion = (
  api: ApiClient,
  templateId: string,
  body: { name: string; effective_date: string; description?: string },
) => api.post<TemplateVersion>(`/documents/templates/${templateId}/versions/`, body);

export const saveVersion = (api: ApiClient, id: number, body: Partial<Pick<TemplateVersion, 'source' | 'name'>>) =>
  api.patch<TemplateVersion>(`/documents/versions/${id}/`, body);

export const publishVersion = (api: ApiClient, id: number) =>
  api.post<TemplateVersion>(`/documents/versions/${id}/publish/`, {});

export const preview = (api: ApiClient, source: string, subject: 'policy' | 'claim', signal?: AbortSignal) =>
  api.post<PreviewResult>('/documents/previews/', { source, subject }, { signal });

export const previewVersion = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<PreviewResult>(`/documents/versions/${id}/preview/`, { signal });

export const listDataPoints = (api: ApiClient, subject: 'policy' | 'claim') =>
  api.get<{ results: DataPoint[] }>('/documents/data-points/', { query: { subject } }).then((body) => body.results);

/** The server's own message of a failed call (a 422 preview names the line). */
export function messageOf(error: unknown): string {
  const e = error as { errors?: { detail?: string }[]; message?: string } | null;
  return e?.errors?.[0]?.detail ?? e?.message ?? 'The request failed.';
}
