import { z, resourceDocument, type AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { newOpaqueToken, sha256Hex } from '../secret-tokens.js';
import { appClient } from '../tables.js';
import { USER_MANAGEMENT_PERMISSIONS as P } from './permissions.js';
import { attributeProblem, isUniqueViolation } from './resources.js';

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];

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
}
