import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Lines, products, versions, risk types, fields, items, limits, sequences and field formats. */
export async function registerCatalogRoutes(router: AtriumRouter, context: ServerPluginContext): Promise<void> {
  void router;
  void context;
}
