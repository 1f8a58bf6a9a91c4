import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Registers the lines module's rate-tables routes (filled in by the helper that owns server/rate-tables/). */
export function registerRateTableRoutes(router: AtriumRouter, context: ServerPluginContext): void | Promise<void> {
  void router;
  void context;
}
