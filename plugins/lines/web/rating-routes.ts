import { defineCommand, defineRoute, type AnyCommandDefinition, type PluginRoute } from '@atrium/sdk';
import { requestScenarioRating } from './scenarios/rate-scenario-event.js';
import { scenarioPreviewRoute } from './scenarios/scenario-route.js';

/**
 * The rating screens' own routes and palette commands (rate tables, calculations, scenarios).
 * plugins/lines/web/plugin.ts spreads these into the Lines manifest; the catalog screens embed the
 * panels (rate-tables-panel, calculations-panel, scenarios-panel) directly. Page code loads lazily.
 */
export const ratingRoutes: PluginRoute[] = [
  defineRoute(scenarioPreviewRoute, {
    meta: { layout: 'default', title: 'Scenario preview' },
    loader: () => import('./scenarios/scenario-preview-page.js'),
  }),
];

export const ratingCommands: AnyCommandDefinition[] = [
  defineCommand({
    id: 'lines.rateScenario',
    title: 'Rate scenario',
    group: 'Lines',
    keywords: ['rate', 'premium', 'worksheet', 'scenario', 'lines'],
    // Commands reach the open page only through the host: the preview page listens for this request.
    when: `route == "${scenarioPreviewRoute.name}"`,
    run: () => requestScenarioRating(),
  }),
];

export { scenarioPreviewRoute };
