import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  ApiError,
  type AccessEvaluator,
  type Authenticator,
  type Principal,
  type RouteAccess,
} from '@atrium/sdk/server';

/**
 * Every route declares `config.access`. The declaration is checked when the server becomes ready
 * (a route without one stops the start), and enforced on every request before the body is parsed:
 * authenticate → 401 without a caller → evaluate (resource, action) for the effective role → 403.
 */
export interface RegisteredRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  plugin: string;
  /** The route speaks JSON:API (config.jsonapi): negotiation, the media type, JSON:API errors. */
  jsonapi: boolean;
}

export interface AccessServices {
  authenticator: Authenticator | null;
  evaluator: AccessEvaluator | null;
}

export const ROUTE_REGISTRY = Symbol('atrium.routes');

/** Marks every route registered inside `scope` public unless it says otherwise (docs, static assets). */
export function markScopePublic(scope: FastifyInstance) {
  scope.addHook('onRoute', (route: RouteOptions) => {
    route.config = {
      ...(route.config as object),
      access: (route.config as { access?: RouteAccess })?.access ?? 'public',
    };
  });
}

/**
 * @param declaredPermissions per plugin id, the `resource:action` pairs its manifest declares; a
 *   route may only be checked against a permission its own plugin declares, so that the access
 *   module can list every permission there is.
 */
export function registerAccessControl(
  app: FastifyInstance,
  services: AccessServices,
  routes: RegisteredRoute[],
  declaredPermissions: Map<string, Set<string>>,
) {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      // Read the config lazily: a scope's own onRoute hook may still add the declaration.
      const entry: RegisteredRoute = {
        method,
        url: route.url,
        get plugin() {
          return (route.config as { plugin?: string } | undefined)?.plugin ?? '';
        },
        get access() {
          return (route.config as { access?: RouteAccess } | undefined)?.access;
        },
        get jsonapi() {
          return (route.config as { jsonapi?: boolean } | undefined)?.jsonapi === true;
        },
      };
      routes.push(entry);
    }
  });

  app.addHook('onReady', async () => {
    const undeclared = routes.filter((route) => !route.access);
    if (undeclared.length > 0) {
      throw new Error(
        `Routes without an access declaration (config.access): ${undeclared
          .map((r) => `${r.method} ${r.url}`)
          .join(', ')}`,
      );
    }
    const undeclaredPermission = routes.filter((route) => {
      if (typeof route.access !== 'object') return false;
      return !declaredPermissions.get(route.plugin)?.has(`${route.access.resource}:${route.access.action}`);
    });
    if (undeclaredPermission.length > 0) {
      throw new Error(
        `Routes checked against a permission their plugin does not declare: ${undeclaredPermission
          .map((r) => `${r.method} ${r.url} (${r.plugin || 'no plugin'})`)
          .join(', ')}`,
      );
    }
  });

  // Null until the check below resolves the caller; handlers of protected routes never see null.
  app.decorateRequest('principal', null as unknown as Principal);

  // The check is attached to each protected route itself, so public routes pay nothing for it.
  const check = async (request: FastifyRequest) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined || access === 'public') return;
    const principal = services.authenticator ? await services.authenticator.authenticate(request) : null;
    if (!principal) throw new ApiError(401);
    request.principal = principal;
    if (access === 'authenticated') return;
    if (!services.evaluator) throw new ApiError(403, 'No access evaluator is installed.');
    const evaluation = await services.evaluator.evaluate(request.principal, access);
    if (!evaluation.allowed) {
      const ingressDenied = evaluation.reason === 'no-role-assignment' || evaluation.reason === 'no-effective-role';
      throw new ApiError(403, undefined, {
        code: evaluation.reason,
        meta: ingressDenied ? { ingress_denied: true, annotation: evaluation.reason } : undefined,
      });
    }
  };
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (access === undefined || access === 'public') return;
    route.onRequest = [check, ...toArray(route.onRequest)] as RouteOptions['onRequest'];
  });
}

export function toArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
