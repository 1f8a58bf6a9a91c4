import { createRouteRef } from '@atrium/sdk';

/** The UI plugins screens live beside Integrations (the spec's integrations host). */
export const pluginsRoute = createRouteRef({ name: 'ui-plugins:list', path: '/integrations/plugins' });
/** The local dev harness: mount a plugin in progress in a slot, against a sample context. */
export const pluginHarnessRoute = createRouteRef({ name: 'ui-plugins:harness', path: '/integrations/plugins/harness' });
