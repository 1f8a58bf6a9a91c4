import { resourceClient, type ApiClient } from '@atrium/sdk';
import type { DataPoint } from '../shared/data-points.js';
import type { FormMapping, FormPreview, ImportedDocument } from '../shared/forms.js';
import {
  folderShape,
  templateShape,
  type PreviewResult,
  type Subject,
  type TemplateVersion,
} from '../shared/shapes.js';

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
  subject: Subject;
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

/** Renders source with the subject's sample, or with a real record of the subject when `recordId` is given. */
export const preview = (
  api: ApiClient,
  source: string,
  subject: Subject,
  signal?: AbortSignal,
  recordId?: string | null,
) =>
  api.post<PreviewResult>(
    '/documents/previews/',
    recordId ? { source, record: { type: subject, id: recordId } } : { source, subject },
    { signal },
  );

export interface PreviewRecord {
  type: Subject;
  id: string;
  label: string;
}
/** Real policies, claims or quotes to preview with, by number or name (within the caller's scope). */
export const listPreviewRecords = (api: ApiClient, subject: Subject, search: string) =>
  api
    .get<{ results: PreviewRecord[] }>('/documents/data-points/records/', { query: { subject, search } })
    .then((b) => b.results);

export const previewVersion = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<PreviewResult>(`/documents/versions/${id}/preview/`, { signal });

export const listDataPoints = (api: ApiClient, subject: Subject) =>
  api.get<{ results: DataPoint[] }>('/documents/data-points/', { query: { subject } }).then((body) => body.results);

/** The server's own message of a failed call (a 422 preview names the line). */
export function messageOf(error: unknown): string {
  const e = error as { errors?: { detail?: string }[]; message?: string } | null;
  return e?.errors?.[0]?.detail ?? e?.message ?? 'The request failed.';
}

export const formKeys = {
  all: ['documents', 'imported-documents'] as const,
  one: (id: string) => ['documents', 'imported-documents', id] as const,
};

export const listForms = (api: ApiClient) =>
  api.get<{ results: ImportedDocument[] }>('/documents/imported-documents/').then((body) => body.results);

export const getForm = (api: ApiClient, id: string) =>
  api.get<ImportedDocument>(`/documents/imported-documents/${id}/`);

export const importForm = (
  api: ApiClient,
  body: {
    name: string;
    subject: string;
    folder_id: number;
    description: string;
    file_name: string;
    content_base64: string;
  },
) => api.post<ImportedDocument>('/documents/imported-documents/', body);

export const saveFormMapping = (api: ApiClient, id: number, mapping: FormMapping) =>
  api.patch<ImportedDocument>(`/documents/imported-documents/${id}/`, { mapping });

export const publishForm = (api: ApiClient, id: number) =>
  api.post<ImportedDocument>(`/documents/imported-documents/${id}/publish/`, {});

export const previewForm = (api: ApiClient, id: number, mapping?: FormMapping) =>
  api.post<FormPreview>(`/documents/imported-documents/${id}/preview/`, mapping ? { mapping } : {});

/** A file's bytes as base64 (the import route takes the PDF inside its JSON body). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export interface DeclarationsSettingsBody {
  declarations: { line: string; template_id: number }[];
  form_rules: {
    line: string;
    imported_document_id: number;
    state: string | null;
    suppress_printing: boolean;
    always_print_on_renewal: boolean;
    mortgagee_only: boolean;
  }[];
}

export const readDeclarationsSettings = (api: ApiClient) =>
  api.get<DeclarationsSettingsBody>('/documents/settings/declarations/');

export const saveDeclarationsSettings = (api: ApiClient, body: DeclarationsSettingsBody) =>
  api.put<DeclarationsSettingsBody>('/documents/settings/declarations/', body);

export interface ComponentItem {
  id: number;
  name: string;
  description: string;
  source: string;
  import_line: string;
  updated_by: string;
  updated_at: string;
}
export interface AssetItem {
  id: number;
  name: string;
  mime_type: string;
  sha256: string;
  byte_size: number;
  usage: string;
}
export const libraryKeys = {
  components: ['documents', 'components'] as const,
  assets: ['documents', 'assets'] as const,
  helpers: ['documents', 'helper-functions'] as const,
};
export const listComponents = (api: ApiClient) =>
  api.get<{ results: ComponentItem[] }>('/documents/components/').then((b) => b.results);
export const createComponent = (api: ApiClient, body: { name: string; description: string; source: string }) =>
  api.post<ComponentItem>('/documents/components/', body);
export const saveComponent = (api: ApiClient, id: number, body: { source: string }) =>
  api.patch<ComponentItem>(`/documents/components/${id}/`, body);
export const deleteComponent = (api: ApiClient, id: number) => api.delete(`/documents/components/${id}/`);
export const listAssets = (api: ApiClient) =>
  api.get<{ results: AssetItem[] }>('/documents/assets/').then((b) => b.results);
export const uploadAsset = (api: ApiClient, body: { name: string; content_base64: string }) =>
  api.post<AssetItem>('/documents/assets/', body);
export const deleteAsset = (api: ApiClient, id: number) => api.delete(`/documents/assets/${id}/`);
export const listHelpers = (api: ApiClient) =>
  api
    .get<{ results: { name: string; signature: string; description: string; example: string; result: string }[] }>(
      '/documents/helper-functions/',
    )
    .then((b) => b.results);

export type PrintState = 'not_printed' | 'queued' | 'printed';
export type EmailState = 'queued' | 'sending' | 'sent' | 'failed';
export interface ProductionDocumentItem {
  id: number;
  title: string;
  version_number: number;
  version_name: string;
  document_date: string;
  page_count: number;
  record: { type: 'policy' | 'claim' | 'quote'; id: string; label: string | null } | null;
  purpose: string | null;
  forms: string[];
  print_state: PrintState;
  print_state_by: string | null;
  print_state_at: string | null;
  email_state: EmailState | null;
  email_note: string | null;
  emailed_to: string[];
  emailed_at: string | null;
  created_by: string;
  created_at: string;
}
export const productionKeys = {
  list: (printState: PrintState | 'all') => ['documents', 'production-documents', printState] as const,
  all: ['documents', 'production-documents'] as const,
};
export const listProductionDocuments = (
  api: ApiClient,
  printState: PrintState | 'all',
  record?: { type: string; id: string } | null,
) =>
  api
    .get<{ results: ProductionDocumentItem[] }>('/documents/production-documents/', {
      query: {
        ...(printState === 'all' ? {} : { print_state: printState }),
        ...(record ? { record_type: record.type, record_id: record.id } : {}),
      },
    })
    .then((b) => b.results);
export const setPrintState = (api: ApiClient, id: number, state: PrintState) =>
  api.post<ProductionDocumentItem>(`/documents/production-documents/${id}/print-state/`, { state });
export const emailDocument = (api: ApiClient, id: number, body: { to: string[]; subject: string; message: string }) =>
  api.post<{ id: number; status: EmailState; to: string[] }>(`/documents/production-documents/${id}/emails/`, body);
