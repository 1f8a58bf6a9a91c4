import { fileURLToPath } from 'node:url';
import { CARRIER_SETTINGS, defineServerPlugin } from '@atrium/sdk/server';
import { massDeliverableRoutes, massDeliverablesGateway } from './mass-deliverables.js';
import { navigationLinksRoute } from './navigation-links.js';
import { settingsPermissions } from './permissions.js';
import { settingsRoutes } from './settings-routes.js';

/**
 * The Settings module (docs/settings.md): the administrators' carrier settings — name, website,
 * logo, claim and policy number prefixes, live status and its description, the classic links'
 * product slug — kept by the platform core and written through its service; and the classic
 * navigation-links call; and how mass deliverables are sent per state (its own table). Session, password and MFA settings stay in Users → Admin settings.
 */
export default defineServerPlugin({
  id: 'settings',
  title: 'Settings',
  prefix: '/api',
  deps: [CARRIER_SETTINGS],
  // Its own tables: mass deliverables per state (mass-deliverables.ts).
  dbSchema: 'settings',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: settingsPermissions,
  gateway: [massDeliverablesGateway],
  routes(router, context) {
    settingsRoutes(router, context);
    navigationLinksRoute(router, context);
    massDeliverableRoutes(router, context);
  },
});
