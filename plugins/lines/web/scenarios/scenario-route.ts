import { createRouteRef } from '@atrium/sdk';

/**
 * The scenario preview page (spec: "Scenario preview with risk states"): one scenario of a product
 * version with its risk tree, risk states and the rating panel. Query: `version_id` (required by the
 * API's scenario calls), `read_only=true` for a version that is not a draft.
 */
export const scenarioPreviewRoute = createRouteRef({
  name: 'lines:scenario-preview',
  path: '/lines/products/:productId/scenarios/:scenarioId',
});
