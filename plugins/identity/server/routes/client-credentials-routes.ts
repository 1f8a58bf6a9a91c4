import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError, type AtriumRouter } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { equalHashes, sha256Hex } from '../secret-tokens.js';
import { appClient } from '../tables.js';

const tags = ['identity'];

const tokenBody = z.strictObject({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1).max(100).optional(),
  client_secret: z.string().min(1).max(200).optional(),
});

const invalidClient = () =>
  new ApiError(401, 'Client authentication failed.', {
    code: 'invalid_client',
    headers: { 'www-authenticate': 'Basic realm="atrium"' },
  });

/** Client id and secret from `Authorization: Basic` (RFC 6749 §2.3.1) or the body. */
function credentialsOf(
  header: string | undefined,
  body: z.infer<typeof tokenBody>,
): { clientId: string; secret: string } | null {
  const basic = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) return null;
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  }
  return body.client_id && body.client_secret ? { clientId: body.client_id, secret: body.client_secret } : null;
}

/**
 * POST oauth2/token with grant_type client_credentials: a machine client (user management
 * `app-clients`) trades its id and secret for a one-hour access token that acts in its one role.
 * There is no refresh token; the client asks again.
 */
export function clientCredentialsRoutes(router: AtriumRouter, services: IdentityServices) {
  router.post(
    '/oauth2/token',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Client-credentials grant: an access token for a machine client, limited to its one role.',
        description:
          'Credentials in Authorization: Basic base64(client_id:client_secret) or in the body. 401 invalid_client ' +
          'for unknown clients or wrong secrets. JSON body: { grant_type: "client_credentials" }.',
        tags,
        body: tokenBody,
        response: {
          200: z.object({
            access_token: z.string(),
            token_type: z.literal('Bearer'),
            expires_in: z.number(),
            role: z.string(),
          }),
        },
      },
    },
    async (request, reply) => {
      const header = request.headers.authorization;
      const credentials = credentialsOf(typeof header === 'string' ? header : undefined, request.body);
      if (!credentials || !/^[0-9a-f-]{36}$/i.test(credentials.clientId)) throw invalidClient();
      const [client] = await services.db
        .select()
        .from(appClient)
        .where(eq(appClient.id, credentials.clientId))
        .limit(1);
      if (!client || client.revokedAt || !equalHashes(client.secretHash, sha256Hex(credentials.secret))) {
        throw invalidClient();
      }
      const { token, expiresIn } = await services.accessTokens.issueForClient({
        clientId: client.id,
        name: client.name,
        role: client.role,
      });
      reply.header('cache-control', 'no-store');
      return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, role: client.role };
    },
  );
}
