import { firstErrorDetail, isApiRequestError, type QueryParams } from '@atrium/sdk';

/**
 * Small helpers the Lines API hooks share. The server speaks snake_case REST (spec section 7, base
 * /api/lines with a `version_id` query); readers accept camelCase too so a renamed key is one fix.
 */
export const LINES_API = '/lines';

export type Json = Record<string, unknown>;

export const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** The first present key (snake or camel spelling). */
export function field(record: Json, ...keys: string[]): unknown {
  for (const key of keys) if (record[key] !== undefined) return record[key];
  return undefined;
}

export const str = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
export const num = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null;
export const bool = (value: unknown): boolean => value === true || value === 'true';

/** A list from a bare array, `{ results }`, `{ data }` or `{ items }`. */
export function listOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const record = asRecord(body);
  for (const key of ['results', 'data', 'items']) if (Array.isArray(record[key])) return record[key] as unknown[];
  return [];
}

export const versionQuery = (versionId: number | null | undefined): QueryParams =>
  versionId ? { version_id: versionId } : {};

/**
 * The server's own words for a failed call, in full: every error detail joined (a refused publish
 * lists each failing known-answer case), else the client's message (which already maps 401/403/404).
 */
export function serverMessage(error: unknown): string {
  if (isApiRequestError(error)) {
    const details = error.errors.map((e) => e.detail).filter(Boolean);
    if (details.length) return details.join('\n');
    if (
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 401 &&
      error.status !== 403 &&
      error.status !== 404
    )
      return firstErrorDetail(error.body) ?? error.message;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
