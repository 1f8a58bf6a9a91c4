import type { FastifyRequest } from 'fastify';
import type { Permission } from '../access.js';
import type { ServerPluginContext } from '../define-server-plugin.js';
import type { IncludeAccess } from '../jsonapi/resource.js';

/**
 * What `include=` may show this caller: each included type is evaluated with its own read
 * permission, once per request and permission (a page of 250 claims asks about parties once). No
 * evaluator or no principal: nothing is included.
 */
export function includeAccess(context: Pick<ServerPluginContext, 'services'>, request: FastifyRequest): IncludeAccess {
  const answers = new Map<string, Promise<boolean>>();
  return {
    request,
    allows(permission: Permission) {
      const key = `${permission.resource}\u0000${permission.action}`;
      let answer = answers.get(key);
      if (!answer) {
        const evaluator = context.services.evaluator;
        const principal = request.principal;
        answer =
          evaluator && principal
            ? Promise.resolve(evaluator.evaluate(principal, permission)).then((e) => e.allowed)
            : Promise.resolve(false);
        answers.set(key, answer);
      }
      return answer;
    },
  };
}
