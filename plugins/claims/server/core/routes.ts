import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** The claims core routes: claims, exposures, parties, lookups, products, statuses, audit log. */
export function registerCoreRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  void router;
  void context;
}
