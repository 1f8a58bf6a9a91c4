import type { RoleDirectory } from '@atrium/sdk/server';
import type { AccessState } from './access-state.js';

/**
 * Which roles a user holds: their role-user-name assignments plus the role-group-name assignments
 * of the groups they belong to (the caller — identity — says which groups those are).
 */
export function createRoleDirectory(state: AccessState): RoleDirectory {
  return {
    async rolesOf(user) {
      const snapshot = await state.current();
      // Frozen and shared by every request of the user: callers read it, never change it.
      return snapshot.rolesOf(user.username, user.groups ?? []) as string[];
    },
  };
}
