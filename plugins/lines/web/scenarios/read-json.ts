/**
 * Tolerant readers for the Lines API's answers, shared by the rating screens' API files (rate tables,
 * calculations, scenarios). The server speaks snake_case with some camelCase fields named by the
 * spec (rowsCount, validityState); `pick` accepts either spelling so a renamed key is one fix.
 */
export type Json = Record<string, unknown>;

export const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** The first present key. */
export function pick(record: Json, ...keys: string[]): unknown {
  for (const key of keys) if (record[key] !== undefined) return record[key];
  return undefined;
}

export const str = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

export const num = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : null;

/** A list from a bare array, `{ results }`, `{ data }` or `{ items }`. */
export function listOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const record = asRecord(body);
  for (const key of ['results', 'data', 'items']) if (Array.isArray(record[key])) return record[key] as unknown[];
  return [];
}
