import { createRouteRef } from '@atrium/sdk';

/** The Lines catalog screens (spec "Screens and routes", Lines). */
export const linesSearchRoute = createRouteRef({ name: 'lines:search-lines', path: '/lines' });

/** One line: its product tree, versions, risk types. Query: `version_id`, `addProduct`. */
export const lineOverviewRoute = createRouteRef({ name: 'lines:line-overview', path: '/lines/:lineName' });

/**
 * One risk type of a product version. The optional `hash` selects a tab (`fields`, `items`,
 * `rate-tables`, `calculations`, `risk-types`) or a field (`field-<name>`, opened in the editor).
 * Query: `version_id` (the product version shown; the latest when absent).
 */
export const riskTypeDetailsRoute = createRouteRef({
  name: 'lines:risk-type-details',
  path: '/lines/:lineName/products/:productName/risk-types/:riskTypeName/:hash?',
});

export const RISK_TYPE_TABS = ['fields', 'items', 'rate-tables', 'calculations', 'risk-types'] as const;
export type RiskTypeTab = (typeof RISK_TYPE_TABS)[number];

/** Reads the route's `hash` param: a tab, or a field to open on the Fields tab. */
export function parseRiskTypeHash(hash: string | undefined): { tab: RiskTypeTab; field: string | null } {
  if (hash && hash.startsWith('field-')) return { tab: 'fields', field: hash.slice('field-'.length) || null };
  const tab = RISK_TYPE_TABS.find((t) => t === hash);
  return { tab: tab ?? 'fields', field: null };
}
