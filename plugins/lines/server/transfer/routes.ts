import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** Registers the lines module's transfer routes (filled in by the helper that owns server/transfer/). */
export function registerTransferRoutes(router: AtriumRouter, context: ServerPluginContext): void | Promise<void> {
  void router;
  void context;
}
