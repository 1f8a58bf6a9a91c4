import { ApiError } from '@atrium/sdk/server';
import { IDENTITY_ERROR_CODES, type IdentityErrorCode } from '../shared/identity-schemas.js';

/**
 * The identity error codes of the spec's error catalogue. The web client branches on `code`; the
 * messages follow the cloud identity provider the previous portal used, so that its texts still fit.
 */
export { IDENTITY_ERROR_CODES, type IdentityErrorCode };

const STATUS: Record<IdentityErrorCode, number> = {
  UserNotFoundException: 400,
  MFAMethodNotFoundException: 400,
  NotAuthorizedException: 400,
  UsernameExistsException: 400,
  UnknownError: 500,
  PasswordResetRequiredException: 400,
  InvalidParameterException: 400,
  ExpiredCodeException: 400,
  CodeMismatchException: 400,
  LimitExceededException: 429,
};

export function identityError(
  code: IdentityErrorCode,
  message: string,
  options: { meta?: Record<string, unknown>; headers?: Record<string, string>; pointer?: string } = {},
): ApiError {
  return new ApiError(STATUS[code], message, {
    code,
    meta: options.meta,
    headers: options.headers,
    issues: [
      { detail: message, code, ...(options.pointer !== undefined ? { source: { pointer: options.pointer } } : {}) },
    ],
  });
}

/** The one answer for an unknown user and a wrong password: same status, body and (roughly) time. */
export const INCORRECT_CREDENTIALS = 'Incorrect username or password.';
export const PASSWORD_ATTEMPTS_EXCEEDED = 'Password attempts exceeded';
export const SESSION_EXPIRED = 'Invalid session for the user, session is expired.';
export const ATTEMPT_LIMIT = 'Attempt limit exceeded, please try after some time.';
export const MFA_METHOD_MISSING =
  'Your user does not have a phone number or other authentication method set up. Please contact an administrator.';
export const PASSWORD_RESET_REQUIRED = 'For security reasons, please reset your password.';
