import { ApiError, resourceDocument, z, type AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { normalizeUsername } from '../user-store.js';

const tags = ['identity', 'user-management'];

/** The spec's default text when a migration fails ("Error catalogue"). */
export const MIGRATION_USER_NOT_FOUND = "We're sorry, but this username could not be found.";

const notFound = () =>
  new ApiError(404, MIGRATION_USER_NOT_FOUND, {
    code: 'UserNotFoundException',
    issues: [
      {
        detail: MIGRATION_USER_NOT_FOUND,
        code: 'UserNotFoundException',
        source: { pointer: '/data/attributes/username' },
      },
    ],
  });

/**
 * migrate_gen2_contact and migrate_gen2_contact_forgot_password: moving an account from the
 * previous ("gen2") portal. Atrium has no legacy system of its own. The only legacy source is the
 * plugin option `migrateUnknownUser` (the same hook sign-in calls): with it, migrate_gen2_contact
 * asks it to create the account from a username and password; without it, and for anything it
 * cannot migrate, both routes answer 404 UserNotFoundException with the spec's message. An account
 * that already exists here is never migrated again, and answers the same 404, so that these public
 * routes tell nobody which usernames exist. The forgot-password variant has no legacy source to ask
 * (a legacy reset needs the old system to send a code) and always answers 404; a migrated user
 * resets their password with the ordinary forgot-password flow.
 */
export function migrationRoutes(router: AtriumRouter, services: IdentityServices) {
  router.post(
    '/migrate_gen2_contact',
    {
      config: { jsonapi: true, access: 'public' },
      schema: {
        summary: 'Migrates an account from the legacy portal (username, password) when a legacy source is configured.',
        description: `Without a legacy source (the default): 404 UserNotFoundException '${MIGRATION_USER_NOT_FOUND}'.`,
        tags,
        body: resourceDocument('gen2-contact-migration', {
          username: z.string().trim().min(1).max(320),
          password: z.string().min(1).max(256),
        }),
      },
    },
    async (request, reply) => {
      const attributes = request.body.data.attributes;
      const migrate = services.options.migrateUnknownUser;
      if (!attributes?.username || !attributes.password || !migrate) throw notFound();
      const username = normalizeUsername(attributes.username);
      if (await services.throttle.lockedUntil(username, request.ip)) throw notFound();
      if (await services.users.findByUsername(username)) throw notFound();
      if (!(await migrate({ username, password: attributes.password }))) {
        await services.throttle.recordFailure(username, request.ip);
        throw notFound();
      }
      const migrated = await services.users.findByUsername(username);
      if (!migrated) throw notFound();
      reply.status(201);
      return { jsonapi: { version: '1.1' as const }, meta: { status: 'MIGRATED', username: migrated.username } };
    },
  );

  router.post(
    '/migrate_gen2_contact_forgot_password',
    {
      config: { jsonapi: true, access: 'public' },
      schema: {
        summary: "Starts a legacy portal's password reset for an account not yet migrated (username).",
        description: `No legacy source can do this in Atrium: always 404 UserNotFoundException '${MIGRATION_USER_NOT_FOUND}'.`,
        tags,
        body: resourceDocument('gen2-contact-migration', { username: z.string().trim().min(1).max(320) }),
      },
    },
    async () => {
      throw notFound();
    },
  );
}
