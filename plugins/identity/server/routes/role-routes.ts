import { ApiError, type AtriumRouter } from '@atrium/sdk/server';
import {
  NO_ELIGIBLE_ROLE,
  retrieveAllRolesBody,
  retrieveAllRolesResponse,
  roleSelectBody,
  roleSelectResponse,
} from '../../shared/identity-schemas.js';
import { CHOSEN_ROLE_COOKIE } from '../effective-role.js';
import type { IdentityServices } from '../identity-services.js';

const security = [{ bearer: [] }];

/**
 * The caller's roles at sign-in, in the classic envelope. `login_only` is accepted for the classic
 * client; every role a user holds may sign in, so it does not narrow the list yet.
 */
export function classicRoleRoutes(router: AtriumRouter, services: IdentityServices) {
  router.post(
    '/retrieve_all_roles',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: "The caller's roles, for the role picker after sign-in.",
        tags: ['identity', 'classic'],
        security,
        body: retrieveAllRolesBody,
        response: { 200: retrieveAllRolesResponse },
      },
    },
    async (request) => {
      const record = await services.users.findById(request.principal!.subject);
      const roles = record ? await services.rolesOf(record) : [];
      return { success: true as const, data: roles.map((name) => ({ name })) };
    },
  );
}

const ROLE_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * POST role-select: checks that the role is one of the caller's and remembers it in the chosen_role
 * cookie (read by the web client and, when no X-Effective-Role header is sent, by the authenticator).
 * Lives here until the access module owns /api/access.
 */
export function roleSelectRoutes(router: AtriumRouter, services: IdentityServices) {
  router.post(
    '/role-select',
    {
      config: { access: 'authenticated' },
      schema: {
        summary: 'Chooses the effective role for the session and sets the chosen_role cookie.',
        description: `403 '${NO_ELIGIBLE_ROLE}' when the caller holds no role; 403 when the role is not one of theirs.`,
        tags: ['access'],
        security,
        body: roleSelectBody,
        response: { 200: roleSelectResponse },
      },
    },
    async (request, reply) => {
      const record = await services.users.findById(request.principal!.subject);
      const roles = record ? await services.rolesOf(record) : [];
      const role = request.body.effective_role;
      if (roles.length === 0) {
        throw new ApiError(403, NO_ELIGIBLE_ROLE, {
          code: 'no-role-assignment',
          meta: { ingress_denied: true, annotation: 'no-role-assignment' },
        });
      }
      if (!roles.includes(role)) {
        throw new ApiError(403, `unable to determine effective role: user is not eligible to role '${role}'`, {
          code: 'no-role-assignment',
          source: { pointer: '/effective_role' },
        });
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${CHOSEN_ROLE_COOKIE}=${encodeURIComponent(role)}; Path=/; Max-Age=${ROLE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`,
      );
      return { effective_role: role };
    },
  );
}
