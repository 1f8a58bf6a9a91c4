import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ApiError,
  JSONAPI_MEDIA_TYPE,
  titleForStatus,
  type JsonApiErrorDocument,
  type ProblemIssue,
  validationIssues,
} from '@atrium/sdk/server';
import { apiErrorForDatabase } from './database-errors.js';

/**
 * Turns anything thrown by a route into one of two error shapes:
 * - JSON:API routes: `{ jsonapi, errors: [{ status: "400", title, detail, source, code }] }`
 * - every other route: RFC 9457 problem details `{ type, status, title, detail, errors: [...] }`
 * Validation failures are 400 with a pointer per field; anything unexpected is logged and answered
 * 500 'Internal Server Error.' without internals.
 */
/** A wrong resource `type` in a JSON:API body is a 409 (JSON:API 1.1, "Creating Resources"). */
function statusForJsonApiValidation(issues: ProblemIssue[]): number {
  return issues.some((i) => i.source && 'pointer' in i.source && i.source.pointer === '/data/type') ? 409 : 400;
}

export function toApiError(error: unknown, jsonapi: boolean): { apiError: ApiError; unexpected: boolean } {
  if (error instanceof ApiError) return { apiError: error, unexpected: false };
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = validationIssues(error);
    const status = jsonapi ? statusForJsonApiValidation(issues) : 400;
    return { apiError: new ApiError(status, issues[0]?.detail, { issues }), unexpected: false };
  }
  const status = typeof fastifyError?.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) {
    // Fastify's own client errors: malformed JSON, body too large, unsupported content type.
    const detail =
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
        ? 'The request body is not valid JSON.'
        : fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'The request body is empty but its content type says JSON.'
          : fastifyError.message;
    return {
      apiError: new ApiError(status, detail, {
        source: status === 400 ? { pointer: '' } : undefined,
        code: fastifyError.code,
      }),
      unexpected: false,
    };
  }
  const fromDatabase = apiErrorForDatabase(error);
  if (fromDatabase) return { apiError: fromDatabase, unexpected: false };
  const fromInput = apiErrorForBadInput(error, jsonapi);
  if (fromInput) return { apiError: fromInput, unexpected: false };
  return { apiError: new ApiError(500), unexpected: true };
}

interface ZodErrorLike {
  name: string;
  issues: { path: PropertyKey[]; message: string; code?: string }[];
}

function isZodError(error: unknown): error is ZodErrorLike {
  return (
    !!error &&
    typeof error === 'object' &&
    (error as { name?: unknown }).name === 'ZodError' &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

/**
 * Input that a route checked only inside its handler (a `schema.parse(…)` of a stored document, a
 * date the handler turns into a `Date`) fails with the library's own error, not an ApiError. It is
 * still the caller's input: 400 with the field, never a 500.
 */
function apiErrorForBadInput(error: unknown, jsonapi: boolean): ApiError | null {
  if (isZodError(error)) {
    const issues: ProblemIssue[] = error.issues.map((issue) => {
      const path = issue.path.map(String);
      const pointer = path.length ? `${jsonapi ? '/data/attributes' : ''}/${path.join('/')}` : '';
      return { detail: issue.message, source: { pointer }, code: issue.code };
    });
    return new ApiError(400, issues[0]?.detail ?? 'The request is not valid.', { issues });
  }
  // `new Date('garbage').toISOString()` and friends: a date the caller sent that is no date.
  if (error instanceof RangeError && /Invalid time value|Invalid Date/i.test(error.message)) {
    return new ApiError(400, 'A date or time is not valid.', { code: 'invalid_date' });
  }
  return null;
}

export function jsonApiErrorDocument(apiError: ApiError): JsonApiErrorDocument {
  return {
    jsonapi: { version: '1.1' },
    errors: apiError.issues.map((issue) => ({
      status: String(apiError.status),
      title: apiError.title,
      detail: issue.detail,
      ...(issue.code ? { code: issue.code } : {}),
      ...(issue.source ? { source: issue.source } : {}),
      ...(apiError.meta ? { meta: apiError.meta } : {}),
    })),
  };
}

export function problemDocument(apiError: ApiError, instance: string) {
  return {
    type: 'about:blank',
    status: apiError.status,
    title: apiError.title,
    detail: apiError.detail,
    instance,
    ...(apiError.code ? { code: apiError.code } : {}),
    ...(apiError.meta ?? {}),
    errors: apiError.issues.map((issue) => ({
      detail: issue.detail,
      ...(issue.source ? issue.source : {}),
      ...(issue.code ? { code: issue.code } : {}),
    })),
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const jsonapi = request.routeOptions.config?.jsonapi === true;
  const { apiError, unexpected } = toApiError(error, jsonapi);
  if (unexpected) request.log.error({ err: error }, 'unexpected error');
  else if (apiError.status >= 500) request.log.error({ err: error }, apiError.detail);
  if (apiError.headers) reply.headers(apiError.headers);
  reply.status(apiError.status);
  if (jsonapi) {
    return reply.type(JSONAPI_MEDIA_TYPE).send(jsonApiErrorDocument(apiError));
  }
  return reply.type('application/problem+json').send(problemDocument(apiError, request.url.split('?')[0]!));
}

export { titleForStatus };
