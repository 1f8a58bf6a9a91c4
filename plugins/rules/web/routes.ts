import { createRouteRef } from '@atrium/sdk';

/** Rules projects with their effective dates and components (spec route `rules`). */
export const rulesProjectsRoute = createRouteRef({ name: 'rules', path: '/rules' });

/** One component's text on one effective date. Query: `effective_date` (an effective date id). */
export const rulesComponentRoute = createRouteRef({
  name: 'rules:component',
  path: '/rules/projects/:projectId/components/:componentId',
});
