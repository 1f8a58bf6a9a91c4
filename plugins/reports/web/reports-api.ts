import type { ApiClient } from '@atrium/sdk';
import type { PaymentsJson, ReportId, ReportOptionsJson, ReportRunJson } from '../shared/report-definitions.js';

export const reportKeys = {
  options: ['reports', 'options'] as const,
  available: ['reports', 'available'] as const,
  payments: ['reports', 'payments'] as const,
};

export const startRun = (api: ApiClient, report: ReportId, filters: Record<string, unknown>) =>
  api.post<ReportRunJson>('/reports/runs/', { report, filters });

export const getRun = (api: ApiClient, id: number) => api.get<ReportRunJson>(`/reports/runs/${id}/`);

export const getOptions = (api: ApiClient, signal?: AbortSignal) =>
  api.get<ReportOptionsJson>('/reports/options/', { signal });

export const getAvailable = (api: ApiClient, signal?: AbortSignal) =>
  api.get<{ reports: ReportId[] }>('/reports/available/', { signal });

export const getPayments = (api: ApiClient, signal?: AbortSignal) =>
  api.get<PaymentsJson>('/reports/payments/', { signal });

/** How long the object URL outlives the click: the browser has taken the bytes over by then. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Downloads a finished run as CSV or XLSX. The export needs the bearer token, which a plain link
 * would not send: the bytes come through the API client and are saved through an object URL.
 */
export async function downloadRun(api: ApiClient, run: ReportRunJson, format: 'csv' | 'xlsx'): Promise<void> {
  const { blob, fileName } = await api.getBlob(`/reports/runs/${run.id}/export/`, { query: { format } });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName ?? `report.${format}`;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
