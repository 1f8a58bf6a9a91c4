import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { registerCalculationRoutes } from './calculations/routes.js';
import { translateDatabaseErrors } from './catalog/database-errors.js';
import { registerCatalogRoutes } from './catalog/routes.js';
import { registerDifferenceRoutes } from './differences/routes.js';
import { LINES_EVENTS } from './events.js';
import { registerGraphqlRoutes } from './graphql/routes.js';
import { registerMappingRoutes } from './mappings/routes.js';
import { linesOntologyService } from './ontology-service.js';
import { LINES_PERMISSION_DECLARATIONS } from './permissions.js';
import { registerRateTableRoutes } from './rate-tables/routes.js';
import { linesRatingService } from './rating/rating-provider.js';
import { registerRatingRoutes } from './rating/routes.js';
import { registerScenarioRoutes } from './scenarios/routes.js';
import { seedDemoLines } from './seed/seed-demo-lines.js';
import { registerTransferRoutes } from './transfer/routes.js';

export { assertDraftVersion } from './catalog/version-guard.js';
export { registerBeforePublish } from './catalog/publish-hooks.js';

/**
 * The lines module: lines of business, products and their versions, the product definition
 * (risk types, fields, items, limits, rate tables, calculations, sequences), scenarios with
 * known-answer cases, and rating. Its prefix is `/api` because it serves `/api/lines/…`,
 * `/api/graphql/lines`, `/api/quote/graphql/` and `/api/rating/…`. See docs/lines.md.
 */
export default defineServerPlugin({
  id: 'lines',
  title: 'Lines',
  prefix: '/api',
  dbSchema: 'lines',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: LINES_PERMISSION_DECLARATIONS,
  events: LINES_EVENTS,
  // Other modules read product definitions (rules: the ontology) and rate (policies: renewals)
  // through these typed services.
  provides: { services: [linesOntologyService, linesRatingService] },
  async routes(router, context) {
    translateDatabaseErrors(router);
    await registerCatalogRoutes(router, context);
    await registerRateTableRoutes(router, context);
    await registerCalculationRoutes(router, context);
    await registerTransferRoutes(router, context);
    await registerDifferenceRoutes(router, context);
    await registerMappingRoutes(router, context);
    await registerScenarioRoutes(router, context);
    await registerRatingRoutes(router, context);
    await registerGraphqlRoutes(router, context);
  },
  seed: seedDemoLines,
});
