import { createRouteRef } from '@atrium/sdk';

/** The list of reports. */
export const reportsRoute = createRouteRef({ name: 'reports', path: '/reports' });
/** One report: its filters, the run's progress, chart, table and exports. */
export const reportRoute = createRouteRef({ name: 'reports:report', path: '/reports/:reportId' });
/** Agent portal: invoices and payments received of the agent's policies. */
export const paymentsRoute = createRouteRef({ name: 'reports:payments', path: '/payments' });
/** Agent portal: the third-party apps (plugins) enabled for agents. */
export const briteAppsRoute = createRouteRef({ name: 'reports:briteapps', path: '/briteapps' });
