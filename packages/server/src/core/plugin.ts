import { fileURLToPath } from 'node:url';
import { defineServerPlugin } from '@atrium/sdk/server';
import { carrierSettingsService } from './carrier-settings-service.js';
import { seedDemoCarrier } from './demo-carrier.js';
import { eventCatalogueRoute } from './event-catalogue-route.js';
import { coreRoutes } from './routes.js';

/** The platform core, declared like any module: the carrier, settings and classic utility calls. */
export default defineServerPlugin({
  id: 'core',
  title: 'Platform core',
  prefix: '/api',
  dbSchema: 'core',
  migrationsFolder: fileURLToPath(new URL('../../migrations', import.meta.url)),
  permissions: [
    { resource: 'core:setting', action: 'update', description: 'Change the writable settings (session timeout).' },
    { resource: 'core:event', action: 'read', description: 'Read the catalogue of event topics and their schemas.' },
  ],
  // The carrier's site settings, for the settings module's page and any module that reads them.
  provides: { services: [carrierSettingsService] },
  async routes(router, context) {
    await coreRoutes(router, context);
    eventCatalogueRoute(router);
  },
  seed: seedDemoCarrier,
});
