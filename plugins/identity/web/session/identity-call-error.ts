import { isApiRequestError } from '@atrium/sdk';
import type { IdentityErrorCode } from '../../shared/identity-schemas.js';

/**
 * What the web client needs from a failed identity call: the identity error code the server put in
 * its problem document (`code`), the server's own message, and the extra members some errors carry
 * (PasswordResetRequiredException's `code_delivery_details`).
 */
export interface IdentityFailure {
  /** An identity code (NotAuthorizedException …), another server code, or undefined (network, 5xx). */
  code: IdentityErrorCode | string | undefined;
  /** The server's detail, or the SDK's message for the status. */
  message: string;
  status: number;
  body: Record<string, unknown> | undefined;
}

export function identityFailureOf(error: unknown): IdentityFailure {
  if (isApiRequestError(error)) {
    const body =
      typeof error.body === 'object' && error.body !== null && !Array.isArray(error.body)
        ? (error.body as Record<string, unknown>)
        : undefined;
    const code = typeof body?.code === 'string' ? body.code : undefined;
    // 429 (LimitExceededException) would read 'Service unavailable' from the SDK; the detail says more.
    const detail = typeof body?.detail === 'string' && body.detail ? body.detail : undefined;
    return { code, message: detail ?? error.message, status: error.status, body };
  }
  return { code: undefined, message: (error as Error)?.message ?? String(error), status: 0, body: undefined };
}
