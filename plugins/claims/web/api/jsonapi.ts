import {
  FORBIDDEN_OPERATION_MESSAGE,
  isApiRequestError,
  firstErrorDetail,
  type JsonApiDocument,
  type JsonApiResource,
} from '@atrium/sdk';

/**
 * Small helpers over the claims service's JSON:API documents (docs/api.md): resources become flat
 * records (`id` + attributes + `<relationship>_id(s)`), so screens never dig through `attributes`.
 */
export const CLAIMS_API = '/claims';

export type Flat = { id: string; type: string } & Record<string, unknown>;

export function flatten(resource: JsonApiResource): Flat {
  const flat: Flat = { id: resource.id, type: resource.type, ...(resource.attributes ?? {}) };
  for (const [name, value] of Object.entries(resource.relationships ?? {})) {
    const data = (value as { data?: unknown } | null)?.data;
    if (Array.isArray(data)) flat[`${name}_ids`] = data.map((d) => String((d as { id: unknown }).id));
    else if (data && typeof data === 'object') flat[`${name}_id`] = String((data as { id: unknown }).id);
    else if (data === null) flat[`${name}_id`] = null;
  }
  return flat;
}

export function flattenAll(document: JsonApiDocument<JsonApiResource[]> | undefined): Flat[] {
  return Array.isArray(document?.data) ? document.data.map(flatten) : [];
}

/** The related resource from `included`, flattened, or null. */
export function includedOf(document: { included?: JsonApiResource[] }, type: string, id: unknown): Flat | null {
  const found = document.included?.find((r) => r.type === type && r.id === String(id));
  return found ? flatten(found) : null;
}

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** A JSON:API write body: `{ data: { type, id?, attributes, relationships? } }`. */
export function resourceBody(
  type: string,
  attributes: Record<string, unknown>,
  options: {
    id?: string;
    relationships?: Record<string, { type: string; id: string } | { type: string; id: string }[] | null>;
  } = {},
) {
  const relationships = options.relationships
    ? Object.fromEntries(Object.entries(options.relationships).map(([k, v]) => [k, { data: v }]))
    : undefined;
  return {
    data: {
      type,
      ...(options.id ? { id: options.id } : {}),
      attributes,
      ...(relationships ? { relationships } : {}),
    },
  };
}

/** The server's own words for a failure ('Claim 7 not found.'), else the client's message. */
export function errorMessageOf(error: unknown): string {
  if (isApiRequestError(error))
    return error.errors.find((e) => e.detail)?.detail || firstErrorDetail(error.body) || error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * What to show where the user acted: for a refusal (403) the spec's 'This operation is not allowed.
 * (Error code: 403)' followed by the server's reason when it gave one; otherwise errorMessageOf.
 * Send such requests with `preventForbiddenRedirect`, so the shell does not leave the page.
 */
export function actionErrorMessageOf(error: unknown): string {
  if (isApiRequestError(error) && error.status === 403) {
    const detail = error.errors.find((e) => e.detail)?.detail;
    return detail ? `${FORBIDDEN_OPERATION_MESSAGE} ${detail}` : FORBIDDEN_OPERATION_MESSAGE;
  }
  return errorMessageOf(error);
}

export const isStale = (error: unknown) => isApiRequestError(error) && error.status === 412;

/** One key per submitted form: a double click or a retry of the same form replays the first answer. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
