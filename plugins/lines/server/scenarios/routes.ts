import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { riskRoutes } from './risk-routes.js';
import { scenarioRoutes } from './scenario-routes.js';

/** Scenarios and their risks under /api/lines/products/{p}/scenarios/ (see docs/lines-scenarios.md). */
export function registerScenarioRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  scenarioRoutes(router, context.db);
  riskRoutes(router, context.db);
}
