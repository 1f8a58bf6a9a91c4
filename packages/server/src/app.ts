import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { fastifyTrustProxy, type TrustProxy } from './http/trust-proxy.js';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, type ServerPluginContext, type ServerPluginDefinition } from '@atrium/sdk/server';
import type { DatabaseHandle } from './database/connect.js';
import { createAdmission, type Admission } from './http/admission.js';
import { registerAccessControl, type AccessServices, type RegisteredRoute } from './http/access-control.js';
import { registerControlCharacterGate } from './http/control-characters.js';
import { sendError } from './http/error-response.js';
import { registerGatewayRoute } from './http/gateway-route.js';
import { turnBatchedLogDestination } from './http/log-destination.js';
import { registerJsonApiNegotiation } from './http/jsonapi-negotiation.js';
import { registerOpenApi } from './http/openapi.js';
import { registerSpa, type SpaIndexSender } from './http/spa.js';
import { registerTrailingSlashTwins } from './http/trailing-slash.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import type { Jobs } from './jobs/job-queue.js';
import type { PlatformStorage } from './storage/create-object-storage.js';
import { registerStorageRoutes } from './storage/upload-route.js';
import { ATRIUM_VERSION } from './version.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the built index.html (http/spa.ts), when the app serves the SPA. */
    sendSpaIndex?: SpaIndexSender;
    /** The gate in front of the plugins' routes (http/admission.ts). */
    admission: Admission;
  }
}

export interface BuildAppOptions {
  database: DatabaseHandle;
  plugins: ServerPluginDefinition[];
  jobs: Jobs;
  /** The context every plugin's routes receive (database, jobs, provided services). */
  context: ServerPluginContext;
  access: AccessServices;
  logLevel: string;
  webDist?: string;
  /** Which proxies may name the client address and protocol (config ATRIUM_TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Pino destination override, for tests that read the structured log. */
  logStream?: NodeJS.WritableStream;
  /** Object storage; its local driver serves the direct-upload route. */
  storage?: PlatformStorage;
  /** Plugin requests running at once (default: twice the pool size, at least 4). */
  admissionLimit?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HEALTH_TIMEOUT_MS = 2000;

const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

/**
 * The Fastify application: zod validation on every route, one error format, request ids in every
 * log line, JSON:API negotiation where a route asks for it, the access check before every handler,
 * OpenAPI at /api/docs, each plugin mounted under its prefix, and the SPA with history fallback.
 */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; routes: RegisteredRoute[] }> {
  const app = Fastify({
    // Standard output gets the lines of one event-loop turn in one write (http/log-destination.ts).
    logger: { level: options.logLevel, stream: options.logStream ?? turnBatchedLogDestination(1) },
    // Keep a caller's request id when it is sane, so that logs join up across services.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 10 * 1024 * 1024,
    // request.ip (the sign-in throttle's source) and request.protocol (HSTS) come from the socket
    // unless the operator names the proxies in front (http/trust-proxy.ts).
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // One log line per request (written in onResponse below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // `/x/` and `/x` are the same route (http/trailing-slash.ts).
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    // A route's own logLevel (health checks log at warn) silences this line through pino's level.
    request.log[level](
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTime: reply.elapsedTime,
        principal: request.principal?.username,
      },
      'request completed',
    );
    done();
  });

  registerTrailingSlashTwins(app);
  const routes: RegisteredRoute[] = [];
  const declaredPermissions = new Map(
    options.plugins.map((plugin) => [
      plugin.id,
      new Set((plugin.permissions ?? []).map((p) => `${p.resource}:${p.action}`)),
    ]),
  );
  registerAccessControl(app, options.access, routes, declaredPermissions);
  registerControlCharacterGate(app);
  registerJsonApiNegotiation(app);
  await registerSecurityHeaders(app);
  await registerOpenApi(app);

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Liveness and database reachability. 503 when the database does not answer.',
        tags: ['core'],
        response: { 200: healthResponse, 503: healthResponse },
      },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      const body = { database: options.database.kind, version: ATRIUM_VERSION };
      try {
        await Promise.race([
          options.database.pool.query('SELECT 1'),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('health check timed out')), HEALTH_TIMEOUT_MS).unref(),
          ),
        ]);
        return { status: 'ok' as const, ...body };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, ...body });
      }
    },
  );

  if (options.storage) await registerStorageRoutes(app, options.storage.storage, options.storage.signer);

  const context: ServerPluginContext = { ...options.context, log: app.log };
  // A few requests per pooled connection run at once; the rest wait their turn (admission.ts).
  const poolSize = (options.database.pool as { options?: { max?: number } }).options?.max ?? 10;
  const admission = createAdmission(options.admissionLimit ?? Math.max(4, poolSize * 2));
  app.decorate('admission', admission);
  for (const plugin of options.plugins) {
    if (!plugin.routes) continue;
    const prefix = plugin.prefix ?? `/api/${plugin.id}`;
    await app.register(
      async (scope) => {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), plugin: plugin.id } as typeof route.config;
        });
        admission.apply(scope);
        await plugin.routes!(scope.withTypeProvider<ZodTypeProvider>(), {
          ...context,
          log: app.log.child({ plugin: plugin.id }),
        });
      },
      { prefix },
    );
  }

  registerGatewayRoute(app, options.plugins, context);

  const webDist = options.webDist;
  if (webDist) await registerSpa(app, webDist);

  app.setNotFoundHandler(async (request, reply) => {
    const pathOnly = request.url.split('?')[0]!;
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathOnly.startsWith('/api/') &&
      pathOnly !== '/api' &&
      app.sendSpaIndex
    ) {
      return app.sendSpaIndex(request, reply);
    }
    return sendError(request, reply, new ApiError(404));
  });

  return { app, routes };
}
