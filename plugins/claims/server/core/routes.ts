import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { auditRoutes } from './audit-routes.js';
import { registerClaimKinds } from './claim-kinds.js';
import { claimRoutes } from './claim-routes.js';
import { exposureRoutes } from './exposure-routes.js';
import { productRoutes } from './product-routes.js';

/** The claims core routes: claims, exposures, claim kinds and lookups, products, statuses, audit log. */
export function registerCoreRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  claimRoutes(router, context);
  exposureRoutes(router, context);
  registerClaimKinds(router, context);
  productRoutes(router, context.db);
  auditRoutes(router, context);
}
