import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ATRIUM_VERSION } from '../version.js';
import { markScopePublic } from './access-control.js';

/** The OpenAPI document (from every route's zod schemas) at /api/docs/json, and its page at /api/docs. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Atrium API',
        description:
          'Insurance administration workbench. Each route lists the permission (resource, action) it is evaluated against under x-atrium-access.',
        version: ATRIUM_VERSION,
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const access = (input.route.config as { access?: unknown } | undefined)?.access;
      return {
        ...transformed,
        schema: { ...transformed.schema, 'x-atrium-access': access } as typeof transformed.schema,
      };
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(async (scope) => {
    markScopePublic(scope);
    await scope.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  });
}
