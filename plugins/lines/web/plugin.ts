import IconSearch from '@tabler/icons-react/icons/IconSearch';
import IconStack2 from '@tabler/icons-react/icons/IconStack2';
import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import {
  lendApi,
  lineQuickSearch,
  LINE_SEARCH_ID,
  productVersionQuickSearch,
  PRODUCT_VERSION_SEARCH_ID,
  riskTypeQuickSearch,
  RISK_TYPE_SEARCH_ID,
} from './lines-quick-search.js';
import { ratingCommands, ratingRoutes } from './rating-routes.js';
import { lineOverviewRoute, linesSearchRoute, riskTypeDetailsRoute } from './routes.js';

/**
 * The Lines module: product builders' screens for lines of business — search of lines, a line's
 * product tree with versions (status, effective date, reinstate, delete), differences, mapping and
 * exports, and a risk type's fields, items, limits, rate tables and calculations. Shown when the
 * effective role may `ViewModule` on `ui:lines`; write actions appear only when `useCan` allows and
 * only on draft versions. The rating screens (rate tables, calculations, scenarios) come from
 * rating-routes.ts and their panels. See docs/lines-screens.md.
 */
const page = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title },
  loader,
});

export default definePlugin({
  id: 'lines',
  title: 'Lines',
  moduleKey: 'lines',
  routes: [
    page(linesSearchRoute, 'Lines', () => import('./pages/search-lines-page.js')),
    page(lineOverviewRoute, 'Line', () => import('./pages/line-overview-page.js')),
    page(riskTypeDetailsRoute, 'Risk type', () => import('./pages/risk-type-details-page.js')),
    ...ratingRoutes,
  ],
  nav: [
    {
      id: 'lines.nav',
      title: 'Lines',
      to: linesSearchRoute,
      area: 'main',
      order: 300,
      icon: IconStack2,
      command: 'lines.openLines',
    },
    { id: 'lines.search', title: 'Search lines', to: linesSearchRoute, area: 'sub', order: 1, icon: IconSearch },
  ],
  commands: [
    defineCommand({
      id: 'lines.openLines',
      title: 'Search Lines',
      group: 'Lines',
      keywords: ['lines', 'products', 'line of business'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(linesSearchRoute.link({})),
    }),
    defineCommand({
      id: 'lines.openLine',
      title: 'Open Line',
      group: 'Lines',
      keywords: ['line', 'product tree', 'homeowners', 'auto'],
      when: 'host.signedIn',
      args: () => import('./command-args.js').then((m) => m.openLineArgs),
      run(args, { services }) {
        if (args) return services.navigate(lineOverviewRoute.link({ lineName: args.lineName }));
        lendApi(services.api);
        services.openQuickSearch(LINE_SEARCH_ID);
      },
    }),
    defineCommand({
      id: 'lines.openProductVersion',
      title: 'Open Product Version',
      group: 'Lines',
      keywords: ['product', 'version', 'draft', 'published'],
      when: 'host.signedIn',
      args: () => import('./command-args.js').then((m) => m.openProductVersionArgs),
      run(args, { services }) {
        if (args)
          return services.navigate(lineOverviewRoute.link({ lineName: args.lineName }, { version_id: args.versionId }));
        lendApi(services.api);
        services.openQuickSearch(PRODUCT_VERSION_SEARCH_ID);
      },
    }),
    defineCommand({
      id: 'lines.openRiskType',
      title: 'Open Risk Type',
      group: 'Lines',
      keywords: ['risk type', 'fields', 'items', 'coverage'],
      when: 'host.signedIn',
      args: () => import('./command-args.js').then((m) => m.openRiskTypeArgs),
      run(args, { services }) {
        if (args)
          return services.navigate(
            riskTypeDetailsRoute.link(
              { lineName: args.lineName, productName: args.productName, riskTypeName: args.riskTypeName },
              { version_id: args.versionId },
            ),
          );
        lendApi(services.api);
        services.openQuickSearch(RISK_TYPE_SEARCH_ID);
      },
    }),
    ...ratingCommands,
  ],
  quickSearch: [lineQuickSearch, productVersionQuickSearch, riskTypeQuickSearch],
  shortcuts: [{ key: 'g l', command: 'lines.openLines', description: 'Go to Lines', when: '!modalOpen' }],
});
