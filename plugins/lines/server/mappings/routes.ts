import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Registers the lines module's mappings routes (filled in by the helper that owns server/mappings/). */
export function registerMappingRoutes(router: AtriumRouter, context: ServerPluginContext): void | Promise<void> {
  void router;
  void context;
}
