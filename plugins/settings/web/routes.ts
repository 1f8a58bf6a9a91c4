import { createRouteRef } from '@atrium/sdk';

export const settingsPageRoute = createRouteRef({ name: 'settings', path: '/settings' });
