/**
 * The errors every Atrium route raises. One class carries everything both error shapes need:
 * JSON:API routes render it as an `errors[]` document, plain-JSON routes as RFC 9457 problem details.
 */

/** The spec's default titles for HTTP statuses ("Error catalogue" → HTTP). */
export const HTTP_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Authorization Required.',
  403: "Forbidden resource can't be accessed.",
  404: 'The requested resource not found.',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error.',
  503: 'Service unavailable',
};

export function titleForStatus(status: number): string {
  return HTTP_TITLES[status] ?? (status >= 500 ? 'Service unavailable' : 'Bad Request');
}

/** Where a field error points: a JSON pointer into the body, or a query/path parameter name. */
export type ProblemSource = { pointer: string } | { parameter: string } | { header: string };

export interface ProblemIssue {
  detail: string;
  source?: ProblemSource;
  /** Machine-readable code, e.g. `unrecognized_keys`, `too_small`, `UserNotFoundException`. */
  code?: string;
}

export interface ApiErrorOptions {
  title?: string;
  code?: string;
  source?: ProblemSource;
  issues?: ProblemIssue[];
  /** Extra members copied onto the error object's `meta` (JSON:API) or the problem body (plain). */
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly code?: string;
  readonly issues: ProblemIssue[];
  readonly meta?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(status: number, detail?: string, options: ApiErrorOptions = {}) {
    const title = options.title ?? titleForStatus(status);
    super(detail ?? title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.code = options.code;
    this.meta = options.meta;
    this.headers = options.headers;
    this.issues = options.issues ?? [{ detail: detail ?? title, source: options.source, code: options.code }];
  }

  get detail(): string {
    return this.message;
  }
}

export const badRequest = (detail: string, options?: ApiErrorOptions) => new ApiError(400, detail, options);
export const unauthorized = (detail?: string) => new ApiError(401, detail);
export const forbidden = (detail?: string, options?: ApiErrorOptions) => new ApiError(403, detail, options);
export const notFound = (detail?: string) => new ApiError(404, detail);
export const conflict = (detail: string, options?: ApiErrorOptions) => new ApiError(409, detail, options);

/** A field error on a JSON:API resource attribute: pointer `/data/attributes/<field>`. */
export function attributeError(field: string, detail: string, status = 400): ApiError {
  return new ApiError(status, detail, { source: { pointer: `/data/attributes/${field}` } });
}

/** A field error on a plain-JSON body: pointer `/<field>`. */
export function fieldError(field: string, detail: string, status = 400): ApiError {
  return new ApiError(status, detail, { source: { pointer: `/${field}` } });
}
