import IconApps from '@tabler/icons-react/icons/IconApps';
import IconCreditCard from '@tabler/icons-react/icons/IconCreditCard';
import IconReportAnalytics from '@tabler/icons-react/icons/IconReportAnalytics';
import { defineCommand, definePlugin } from '@atrium/sdk';
import { briteAppsRoute, paymentsRoute, reportRoute, reportsRoute } from './routes.js';

/**
 * Reports' web half (docs/reports.md): the reports (filters, chart, table, CSV and XLSX, a progress
 * bar while the job runs) for everyone who may view `ui:reports`, and the agent portal's Payments
 * and BriteApps pages, which agents and agencies reach from their navigation (spec: New Quote,
 * Policies and Quotes, Claims, Payments, Reports, BriteApps — quote, policies and claims add theirs).
 */
export default definePlugin({
  id: 'reports',
  title: 'Reports',
  moduleKey: 'reports',
  routes: [
    {
      name: reportsRoute.name,
      path: reportsRoute.path,
      meta: { layout: 'default', title: 'Reports' },
      loader: () => import('./pages/reports-page.js'),
    },
    {
      name: reportRoute.name,
      path: reportRoute.path,
      meta: { layout: 'default', title: 'Report' },
      loader: () => import('./pages/report-page.js'),
    },
    {
      name: paymentsRoute.name,
      path: paymentsRoute.path,
      meta: { layout: 'default', title: 'Payments' },
      loader: () => import('./pages/payments-page.js'),
    },
    {
      name: briteAppsRoute.name,
      path: briteAppsRoute.path,
      meta: { layout: 'default', title: 'BriteApps' },
      loader: () => import('./pages/brite-apps-page.js'),
    },
  ],
  nav: [
    {
      id: 'reports.nav',
      title: 'Reports',
      to: reportsRoute,
      area: 'main',
      // The spec's module order: … Claims, Reports, Documents (310).
      order: 300,
      icon: IconReportAnalytics,
      command: 'reports.open',
    },
    { id: 'reports.agent', title: 'Reports', to: reportsRoute, area: 'agent', order: 5, icon: IconReportAnalytics },
    {
      id: 'reports.agent.payments',
      title: 'Payments',
      to: paymentsRoute,
      area: 'agent',
      order: 4,
      icon: IconCreditCard,
    },
    { id: 'reports.agent.briteapps', title: 'BriteApps', to: briteAppsRoute, area: 'agent', order: 6, icon: IconApps },
  ],
  commands: [
    defineCommand({
      id: 'reports.open',
      title: 'Open Reports',
      group: 'Reports',
      keywords: ['loss run', 'bordereaux', 'premium', 'production', 'claims register'],
      run: (_args, { services }) => services.navigate(reportsRoute.link({})),
    }),
  ],
});
