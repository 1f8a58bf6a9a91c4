import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { effectiveDateClassicRoutes } from './effective-date-classic-routes.js';
import { lineRoutes } from './line-routes.js';
import { productRoutes } from './product-routes.js';
import { riskFieldRoutes } from './risk-field-routes.js';
import { riskItemRoutes } from './risk-item-routes.js';
import { riskTypeRoutes } from './risk-type-routes.js';
import { sequenceRoutes } from './sequence-routes.js';
import { versionRoutes } from './version-routes.js';

/** Lines, products, versions, risk types, fields, items, limits, sequences and field formats (docs/lines.md). */
export async function registerCatalogRoutes(router: AtriumRouter, context: ServerPluginContext): Promise<void> {
  lineRoutes(router, context);
  productRoutes(router, context.db);
  versionRoutes(router, context.db, context);
  riskTypeRoutes(router, context.db);
  riskFieldRoutes(router, context.db);
  riskItemRoutes(router, context.db);
  sequenceRoutes(router, context.db);
  effectiveDateClassicRoutes(router, context.db);
}
