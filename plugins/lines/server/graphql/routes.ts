import type { ExecutionResult } from 'graphql';
import { z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LINES_PERMISSIONS } from '../permissions.js';
import { createDatabaseSource } from './database-source.js';
import type { GraphqlRequest } from './execute.js';
import type { GraphqlContext } from './schema.js';

/** graphql-js and the schema load with the first query, not with the server (P8). */
const engine = () => Promise.all([import('graphql'), import('./execute.js'), import('./schema.js')]);

/**
 * GraphQL at /api/graphql/lines and /api/quote/graphql/ (the same schema). The routes are
 * 'authenticated': the core answers 401 without a bearer token before anything runs. Each resolver
 * then asks for the caller's `lines:product read` permission through the same access evaluator as
 * the REST routes; a refusal is a GraphQL error with the spec's 403 message.
 */
const PATHS = ['/graphql/lines', '/quote/graphql/'];
const READ = LINES_PERMISSIONS.product.read;

const postBody = z.strictObject({
  query: z.string().min(1, 'A GraphQL request needs a query.'),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  operationName: z.string().max(200).nullable().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
const getQuery = z.strictObject({
  query: z.string().min(1, 'A GraphQL request needs a query.'),
  variables: z.string().max(100_000).optional(),
  operationName: z.string().max(200).optional(),
});

/** A request without data (syntax, validation, limits, bad variables) is 400; resolver errors are 200 beside the data. */
function send(reply: FastifyReply, result: ExecutionResult) {
  const body = {
    ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
    ...(result.data !== undefined ? { data: result.data } : {}),
  };
  reply.code(result.data === undefined ? 400 : 200).type('application/json');
  return body;
}

export function registerGraphqlRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const contextOf = (request: FastifyRequest): GraphqlContext => {
    let decision: Promise<void> | undefined;
    return {
      source: createDatabaseSource(context.db),
      authorize() {
        decision ??= (async () => {
          const evaluator = context.services.evaluator;
          const principal = request.principal;
          const allowed = evaluator && principal ? (await evaluator.evaluate(principal, READ)).allowed : false;
          if (!allowed) throw (await import('./schema.js')).forbiddenError();
        })();
        return decision;
      },
    };
  };

  for (const path of PATHS) {
    router.post(
      path,
      {
        config: { access: 'authenticated' },
        schema: {
          summary: 'Lines GraphQL: GetLine, GetLineLatestProduct, GetProduct, GetProductByName, GetRiskType, …',
          description: 'See docs/lines-scenarios.md for the schema. Each field needs lines:product read.',
          tags: ['lines: graphql'],
          security: [{ bearer: [] }],
          body: postBody,
        },
      },
      async (request, reply) => {
        const [, { runGraphql }] = await engine();
        return send(reply, await runGraphql(request.body, contextOf(request)));
      },
    );
    router.get(
      path,
      {
        config: { access: 'authenticated' },
        schema: {
          summary: 'Lines GraphQL over GET (query, variables as JSON text, operationName).',
          tags: ['lines: graphql'],
          security: [{ bearer: [] }],
          querystring: getQuery,
        },
      },
      async (request, reply) => {
        const [{ GraphQLError }, { runGraphql }] = await engine();
        let variables: Record<string, unknown> | undefined;
        if (request.query.variables) {
          try {
            variables = JSON.parse(request.query.variables) as Record<string, unknown>;
          } catch {
            return send(reply, { errors: [new GraphQLError('variables is not valid JSON.')] });
          }
        }
        const graphqlRequest: GraphqlRequest = {
          query: request.query.query,
          variables,
          operationName: request.query.operationName,
        };
        // GET may only read; the schema has no mutations, so every operation is a query.
        return send(reply, await runGraphql(graphqlRequest, contextOf(request)));
      },
    );
  }
}
