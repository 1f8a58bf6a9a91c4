import type { FastifyInstance, HTTPMethods } from 'fastify';

/**
 * A route answers the same with and without its trailing slash (issue 14, hole 11): the router runs
 * with `ignoreTrailingSlash`, so `/api/access/roles/` is `/api/access/roles` and no longer an empty
 * `:id`. Some modules register both spellings of a path on purpose (written before the router did
 * this); the second spelling is now the same route, so its registration is dropped here instead of
 * failing the start as a duplicate. Register this before any other `onRoute` hook so that the route
 * registry and the OpenAPI document never see the dropped twin.
 */
export function registerTrailingSlashTwins(app: FastifyInstance) {
  const taken = new Set<string>();
  app.addHook('onRoute', (route) => {
    const url = route.url.length > 1 && route.url.endsWith('/') ? route.url.slice(0, -1) : route.url;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethods[];
    const fresh = methods.filter((method) => {
      const key = `${method} ${url}`;
      if (taken.has(key)) return false;
      taken.add(key);
      return true;
    });
    if (fresh.length === methods.length) return;
    // Fastify registers a route for each of its methods: none left means nothing is registered.
    route.method = fresh;
  });
}
