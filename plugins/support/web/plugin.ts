import { definePlugin } from '@atrium/sdk';
import { outstandingTicketsRoute, supportToolsRoute } from './routes.js';

/**
 * Support's web half: Support Tools and Outstanding tickets in the user menu (spec "Resources"),
 * for the carrier's staff (`ui:support`; agents and agencies have no Resources menu). The ticket
 * form itself is the shell's Help dialog, which posts to the classic gateway's submit_issue.
 */
export default definePlugin({
  id: 'support',
  title: 'Support',
  moduleKey: 'support',
  routes: [
    {
      name: supportToolsRoute.name,
      path: supportToolsRoute.path,
      meta: { layout: 'default', title: 'Support Tools' },
      loader: () => import('./pages/support-tools-page.js'),
    },
    {
      name: outstandingTicketsRoute.name,
      path: outstandingTicketsRoute.path,
      meta: { layout: 'default', title: 'Outstanding tickets' },
      loader: () => import('./pages/outstanding-tickets-page.js'),
    },
  ],
  nav: [
    { id: 'support.tools', title: 'Support Tools', to: supportToolsRoute, area: 'resources', order: 50 },
    { id: 'support.tickets', title: 'Outstanding tickets', to: outstandingTicketsRoute, area: 'resources', order: 51 },
  ],
});
