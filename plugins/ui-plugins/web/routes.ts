import { createRouteRef } from '@atrium/sdk';

/** The UI plugins screens live beside Integrations (the spec's integrations host). */
export const pluginsRoute = createRouteRef({ name: 'ui-plugins:list', path: '/integrations/plugins' });
