import { firstErrorDetail, isApiRequestError } from '@atrium/sdk';

/** `2026-07-01` → `Jul 1, 2026` (a calendar date, shown in UTC so it never shifts a day). */
export function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

/**
 * What the server said about a refused call (its problem's detail, e.g. a 409's reason), rather than
 * the client's generic message for the status ('Service unavailable' for a 409).
 */
export function serverMessage(error: unknown): string {
  if (isApiRequestError(error)) {
    const detail = error.errors.find((e) => e.detail)?.detail ?? firstErrorDetail(error.body);
    if (detail && error.status !== 0 && error.status < 500) return detail;
  }
  return error instanceof Error ? error.message : String(error);
}
