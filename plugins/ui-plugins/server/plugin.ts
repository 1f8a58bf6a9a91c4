import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { actingPluginsService } from './acting-plugins.js';
import { uiPluginsPermissions } from './permissions.js';
import { enabledPluginRoutes } from './enabled-plugin-routes.js';
import { harnessRoutes } from './harness-routes.js';
import { pluginFileRoutes } from './plugin-file-routes.js';
import { pluginRoutes } from './plugin-routes.js';

/**
 * Third-party UI plugins (docs/third-party-plugins.md): the plugin records and their files. The
 * spec puts them on the integrations host, so the routes live under `/api/integrations/plugins/`
 * while the module keeps its own schema and permissions.
 */
export default defineServerPlugin({
  id: 'ui-plugins',
  title: 'UI plugins',
  prefix: '/api/integrations',
  dbSchema: 'ui_plugins',
  migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
  permissions: uiPluginsPermissions,
  // Quote asks which plugin a risk change was made for, to audit it (acting-plugins.ts).
  provides: { services: [actingPluginsService] },
  routes(router, context) {
    enabledPluginRoutes(router, context);
    pluginRoutes(router, context);
    pluginFileRoutes(router, context);
    harnessRoutes(router);
  },
});
