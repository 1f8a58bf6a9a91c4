import { fileURLToPath } from 'node:url';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ApiError,
  defineServerPlugin,
  provideService,
  validationIssues,
  type AtriumRouter,
  type ServerPluginDefinition,
} from '@atrium/sdk/server';
import { systemClock } from './clock.js';
import { seedDemoAccounts } from './demo-accounts.js';
import { createIdentityAuthenticator } from './identity-authenticator.js';
import { identityDirectoryService } from './identity-directory.js';
import { identityServicesRegistry, type IdentityPluginOptions } from './identity-services.js';
import { PasswordHasher } from './password-hasher.js';
import { USER_DIRECTORY } from '../shared/user-directory.js';
import { createUserDirectory } from './user-directory.js';
import { accountRoutes } from './routes/account-routes.js';
import { clientCredentialsRoutes } from './routes/client-credentials-routes.js';
import { devOutboxRoutes } from './routes/dev-outbox-routes.js';
import { oidcRoutes } from './routes/oidc-routes.js';
import { passwordRoutes } from './routes/password-routes.js';
import { classicRoleRoutes, roleSelectRoutes } from './routes/role-routes.js';
import { settingsRoutes } from './routes/settings-routes.js';
import { signInRoutes } from './routes/sign-in-routes.js';
import { DEFAULT_SIGN_IN_RATE_LIMITS, signInRateLimitHook } from './sign-in-rate-limits.js';
import { tokenRoutes } from './routes/token-routes.js';
import { USER_MANAGEMENT_PERMISSION_DECLARATIONS } from './user-management/permissions.js';
import { USER_MANAGEMENT_PREFIX } from './user-management/resources.js';
import { userManagementRoutes } from './user-management/user-management-routes.js';
import { logOutGatewayMethod } from './routes/log-out-gateway.js';
import { IDENTITY_EVENTS } from './events.js';

export { ManualClock, systemClock, type Clock } from './clock.js';
export type { CodeMessage, CodeSender } from './code-sender.js';
export { tokenIsRevoked } from './identity-authenticator.js';
export type { IdentityPluginOptions } from './identity-services.js';
export type { SignInRateLimits } from './sign-in-rate-limits.js';

/**
 * Where the routes of this module live. The plugin's own prefix is `/api` because it also answers
 * two calls outside /api/identity: the classic `v2/contacts/retrieve_all_roles`, and
 * `access/role-select` until the access module takes /api/access over (then drop that mount).
 */
export const IDENTITY_PREFIX = '/identity';
export const CLASSIC_CONTACTS_PREFIX = '/v2/contacts';
export const ROLE_SELECT_PREFIX = '/access';

/** Identity answers malformed requests with the identity provider's InvalidParameterException. */
function identityErrorHandler(router: AtriumRouter) {
  router.setErrorHandler((error) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = validationIssues(error);
      throw new ApiError(400, issues[0]?.detail ?? 'Invalid parameters.', {
        code: 'InvalidParameterException',
        issues,
      });
    }
    throw error;
  });
}

function devOutboxEnabled(options: IdentityPluginOptions): boolean {
  if (options.devOutboxRoute !== undefined) return options.devOutboxRoute;
  if (process.env.NODE_ENV === 'production') return false;
  return process.env.ATRIUM_DEV_OUTBOX === 'true' || ['development', 'test'].includes(process.env.NODE_ENV ?? '');
}

/** The identity module; tests build their own with a ManualClock or another code sender. */
export function createIdentityPlugin(options: IdentityPluginOptions = {}): ServerPluginDefinition {
  const servicesFor = identityServicesRegistry(options);
  return defineServerPlugin({
    id: 'identity',
    title: 'Identity and sessions',
    prefix: '/api',
    dbSchema: 'identity',
    migrationsFolder: fileURLToPath(new URL('./migrations', import.meta.url)),
    permissions: [
      {
        resource: 'identity:settings',
        action: 'update',
        description: 'Change the MFA configuration and the password policy of the carrier.',
      },
      { resource: 'identity:oidc-provider', action: 'read', description: 'See an external OpenID Connect provider.' },
      { resource: 'identity:oidc-provider', action: 'create', description: 'Add an external OpenID Connect provider.' },
      {
        resource: 'identity:oidc-provider',
        action: 'update',
        description: 'Change an external OpenID Connect provider.',
      },
      {
        resource: 'identity:oidc-provider',
        action: 'delete',
        description: 'Remove an external OpenID Connect provider.',
      },
      ...USER_MANAGEMENT_PERMISSION_DECLARATIONS,
    ],
    gateway: [logOutGatewayMethod(servicesFor)],
    // Users created, changed and deactivated, for webhooks and integrations (events.ts).
    events: IDENTITY_EVENTS,
    provides: {
      authenticator: (context) => createIdentityAuthenticator(servicesFor(context)),
      // Who exists, for other modules: claims users (shared/user-directory.ts) and the access
      // module's role assignments (shared/identity-directory.ts).
      services: [provideService(USER_DIRECTORY, () => createUserDirectory()), identityDirectoryService],
    },
    async routes(router, context) {
      const services = servicesFor(context);
      // Seal TOTP secrets still stored in plaintext (rows from before sealing; the hourly
      // housekeeping catches rows the demo seed writes meanwhile).
      const sealing = Promise.all([services.users.sealStoredSecrets(), services.oidcSecrets.sealStored()]).catch(
        (error: unknown) => context.log.warn({ err: error }, 'sealing stored secrets failed'),
      );
      // A pass still running when the server closes would write to a closed pool.
      router.addHook('onClose', async () => {
        await sealing;
      });
      await router.register(async (classic) => {
        identityErrorHandler(classic);
        await classic.register(
          async (scope) => {
            const throttle = await signInRateLimitHook(scope, {
              limits: options.signInRateLimits ?? DEFAULT_SIGN_IN_RATE_LIMITS,
              sharedCounters: context.databaseKind === 'postgres' ? services.rateLimiter : null,
            });
            signInRoutes(scope, services, throttle);
            passwordRoutes(scope, services, throttle);
            tokenRoutes(scope, services);
            clientCredentialsRoutes(scope, services);
            accountRoutes(scope, services);
            settingsRoutes(scope, services);
            oidcRoutes(scope, services);
            if (devOutboxEnabled(options)) devOutboxRoutes(scope, services);
          },
          { prefix: IDENTITY_PREFIX },
        );
        await classic.register(async (scope) => classicRoleRoutes(scope, services), {
          prefix: CLASSIC_CONTACTS_PREFIX,
        });
        await classic.register(async (scope) => roleSelectRoutes(scope, services), { prefix: ROLE_SELECT_PREFIX });
      });
      // JSON:API, with the server's own error documents (no InvalidParameterException handler).
      await router.register(async (scope) => userManagementRoutes(scope, services), {
        prefix: USER_MANAGEMENT_PREFIX,
      });
    },
    async seed(context) {
      await seedDemoAccounts(context, new PasswordHasher(options.passwordHashing), options.clock ?? systemClock);
    },
  });
}

export default createIdentityPlugin();
