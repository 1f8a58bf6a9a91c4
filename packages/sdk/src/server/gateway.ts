import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Permission } from './access.js';
import type { ServerPluginContext } from './define-server-plugin.js';

/**
 * One method of the classic gateway (spec: `POST /gateway?file={file}&method={method}`), which the
 * previous portal's pages and integrations call for many modules at once: `contacts.views
 * retrieveContactList`, `claims.views retrieveClaimsList`, `more.ajax_suggest ajaxSuggestContacts` …
 * The server owns the one `/api/gateway` route; each module lists the methods it answers in its
 * plugin's `gateway`, and the route finds the method, checks `access` through the access evaluator
 * (403), validates the body with `body` (400 naming the field) and only then calls `handler`. Two
 * plugins answering the same file and method stop the server at start.
 */
export interface GatewayMethod<Input = unknown> {
  file: string;
  method: string;
  /** One line for the OpenAPI description of /api/gateway. */
  summary: string;
  /**
   * The permission the caller needs, evaluated like a route's `config.access`; or 'authenticated'
   * for a method about the caller themselves that every signed-in user may call (loadUserProfile,
   * logOut).
   */
  access: Permission | 'authenticated';
  /** The JSON body; a missing body is validated as `{}`. */
  body: z.ZodType<Input>;
  handler(input: Input, call: { request: FastifyRequest; context: ServerPluginContext }): Promise<unknown>;
}

/** Types a gateway method's handler by its body schema. */
export function defineGatewayMethod<Schema extends z.ZodType>(
  method: Omit<GatewayMethod<z.infer<Schema>>, 'body'> & { body: Schema },
): GatewayMethod<z.infer<Schema>> {
  return method as GatewayMethod<z.infer<Schema>>;
}
