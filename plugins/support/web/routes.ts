import { createRouteRef } from '@atrium/sdk';

/** The user menu's Resources pages (spec: Support Tools, outstanding tickets). */
export const outstandingTicketsRoute = createRouteRef({
  name: 'support:outstanding-tickets',
  path: '/support/tickets',
});
export const supportToolsRoute = createRouteRef({ name: 'support:tools', path: '/support/tools' });
