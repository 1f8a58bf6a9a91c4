import { defineGatewayMethod, z, type GatewayMethod, type ServerPluginContext } from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';

const logOutBody = z.strictObject({});

/**
 * `core.login logOut` (spec, classic and utility calls): ends the caller's session — the one the
 * access token belongs to, with its refresh token — as the classic pages' "Log out" did. Other
 * sessions of the user (other devices) stay; global sign-out ends those. A machine client has no
 * session: the call answers success and changes nothing (its tokens end with its revocation).
 */
export function logOutGatewayMethod(
  servicesFor: (context: ServerPluginContext) => IdentityServices,
): GatewayMethod<z.infer<typeof logOutBody>> {
  return defineGatewayMethod({
    file: 'core.login',
    method: 'logOut',
    summary: "Ends the caller's session (its refresh and access tokens stop working).",
    access: 'authenticated',
    body: logOutBody,
    async handler(_input, { request, context }) {
      const sessionId = request.principal.attributes?.sessionId;
      if (request.principal.kind === 'user' && typeof sessionId === 'string') {
        await servicesFor(context).sessions.revoke(sessionId, 'sign-out');
      }
      return { success: true };
    },
  });
}
