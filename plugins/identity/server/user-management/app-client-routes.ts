import { and, eq, isNull } from 'drizzle-orm';
import { notFound, z, resourceDocument, type AtriumRouter, type Principal } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { newOpaqueToken, sha256Hex } from '../secret-tokens.js';
import { appClient } from '../tables.js';
import { USER_MANAGEMENT_PERMISSIONS as P } from './permissions.js';
import { attributeProblem, isUniqueViolation } from './resources.js';

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];
const ADMINISTRATOR_ROLE = 'Administrator';
const idParams = z.strictObject({ id: z.uuid() });

/**
 * A caller may give a machine client only a role it holds itself (an Administrator holds every
 * role's permissions): holding `identity:app-client create` must not be a way to an
 * Administrator-role client.
 */
export function mayGrantRole(principal: Principal, role: string): boolean {
  const held = principal.roles.map((name) => name.toLowerCase());
  return held.includes(role.toLowerCase()) || held.includes(ADMINISTRATOR_ROLE.toLowerCase());
}

/**
 * POST app-clients: a machine client acting in one role. The client secret is answered once in
 * meta.client_secret; only its SHA-256 is stored (the secret is 256 random bits, so a fast hash is
 * enough). POST /api/identity/oauth2/token (client-credentials grant) trades them for an access
 * token that acts in the client's role.
 */
export function appClientRoutes(router: AtriumRouter, services: IdentityServices) {
  router.post(
    '/app-clients',
    {
      config: { jsonapi: true, access: P.createAppClient },
      schema: {
        summary: 'Creates a machine client (name, role); answers its client_id and, once, meta.client_secret.',
        description:
          'The client trades its id and secret at POST /api/identity/oauth2/token for tokens limited to its role. Names are unique in any case (400 on ' +
          '/data/attributes/name).',
        tags,
        security,
        body: resourceDocument('app-client', {
          name: z.string().trim().min(1, 'This field may not be blank.').max(128),
          role: z.string().trim().min(1, 'This field may not be blank.').max(100),
        }),
      },
    },
    async (request, reply) => {
      const attributes = request.body.data.attributes;
      if (!attributes?.name) throw attributeProblem('name', 'This field is required.', 'required');
      if (!attributes.role) throw attributeProblem('role', 'This field is required.', 'required');
      if (!mayGrantRole(request.principal!, attributes.role)) {
        throw attributeProblem(
          'role',
          'You can only create a machine client in a role you hold yourself.',
          'permission_denied',
          403,
        );
      }
      const secret = newOpaqueToken();
      let row;
      try {
        [row] = await services.db
          .insert(appClient)
          .values({
            name: attributes.name,
            role: attributes.role,
            secretHash: sha256Hex(secret),
            createdAt: services.clock.now(),
          })
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw attributeProblem('name', 'An app client with this name already exists.', 'AppClientExistsException');
        }
        throw error;
      }
      reply.status(201);
      return {
        jsonapi: { version: '1.1' as const },
        data: {
          type: 'app-client',
          id: row!.id,
          attributes: {
            name: row!.name,
            role: row!.role,
            client_id: row!.id,
            created_at: row!.createdAt.toISOString(),
          },
        },
        meta: { client_secret: secret },
      };
    },
  );

  router.delete(
    '/app-clients/:id',
    {
      config: { jsonapi: true, access: P.revokeAppClient },
      schema: {
        summary: 'Revokes a machine client: its secret and every token it holds stop working at once.',
        description:
          'A client in a role the caller does not hold cannot be revoked by them either (403). Revoking twice is 404.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      const [existing] = await services.db
        .select({ id: appClient.id, role: appClient.role })
        .from(appClient)
        .where(and(eq(appClient.id, request.params.id), isNull(appClient.revokedAt)))
        .limit(1);
      if (!existing) throw notFound();
      if (!mayGrantRole(request.principal!, existing.role)) {
        throw attributeProblem(
          'role',
          'You can only revoke a machine client in a role you hold yourself.',
          'permission_denied',
          403,
        );
      }
      // The revision trigger (migration 0004) makes every process drop the client's cached row.
      await services.db
        .update(appClient)
        .set({ revokedAt: services.clock.now() })
        .where(and(eq(appClient.id, existing.id), isNull(appClient.revokedAt)));
      // This process's own caches at once; other processes within a second (revision-watch.ts).
      services.forgetSessionSnapshots();
      return reply.status(204).send();
    },
  );
}
