import type { ExecutionResult } from 'graphql';
import { z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RulesGraphqlContext } from './graphql.js';
import { can } from './permissions.js';

/** graphql-js and the schema load with the first query, not with the server. */
const engine = () => import('./graphql.js');

const body = z.strictObject({
  query: z.string().min(1, 'A GraphQL request needs a query.'),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  operationName: z.string().max(200).nullable().optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** A request without data (syntax, validation, limits, bad variables) is 400; resolver errors are 200 beside the data. */
function send(reply: FastifyReply, result: ExecutionResult) {
  reply.code(result.data === undefined ? 400 : 200).type('application/json');
  return {
    ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
    ...(result.data !== undefined ? { data: result.data } : {}),
  };
}

/**
 * `POST /api/graphql/rules` (docs/rules.md, "GraphQL"). 'authenticated': the core answers 401
 * without a bearer token; each field then asks for the caller's `rules:project` or
 * `rules:component` `read` through the access evaluator, as the REST routes do.
 */
export function registerGraphqlRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const contextOf = (request: FastifyRequest): RulesGraphqlContext => {
    const decisions = new Map<string, Promise<void>>();
    return {
      db: context.db,
      authorize(thing) {
        let decision = decisions.get(thing);
        if (!decision) {
          decision = (async () => {
            const evaluator = context.services.evaluator;
            const principal = request.principal;
            const allowed =
              evaluator && principal ? (await evaluator.evaluate(principal, can(thing, 'read'))).allowed : false;
            if (!allowed) {
              const { GraphQLError } = await import('graphql');
              const { FORBIDDEN_MESSAGE } = await engine();
              throw new GraphQLError(FORBIDDEN_MESSAGE, { extensions: { code: 'FORBIDDEN', status: 403 } });
            }
          })();
          decisions.set(thing, decision);
        }
        return decision;
      },
    };
  };

  router.post(
    '/graphql/rules',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Rules GraphQL: projects, effective dates, packages, components and jobs (read only).',
        description: 'See docs/rules.md, "GraphQL". Fields need rules:project or rules:component read.',
        tags: ['rules'],
        security: [{ bearer: [] }],
        body,
      },
    },
    async (request, reply) => {
      const { runRulesGraphql } = await engine();
      return send(reply, await runRulesGraphql(request.body, contextOf(request)));
    },
  );
}
