import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Registers the lines module's rating routes (filled in by the helper that owns server/rating/). */
export function registerRatingRoutes(router: AtriumRouter, context: ServerPluginContext): void | Promise<void> {
  void router;
  void context;
}
