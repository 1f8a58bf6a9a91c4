import { CARRIER_SETTINGS, defineServerPlugin } from '@atrium/sdk/server';
import { navigationLinksRoute } from './navigation-links.js';
import { settingsPermissions } from './permissions.js';
import { settingsRoutes } from './settings-routes.js';

/**
 * The Settings module (docs/settings.md): the administrators' carrier settings — name, website,
 * logo, claim and policy number prefixes, live status and its description, the classic links'
 * product slug — kept by the platform core and written through its service; and the classic
 * navigation-links call. Session, password and MFA settings stay in Users → Admin settings.
 */
export default defineServerPlugin({
  id: 'settings',
  title: 'Settings',
  prefix: '/api',
  deps: [CARRIER_SETTINGS],
  permissions: settingsPermissions,
  routes(router, context) {
    settingsRoutes(router, context);
    navigationLinksRoute(router, context);
  },
});
