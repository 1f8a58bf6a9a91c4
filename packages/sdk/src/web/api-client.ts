import { apiErrorFromNetwork, apiErrorFromResponse, type ApiRequestError } from './api-error.js';
import { buildQueryString, type QueryParams } from './route-ref.js';

/**
 * The one HTTP client for the web app: adds `Authorization: Bearer <token>` and the effective role
 * header, speaks JSON and JSON:API, and turns every failure into an ApiRequestError with the spec's
 * message. 401/403 also reach `onUnauthorized`/`onForbidden` so the shell can sign out or route to
 * select-role/forbidden in one place.
 */

export const EFFECTIVE_ROLE_HEADER = 'X-Effective-Role';
export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';
/** The spec's JSON:API page size ("Business constants"). */
export const JSONAPI_PAGE_SIZE = 250;

type MaybePromise<T> = T | Promise<T>;

export interface ApiClientOptions {
  /** Prefix for relative paths, e.g. `/api` or `https://host/api`. */
  baseUrl: string;
  getToken(): MaybePromise<string | null | undefined>;
  getEffectiveRole(): MaybePromise<string | null | undefined>;
  onUnauthorized?(error: ApiRequestError): void;
  onForbidden?(error: ApiRequestError): void;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface ApiRequestOptions {
  method?: string;
  query?: QueryParams;
  /** Serialized as JSON unless it is FormData, Blob, URLSearchParams or a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sends and accepts `application/vnd.api+json`. */
  jsonApi?: boolean;
  /** Sees the response's status and headers (an `ETag` for a later `If-Match`) before its body is read. */
  onResponse?(response: Response): void;
  /**
   * The caller shows a refused operation itself (spec: a 403 redirects to /forbidden "unless
   * prevented"): a 403 on this request is only thrown, the shell neither toasts nor redirects. A 403
   * for want of a usable role (ingress denied) still goes to role selection.
   */
  preventForbiddenRedirect?: boolean;
}

export interface JsonApiResource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

export interface JsonApiDocument<D = JsonApiResource | JsonApiResource[] | null> {
  data: D;
  included?: JsonApiResource[];
  meta?: Record<string, unknown> & { count?: number; pages?: number };
  links?: Record<string, string | null | undefined>;
}

export interface FetchAllOptions {
  pageSize?: number;
  query?: QueryParams;
  signal?: AbortSignal;
}

export interface FetchAllResult {
  data: JsonApiResource[];
  included: JsonApiResource[];
  /** Total from `meta.count` when the server sent it. */
  count: number | undefined;
}

/** A binary response: the bytes, the server's file name (Content-Disposition) and type. */
export interface BlobResponse {
  blob: Blob;
  /** From `filename*` (RFC 5987, UTF-8), else `filename`; null when the server named none. */
  fileName: string | null;
  contentType: string;
}

export type BlobRequestOptions = Omit<ApiRequestOptions, 'method' | 'body' | 'jsonApi'>;

export interface ApiClient {
  request<T = unknown>(path: string, options?: ApiRequestOptions): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<ApiRequestOptions, 'method' | 'body'>): Promise<T>;
  /** Page 1, then every remaining page in parallel; `data` in page order. */
  jsonApiFetchAll(path: string, options?: FetchAllOptions): Promise<FetchAllResult>;
  /**
   * GETs a file with the caller's token and role: a download a plain link cannot make, since the
   * browser would send no Authorization header. Failures are ApiRequestErrors as for `request`.
   */
  getBlob(path: string, options?: BlobRequestOptions): Promise<BlobResponse>;
}

const isRawBody = (body: unknown) =>
  typeof body === 'string' ||
  (typeof FormData !== 'undefined' && body instanceof FormData) ||
  (typeof Blob !== 'undefined' && body instanceof Blob) ||
  body instanceof URLSearchParams ||
  body instanceof ArrayBuffer;

function joinUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The file name of a Content-Disposition header: `filename*=UTF-8''…` (percent-encoded, RFC 5987)
 * wins over the ASCII fallback `filename="…"`; null when neither is there or it does not decode.
 */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(disposition);
  if (extended) {
    const match = /^\s*"?([\w!#$&+.^`|~-]+)'[^']*'([^";\s]*)"?\s*$/.exec(extended[1]!);
    if (match && /^utf-8$/i.test(match[1]!)) {
      try {
        const name = decodeURIComponent(match[2]!);
        if (name) return name;
      } catch {
        // A malformed escape: fall back to the plain name.
      }
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  if (!plain) return null;
  const name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!;
  return name || null;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  /** Sends with the token and role; a failure status becomes an ApiRequestError (its body read for it). */
  async function send(path: string, request: ApiRequestOptions, accept: string): Promise<Response> {
    const headers = new Headers(request.headers);
    const [token, role] = await Promise.all([options.getToken(), options.getEffectiveRole()]);
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (role) headers.set(EFFECTIVE_ROLE_HEADER, role);
    if (!headers.has('Accept')) headers.set('Accept', accept);
    let body: BodyInit | undefined;
    if (request.body !== undefined) {
      if (isRawBody(request.body)) body = request.body as BodyInit;
      else {
        body = JSON.stringify(request.body);
        if (!headers.has('Content-Type'))
          headers.set('Content-Type', request.jsonApi ? JSONAPI_MEDIA_TYPE : 'application/json');
      }
    }
    const url = joinUrl(options.baseUrl, path) + buildQueryString(request.query);
    let response: Response;
    try {
      response = await doFetch(url, { method: request.method ?? 'GET', headers, body, signal: request.signal });
    } catch (error) {
      // Aborts are the caller's own doing: let them through unchanged so `signal` checks work.
      if ((error as { name?: string })?.name === 'AbortError' || request.signal?.aborted) throw error;
      throw apiErrorFromNetwork(error);
    }
    request.onResponse?.(response);
    if (response.ok) return response;
    const error = apiErrorFromResponse(response.status, await readBody(response));
    if (response.status === 401) options.onUnauthorized?.(error);
    if (response.status === 403 && (!request.preventForbiddenRedirect || error.ingressDenied))
      options.onForbidden?.(error);
    throw error;
  }

  const client: ApiClient = {
    async request<T>(path: string, request: ApiRequestOptions = {}): Promise<T> {
      const response = await send(path, request, request.jsonApi ? JSONAPI_MEDIA_TYPE : 'application/json');
      return (await readBody(response)) as T;
    },
    async getBlob(path: string, request: BlobRequestOptions = {}): Promise<BlobResponse> {
      // Any type: the server answers with the file's own; its errors still come as JSON.
      const response = await send(path, { ...request, method: 'GET' }, '*/*');
      const blob = await response.blob();
      return {
        blob,
        fileName: fileNameOf(response.headers.get('content-disposition')),
        contentType: response.headers.get('content-type') ?? (blob.type || 'application/octet-stream'),
      };
    },
    get: (path, o) => client.request(path, { ...o, method: 'GET' }),
    post: (path, body, o) => client.request(path, { ...o, method: 'POST', body }),
    put: (path, body, o) => client.request(path, { ...o, method: 'PUT', body }),
    patch: (path, body, o) => client.request(path, { ...o, method: 'PATCH', body }),
    delete: (path, o) => client.request(path, { ...o, method: 'DELETE' }),
    jsonApiFetchAll: (path, o) => jsonApiFetchAll(client, path, o),
  };
  return client;
}

/** Total page count from `meta.pages`, else the `page[number]` of `links.last`, else 1. */
export function pageCountOf(document: JsonApiDocument<unknown>): number {
  const pages = document.meta?.pages;
  if (typeof pages === 'number' && Number.isFinite(pages)) return Math.max(1, Math.floor(pages));
  const last = document.links?.last;
  if (typeof last === 'string') {
    const query = last.includes('?') ? last.slice(last.indexOf('?') + 1) : '';
    const number = Number(new URLSearchParams(query).get('page[number]'));
    if (Number.isInteger(number) && number > 0) return number;
  }
  return 1;
}

export async function jsonApiFetchAll(
  client: Pick<ApiClient, 'get'>,
  path: string,
  options: FetchAllOptions = {},
): Promise<FetchAllResult> {
  const size = options.pageSize ?? JSONAPI_PAGE_SIZE;
  const fetchPage = (number: number) =>
    client.get<JsonApiDocument<JsonApiResource[]>>(path, {
      jsonApi: true,
      signal: options.signal,
      query: { ...options.query, 'page[number]': number, 'page[size]': size },
    });
  const first = await fetchPage(1);
  const pages = pageCountOf(first);
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, i) => fetchPage(i + 2)));
  const documents = [first, ...rest];
  return {
    data: documents.flatMap((d) => (Array.isArray(d?.data) ? d.data : [])),
    included: uniqueResources(documents.flatMap((d) => d?.included ?? [])),
    count: typeof first?.meta?.count === 'number' ? first.meta.count : undefined,
  };
}

/** Every page repeats the resources it includes; keep each `type`/`id` once, first seen wins. */
function uniqueResources(resources: JsonApiResource[]): JsonApiResource[] {
  const seen = new Set<string>();
  return resources.filter((resource) => {
    const key = `${resource.type}\u0000${resource.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
