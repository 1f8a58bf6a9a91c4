import type { AtriumRouter, ServerPluginContext } from '@atrium/sdk/server';
import { attachmentsRoutes } from './attachments-routes.js';
import { contactsRoutes } from './contacts-routes.js';
import { policiesRoutes } from './policies-routes.js';
import { usersRoutes } from './users-routes.js';

/** The integrations the claims screens call under /api/claims/integrations/ (and claims/users/…/assign). */
export function registerIntegrationRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  policiesRoutes(router, context);
  usersRoutes(router, context);
  attachmentsRoutes(router, context);
  contactsRoutes(router, context);
}
