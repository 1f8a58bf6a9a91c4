import type { AnyCommandDefinition, PluginRoute } from '@atrium/sdk';

/**
 * The rating screens' own routes and palette commands (rate tables, calculations, scenarios).
 * plugins/lines/web/plugin.ts spreads these into the Lines manifest, so this file owns only what
 * the rating screens add; the catalog screens embed the panels directly.
 */
export const ratingRoutes: PluginRoute[] = [];

export const ratingCommands: AnyCommandDefinition[] = [];
