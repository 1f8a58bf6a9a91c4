import { ApiError, defineGatewayMethod, z, type GatewayMethod } from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';

const profileBody = z.strictObject({ role: z.string().trim().max(200).optional() });

/**
 * `core.login loadUserProfile {role}` (spec, classic and utility): the signed-in user as the classic
 * pages show them, in the role they act in. Read from identity's user directory; a role the user
 * does not hold is a 400.
 */
export const loadUserProfile: GatewayMethod<z.infer<typeof profileBody>> = defineGatewayMethod({
  file: 'core.login',
  method: 'loadUserProfile',
  summary: "The caller's profile (username, name, email, roles) in the given or effective role.",
  // About the caller themselves: every signed-in user may ask.
  access: 'authenticated',
  body: profileBody,
  async handler(input, { request, context }) {
    const principal = request.principal;
    const role = input.role || principal.effectiveRole;
    if (input.role && !principal.roles.includes(input.role)) {
      throw new ApiError(400, `You do not hold the role ${input.role}.`, { source: { pointer: '/role' } });
    }
    const [user] = await context.service(USER_DIRECTORY).findUsers(context.db, [principal.username]);
    return {
      success: true,
      data: {
        username: principal.username,
        name: user?.name ?? principal.username,
        email: user?.email ?? null,
        groups: user?.groups ?? [],
        roles: principal.roles,
        effective_role: role,
        is_agent: role !== null && /agen(t|cy)/i.test(role),
        is_admin: role === 'Administrator' || (user?.groups ?? []).includes('Administrators'),
      },
    };
  },
});
