import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import type { MfaMethodKey } from './mfa-methods.js';

/**
 * The identity calls My Account makes (docs/identity.md, "The caller's account" and "User
 * management"), through the host's API client: the user's token and effective role, and the shell's
 * handling of a refused token.
 */
export const ACCOUNT_QUERY_KEY = ['my-account', 'session-user'] as const;

/** GET /api/identity/session: the fields My Account reads. */
export interface AccountUser {
  id: string;
  username: string;
  email: string;
  email_verified: boolean;
  name: string;
  phone_number: string | null;
  phone_number_verified: boolean;
  picture: string | null;
  groups: string[];
  updated_at: string;
  mfa: {
    preferred: 'SMS_MFA' | 'SOFTWARE_TOKEN_MFA' | null;
    sms_mfa_enabled: boolean;
    software_token_mfa_enabled: boolean;
    software_token_verified: boolean;
  };
}

export function useAccount() {
  const api = useApiClient();
  return useQuery({
    queryKey: ACCOUNT_QUERY_KEY,
    queryFn: () => api.get<AccountUser>('identity/session'),
  });
}

/**
 * Reads the account again after a change. (The identity session notices the newer updated_at on its
 * next check and renews the token.)
 */
export function useRefreshAccount() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ACCOUNT_QUERY_KEY });
}

export type MfaPreferenceChange = Partial<Record<MfaMethodKey, { enabled: boolean; preferred: boolean }>>;

export function changeMfaPreference(api: ApiClient, password: string, change: MfaPreferenceChange) {
  return api.put<AccountUser>('identity/mfa-preference', { password, ...change });
}

export function associateSoftwareToken(api: ApiClient, password: string) {
  return api.post<{ secret_code: string; otpauth_uri: string }>('identity/software-token/associate', { password });
}

export function verifySoftwareToken(api: ApiClient, code: string) {
  return api.post<{ status: 'SUCCESS' }>('identity/software-token/verify', { code });
}

/** PATCH users/me (JSON:API): the caller's name, e-mail address and phone number. */
export function updateProfile(
  api: ApiClient,
  userId: string,
  attributes: { name: string; email: string; phone_number: string | null },
) {
  return api.patch(
    'identity/user-management/users/me',
    { data: { type: 'user', id: userId, attributes } },
    { jsonApi: true },
  );
}

/** POST users/me/verify-attribute: checks the code, or (without one) sends a new code. */
export function verifyAttribute(api: ApiClient, attribute: 'email' | 'phone_number', verificationCode?: string) {
  return api.post(
    'identity/user-management/users/me/verify-attribute',
    {
      data: {
        type: 'attribute-verification',
        attributes: { attribute, ...(verificationCode ? { verification_code: verificationCode } : {}) },
      },
    },
    { jsonApi: true },
  );
}

/** The server's words for a refused call (the identity problem's detail). */
export function failureMessage(error: unknown, fallback: string): string {
  const body = (error as { body?: { detail?: unknown } })?.body;
  return typeof body?.detail === 'string' && body.detail ? body.detail : ((error as Error)?.message ?? fallback);
}

/** What the picture upload accepts (the server checks the bytes too). */
export const PICTURE_ACCEPT = 'image/png,image/jpeg,image/webp';
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPE_MESSAGE = 'The picture must be a PNG, JPEG or WebP image.';
export const PICTURE_SIZE_MESSAGE = 'The picture must be 2 MB or smaller.';

/** The reason a chosen file cannot be the picture, or null. */
export function pictureProblem(file: File): string | null {
  if (!PICTURE_ACCEPT.split(',').includes(file.type)) return PICTURE_TYPE_MESSAGE;
  if (file.size > PICTURE_MAX_BYTES) return PICTURE_SIZE_MESSAGE;
  return null;
}

/** POST users/me/picture: the image itself as the body, with its own content type. */
export function uploadPicture(api: ApiClient, file: Blob) {
  return api.post<{ picture: string; content_type: string; sha256: string }>(
    'identity/user-management/users/me/picture',
    file,
    { headers: { 'Content-Type': file.type } },
  );
}

/** DELETE users/me/picture. */
export function removePicture(api: ApiClient) {
  return api.delete('identity/user-management/users/me/picture');
}

/** True for the path of a picture uploaded to identity (it needs the bearer token, so no plain <img src>). */
export const isUploadedPicture = (picture: string) => /^\/api\/identity\/user-management\/users\//.test(picture);

/**
 * A `src` for the user's picture: an external URL as it is; an uploaded one read through the API
 * client (which carries the token) as a data: URL.
 */
export function usePictureSource(picture: string | null | undefined) {
  const api = useApiClient();
  const uploaded = picture ? isUploadedPicture(picture) : false;
  const query = useQuery({
    queryKey: ['my-account', 'picture', picture],
    enabled: uploaded,
    staleTime: Infinity,
    queryFn: async () =>
      (
        await api.get<{ data_url: string }>(picture!.replace(/^\/api\//, ''), {
          headers: { Accept: 'application/json' },
        })
      ).data_url,
  });
  if (!picture) return null;
  return uploaded ? (query.data ?? null) : picture;
}
