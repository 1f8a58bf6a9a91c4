import { createRouteRef } from '@atrium/sdk';

export const integrationsPageRoute = createRouteRef({ name: 'integrations:page', path: '/integrations' });
