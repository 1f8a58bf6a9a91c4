import { createRouteRef } from '@atrium/sdk';

/** The spec's Integrations routes this module has built (docs/integrations.md). */
export const dashboardRoute = createRouteRef({ name: 'integrations:dashboard', path: '/integrations/dashboard' });
export const eventsRoute = createRouteRef({ name: 'integrations:events', path: '/integrations/events' });
export const subscriptionsRoute = createRouteRef({
  name: 'integrations:subscriptions',
  path: '/integrations/events/subscriptions',
});
export const subscriptionMessagesRoute = createRouteRef({
  name: 'integrations:subscription-messages',
  path: '/integrations/events/subscriptions/:subscriptionId',
});
export const exceptionsRoute = createRouteRef({ name: 'integrations:exceptions', path: '/integrations/exceptions' });
export const mappingsRoute = createRouteRef({ name: 'integrations:datamappings', path: '/integrations/datamappings' });
export const newMappingRoute = createRouteRef({
  name: 'integrations:datamappings-new',
  path: '/integrations/datamappings/new',
});
export const editMappingRoute = createRouteRef({
  name: 'integrations:datamappings-edit',
  path: '/integrations/datamappings/edit/:mappingId',
});
export const integrationsRoute = createRouteRef({ name: 'integrations:list', path: '/integrations' });
export const newIntegrationRoute = createRouteRef({ name: 'integrations:new', path: '/integrations/new' });
export const integrationRoute = createRouteRef({
  name: 'integrations:integration',
  path: '/integrations/:integrationId',
});
