import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { registerApprovalRoutes } from './routes/approval-routes.js';
import { registerAuthorityLimitRoutes } from './routes/authority-limit-resource.js';
import { registerFinancialsRoutes } from './routes/financials-routes.js';
import { registerLookupRoutes } from './routes/lookup-routes.js';
import { registerPayeePayorRoutes } from './routes/payee-payor-resources.js';
import { registerPaymentBatchRoutes } from './routes/payment-batch-routes.js';
import { registerPostingRoutes } from './routes/posting-routes.js';

/**
 * The ledger's routes (docs/claims-accounting.md): reserves, payments, recoveries and their voids;
 * transactions and approvals; payment batches; payees and payors; authority limits; financial
 * summaries; the fixed lookups and the entries themselves.
 */
export function registerLedgerRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  registerPostingRoutes(router, context);
  registerApprovalRoutes(router, context);
  registerPaymentBatchRoutes(router, context);
  registerPayeePayorRoutes(router, context);
  registerAuthorityLimitRoutes(router, context);
  registerFinancialsRoutes(router, context);
  registerLookupRoutes(router, context);
}
