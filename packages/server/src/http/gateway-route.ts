import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiError,
  type GatewayMethod,
  type ServerPluginContext,
  type ServerPluginDefinition,
  readMultipartForm,
} from '@atrium/sdk/server';

/**
 * `POST /api/gateway?file=…&method=…`, the classic gateway (spec), owned by the server because many
 * modules answer on it: each lists its methods in its plugin's `gateway` (SDK gateway.ts). The route
 * itself only needs a signed-in caller; the method's own permission is evaluated before its body is
 * read, so a caller learns nothing of a method's input rules without the right to call it.
 */
export function registerGatewayRoute(
  app: FastifyInstance,
  plugins: readonly ServerPluginDefinition[],
  context: ServerPluginContext,
): void {
  const methods = new Map<string, { method: GatewayMethod; plugin: string; context: ServerPluginContext }>();
  for (const plugin of plugins) {
    for (const method of plugin.gateway ?? []) {
      const key = `${method.file}.${method.method}`;
      const access = method.access;
      if (
        access !== 'authenticated' &&
        !plugin.permissions?.some((p) => p.resource === access.resource && p.action === access.action)
      ) {
        throw new Error(
          `Gateway method ${key} (${plugin.id}) is checked against ${access.resource}:${access.action}, which its plugin does not declare.`,
        );
      }
      const owner = methods.get(key);
      if (owner) {
        throw new Error(`Gateway method ${key} is answered by two plugins (${owner.plugin} and ${plugin.id}).`);
      }
      methods.set(key, {
        method,
        plugin: plugin.id,
        context: { ...context, log: app.log.child({ plugin: plugin.id }) },
      });
    }
  }
  if (methods.size === 0) return;
  const listed = [...methods.keys()].sort().join(', ');
  // Classic forms post multipart/form-data (the support ticket with its screenshots): text fields
  // become strings, files lists of { filename, contentType, data } that the method's schema checks.
  void app.register(async (scope) => {
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (request, body, done) => {
      void readMultipartForm(body as Buffer, String(request.headers['content-type'])).then((form) =>
        form ? done(null, form) : done(new ApiError(400, 'The form could not be read.')),
      );
    });
    registerGatewayPost(scope, methods, listed);
  });
}

function registerGatewayPost(
  app: FastifyInstance,
  methods: Map<string, { method: GatewayMethod; plugin: string; context: ServerPluginContext }>,
  listed: string,
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/gateway',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: `Classic gateway (POST /gateway?file={file}&method={method}). Methods: ${listed}.`,
        tags: ['classic'],
        security: [{ bearer: [] }],
        querystring: z.strictObject({ file: z.string().min(1).max(100), method: z.string().min(1).max(100) }),
        body: z.record(z.string(), z.unknown()).optional(),
      },
    },
    async (request) => {
      const { file, method: name } = request.query;
      const entry = methods.get(`${file}.${name}`);
      if (!entry) throw new ApiError(404, `The gateway has no ${file}.${name}.`, { source: { parameter: 'method' } });
      const access = entry.method.access;
      // 'authenticated': the route's own check (a signed-in caller) is the method's.
      if (access !== 'authenticated') {
        const evaluator = entry.context.services.evaluator;
        const evaluation = evaluator ? await evaluator.evaluate(request.principal, access) : null;
        if (!evaluation?.allowed) throw new ApiError(403, undefined, { code: evaluation?.reason });
      }
      // A ZodError from the body's schema becomes a 400 naming the field (http/error-response.ts).
      const input = entry.method.body.parse(request.body ?? {});
      return entry.method.handler(input, { request, context: entry.context });
    },
  );
}
