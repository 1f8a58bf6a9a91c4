import { firstErrorDetail, isApiRequestError } from '@atrium/sdk';

/**
 * The server's own words for a failed call: every error detail (a rate table's problems name each row
 * and column), else the client's message for the status.
 */
export function errorText(error: unknown): string {
  if (isApiRequestError(error)) {
    const details = error.errors.map((e) => e.detail).filter(Boolean);
    if (details.length > 0) return details.join('\n');
    return firstErrorDetail(error.body) ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
