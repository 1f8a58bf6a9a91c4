import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Registers the lines module's graphql routes (filled in by the helper that owns server/graphql/). */
export function registerGraphqlRoutes(router: AtriumRouter, context: ServerPluginContext): void | Promise<void> {
  void router;
  void context;
}
