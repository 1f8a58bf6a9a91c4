import { definePlugin } from '@atrium/sdk';
import { outstandingTicketsRoute, supportToolsRoute } from './routes.js';

/**
 * Support's web half: Support Tools and Outstanding tickets in the user menu (spec "Resources"),
 * for the carrier's staff (`ui:support`; agents and agencies have no Resources menu). The ticket
 * form itself is the shell's Help dialog, which posts to the classic gateway's submit_issue.
 */
/** Spec: outstanding tickets are hidden when the newer generation of the app is disabled. */
const NEW_GENERATION_ENABLED = import.meta.env.VITE_NEW_GENERATION !== 'false';

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
    ...(NEW_GENERATION_ENABLED
      ? [
          {
            id: 'support.tickets',
            title: 'Outstanding tickets',
            to: outstandingTicketsRoute,
            area: 'resources' as const,
            order: 51,
          },
        ]
      : []),
  ],
});
