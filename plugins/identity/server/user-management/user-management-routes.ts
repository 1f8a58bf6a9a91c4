import type { AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { appClientRoutes } from './app-client-routes.js';
import { groupRoutes } from './group-routes.js';
import { meRoutes } from './me-routes.js';
import { migrationRoutes } from './migration-routes.js';
import { pictureRoutes } from './picture-routes.js';
import { userRoutes } from './user-routes.js';

/**
 * User management (JSON:API) under /api/identity/user-management. Registered in its own scope,
 * without identity's InvalidParameterException error handler, so that validation errors are the
 * server's JSON:API error documents with a pointer per field.
 */
export async function userManagementRoutes(router: AtriumRouter, services: IdentityServices) {
  meRoutes(router, services);
  // The picture routes bring their own content-type parser and error handler: a scope of their own.
  await router.register(async (scope) => pictureRoutes(scope, services));
  userRoutes(router, services);
  groupRoutes(router, services);
  appClientRoutes(router, services);
  migrationRoutes(router, services);
}
