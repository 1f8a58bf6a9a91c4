import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';

/** The ledger's routes (reserves, payments, recoveries, transactions, batches, authority limits). */
export function registerLedgerRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  void router;
  void context;
}
