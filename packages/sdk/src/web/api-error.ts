/**
 * Client-side view of a failed call, with the spec's user-facing messages ("Error catalogue" → HTTP):
 * 400 → the first error detail (or the server's body), 401 'Authorization Required.',
 * 403 "Forbidden resource can't be accessed.", 404 'The requested resource not found.',
 * 500 'Internal Server Error.', any other status 'Service unavailable', no response → the request
 * error's own message. The full error list stays on the error for field mapping.
 */

export const HTTP_ERROR_MESSAGES = {
  401: 'Authorization Required.',
  403: "Forbidden resource can't be accessed.",
  404: 'The requested resource not found.',
  500: 'Internal Server Error.',
} as const;

export const SERVICE_UNAVAILABLE_MESSAGE = 'Service unavailable';

/** One server error, from either shape (JSON:API error object or problem-details `errors[]` entry). */
export interface ApiErrorItem {
  detail: string;
  title?: string;
  status?: string;
  code?: string;
  /** JSON pointer into the request body: `/data/attributes/name` (JSON:API) or `/name` (problem). */
  pointer?: string;
  parameter?: string;
  meta?: Record<string, unknown>;
}

export class ApiRequestError extends Error {
  /** 0 when no response arrived. */
  readonly status: number;
  readonly errors: readonly ApiErrorItem[];
  /** 403 raised because the user has no usable role (goes to select-role, not forbidden). */
  readonly ingressDenied: boolean;
  /** Why ingress was denied (`no-role-assignment`, `no-effective-role`), when the server said. */
  readonly annotation: string | undefined;
  readonly body: unknown;

  constructor(init: {
    status: number;
    message: string;
    errors?: readonly ApiErrorItem[];
    ingressDenied?: boolean;
    annotation?: string;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiRequestError';
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.ingressDenied = init.ingressDenied ?? false;
    this.annotation = init.annotation;
    this.body = init.body;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** The error list of either shape; an empty list for anything else. */
export function parseErrorItems(body: unknown): ApiErrorItem[] {
  const record = asRecord(body);
  if (!record || !Array.isArray(record.errors)) return [];
  const items: ApiErrorItem[] = [];
  for (const raw of record.errors) {
    const error = asRecord(raw);
    if (!error) {
      if (typeof raw === 'string') items.push({ detail: raw });
      continue;
    }
    const source = asRecord(error.source);
    const item: ApiErrorItem = {
      detail: asString(error.detail) ?? asString(error.title) ?? asString(error.message) ?? '',
    };
    const title = asString(error.title);
    if (title !== undefined) item.title = title;
    const status = asString(error.status);
    if (status !== undefined) item.status = status;
    const code = asString(error.code);
    if (code !== undefined) item.code = code;
    // JSON:API nests the pointer in `source`; problem details spread it onto the entry.
    const pointer = asString(source?.pointer) ?? asString(error.pointer);
    if (pointer !== undefined) item.pointer = pointer;
    const parameter = asString(source?.parameter) ?? asString(error.parameter);
    if (parameter !== undefined) item.parameter = parameter;
    const meta = asRecord(error.meta);
    if (meta) item.meta = meta;
    items.push(item);
  }
  return items;
}

/** The 400 message: first error detail, else problem `detail`, else the server's body as text. */
export function firstErrorDetail(body: unknown): string | undefined {
  const first = parseErrorItems(body).find((e) => e.detail);
  if (first) return first.detail;
  const record = asRecord(body);
  if (record) {
    const detail = asString(record.detail) ?? asString(record.message) ?? asString(record.error);
    if (detail) return detail;
    return JSON.stringify(body);
  }
  if (typeof body === 'string' && body.trim()) return body;
  return undefined;
}

export function messageForStatus(status: number, body: unknown): string {
  if (status === 400) return firstErrorDetail(body) ?? 'Bad Request';
  if (status === 401 || status === 403 || status === 404 || status === 500) return HTTP_ERROR_MESSAGES[status];
  return SERVICE_UNAVAILABLE_MESSAGE;
}

/** Reads the ingress-denied marker from either shape. */
export function ingressDenial(body: unknown): { denied: boolean; annotation?: string } {
  const record = asRecord(body);
  if (!record) return { denied: false };
  if (record.ingress_denied === true) {
    return { denied: true, annotation: asString(record.annotation) };
  }
  for (const item of parseErrorItems(body)) {
    if (item.meta?.ingress_denied === true) return { denied: true, annotation: asString(item.meta.annotation) };
  }
  return { denied: false };
}

export function apiErrorFromResponse(status: number, body: unknown): ApiRequestError {
  const denial = status === 403 ? ingressDenial(body) : { denied: false };
  return new ApiRequestError({
    status,
    message: messageForStatus(status, body),
    errors: parseErrorItems(body),
    ingressDenied: denial.denied,
    annotation: denial.annotation,
    body,
  });
}

/** A request that got no response (network down, CORS, DNS): the spec passes its message on. */
export function apiErrorFromNetwork(error: unknown): ApiRequestError {
  const message = error instanceof Error && error.message ? error.message : String(error || 'Network error');
  return new ApiRequestError({ status: 0, message, cause: error });
}
