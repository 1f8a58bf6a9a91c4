import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { toArray } from './access-control.js';
import { ApiError, JSONAPI_MEDIA_TYPE, isNotAcceptable, isUnsupportedContentType } from '@atrium/sdk/server';

/**
 * For routes that declare `config.jsonapi`: 406 and 415 per JSON:API 1.1, and every success answered
 * with the JSON:API media type. The body parser for `application/vnd.api+json` is registered here
 * too, so that a malformed document is a 400 like any malformed JSON.
 */
export function registerJsonApiNegotiation(app: FastifyInstance) {
  app.addContentTypeParser(JSONAPI_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const negotiate = async (request: FastifyRequest) => {
    if (isNotAcceptable(request.headers.accept)) {
      throw new ApiError(
        406,
        `Accept must allow ${JSONAPI_MEDIA_TYPE} without media type parameters other than ext and profile.`,
        {
          source: { header: 'accept' },
        },
      );
    }
    const hasBody =
      request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0'
        ? true
        : request.headers['transfer-encoding'] !== undefined;
    if (hasBody && isUnsupportedContentType(request.headers['content-type'])) {
      throw new ApiError(
        415,
        `Content-Type must be ${JSONAPI_MEDIA_TYPE} without media type parameters other than ext and profile.`,
        {
          source: { header: 'content-type' },
        },
      );
    }
  };
  const mediaType = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode < 300 && reply.statusCode !== 204) reply.header('content-type', JSONAPI_MEDIA_TYPE);
    return payload;
  };

  // Attached per route, so that routes not speaking JSON:API pay nothing for it.
  app.addHook('onRoute', (route) => {
    if ((route.config as { jsonapi?: boolean } | undefined)?.jsonapi !== true) return;
    route.onRequest = [...toArray(route.onRequest), negotiate] as RouteOptions['onRequest'];
    route.onSend = [...toArray(route.onSend), mediaType] as RouteOptions['onSend'];
  });
}
