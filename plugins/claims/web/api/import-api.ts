import { useQuery } from '@tanstack/react-query';
import {
  useApiClient,
  type ApiClient,
  type JobStatusReport,
  type JsonApiDocument,
  type JsonApiResource,
} from '@atrium/sdk';

/**
 * Import Historical Claims (server: plugins/claims/server/import/routes.ts, docs/claims-import.md):
 * the template, the dry-run preview, starting a run, reading runs and their claims, and resuming
 * an interrupted run.
 */
const BASE = '/claims/imports';

export const IMPORT_PATHS = {
  template: `${BASE}/template/`,
  preview: `${BASE}/preview/`,
  runs: `${BASE}/`,
  run: (id: string) => `${BASE}/${id}/`,
  runClaims: (id: string) => `${BASE}/${id}/claims/`,
  resume: (id: string) => `${BASE}/${id}/resume/`,
};

export interface ImportProblem {
  row: number | null;
  column: string | null;
  claim_number: string | null;
  message: string;
}

export interface ImportPreview {
  file_name: string;
  format: string;
  can_import: boolean;
  rows: number;
  claims: number;
  claims_to_import: number;
  claims_skipped: number;
  claims_with_problems: number;
  exposures: number;
  entries: number;
  totals: { reserve_outstanding: string; paid: string; recovered: string; total_incurred: string };
  problems_count: number;
  problems: ImportProblem[];
}

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ImportRun {
  id: string;
  file_name: string;
  status: RunStatus;
  /** Running without progress for two minutes: its process stopped; a resume finishes it. */
  interrupted: boolean;
  progress: string;
  created_by: string;
  created_at: string;
  finished_at: string | null;
  claims_total: number;
  claims_processed: number;
  claims_imported: number;
  claims_skipped: number;
  claims_failed: number;
  exposures_imported: number;
  entries_imported: number;
  problems: ImportProblem[];
  error: string | null;
}

export interface ImportRunClaim {
  id: string;
  claim_number: string;
  outcome: 'imported' | 'skipped' | 'failed';
  claim_id: number | null;
  first_row: number;
  exposures: number;
  entries: number;
  detail: string | null;
}

const flat = <T>(resource: JsonApiResource) => ({ id: resource.id, ...resource.attributes }) as T;

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

/** The dry run: what importing the file would do, with every problem. Writes nothing. */
export async function previewImport(api: Pick<ApiClient, 'post'>, file: File): Promise<ImportPreview> {
  const document = await api.post<JsonApiDocument<JsonApiResource>>(IMPORT_PATHS.preview, fileForm(file));
  return document.data.attributes as unknown as ImportPreview;
}

/** Confirms: the server keeps the file as a queued run and its job imports it. */
export async function startImport(api: Pick<ApiClient, 'post'>, file: File): Promise<ImportRun> {
  return flat<ImportRun>((await api.post<JsonApiDocument<JsonApiResource>>(IMPORT_PATHS.runs, fileForm(file))).data);
}

export async function fetchImportRun(api: Pick<ApiClient, 'get'>, id: string): Promise<ImportRun> {
  return flat<ImportRun>(
    (await api.get<JsonApiDocument<JsonApiResource>>(IMPORT_PATHS.run(id), { jsonApi: true })).data,
  );
}

/** Queues an interrupted run's job again (409 when the run is not interrupted). */
export async function resumeImport(api: Pick<ApiClient, 'post'>, id: string): Promise<ImportRun> {
  return flat<ImportRun>(
    (await api.post<JsonApiDocument<JsonApiResource>>(IMPORT_PATHS.resume(id), undefined, { jsonApi: true })).data,
  );
}

/**
 * A run as the SDK's job runner machine reads it: queued → NEW, running → IN_PROGRESS, else
 * finished — an interrupted run too (INTERRUPTED), so the page stops following it and offers Resume.
 */
export function toJobReport(run: ImportRun): JobStatusReport & { run: ImportRun } {
  const status = run.interrupted
    ? 'INTERRUPTED'
    : run.status === 'queued'
      ? 'NEW'
      : run.status === 'running'
        ? 'IN_PROGRESS'
        : run.status.toUpperCase();
  return { status, progress: run.progress, run };
}

/** Queued or running and making progress: worth polling. An interrupted run changes only when resumed. */
export const isActive = (run: ImportRun) => run.status === 'queued' || (run.status === 'running' && !run.interrupted);

/** Import runs, newest first; refreshed every few seconds while one of them is active (a resume makes it so). */
export function useImportRuns(enabled = true) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'imports'],
    // Without claims:import the list is a 403, which the API client answers by leaving for /forbidden.
    enabled,
    queryFn: async ({ signal }) =>
      (await api.get<JsonApiDocument<JsonApiResource[]>>(IMPORT_PATHS.runs, { jsonApi: true, signal })).data.map((r) =>
        flat<ImportRun>(r),
      ),
    refetchInterval: (query) => (query.state.data?.some(isActive) ? 3000 : false),
  });
}

export function useImportRunClaims(id: string | null, refreshKey: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['claims-module', 'imports', id, 'claims', refreshKey],
    enabled: id !== null,
    queryFn: async ({ signal }) =>
      (await api.jsonApiFetchAll(IMPORT_PATHS.runClaims(id!), { signal })).data.map((r) => flat<ImportRunClaim>(r)),
  });
}

/** Downloads the template with the user's token (a plain link would carry none). */
export async function downloadTemplate(api: ApiClient): Promise<void> {
  let blob: Promise<Blob> | undefined;
  await api.get(IMPORT_PATHS.template, {
    headers: { Accept: 'text/csv, */*' },
    onResponse: (response) => {
      if (response.ok) blob = response.clone().blob();
    },
  });
  if (!blob) return;
  const url = URL.createObjectURL(await blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = 'historical-claims-template.csv';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
