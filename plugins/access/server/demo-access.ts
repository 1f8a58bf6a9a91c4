import type { SeedContext } from '@atrium/sdk/server';
import { bumpRevision } from './access-revision.js';
import {
  DEMO_GROUP_ROLES,
  DEMO_ROLES,
  DEMO_USER_ROLES,
  SYSTEM_POLICIES,
  SYSTEM_POLICY_VERSION,
} from './system-policies.js';
import { policy, policyAssignment, role, roleGroupNameAssignment, roleUserNameAssignment } from './tables.js';

/** Seeds the demo roles, the system policies and their assignments, and the demo users' roles. */
export async function seedDemoAccess({ tx }: SeedContext): Promise<void> {
  const roles = await tx
    .insert(role)
    .values(DEMO_ROLES.map((r) => ({ name: r.name, gen2Role: r.gen2Role })))
    .returning({ id: role.id, name: role.name });
  const roleId = new Map(roles.map((r) => [r.name, r.id]));
  for (const system of SYSTEM_POLICIES) {
    const [created] = await tx
      .insert(policy)
      .values({
        name: system.name,
        description: system.description,
        version: SYSTEM_POLICY_VERSION,
        type: 'system',
        statements: system.statements,
      })
      .returning({ id: policy.id });
    await tx
      .insert(policyAssignment)
      .values(system.roles.map((name) => ({ policyId: created!.id, roleId: roleId.get(name)! })));
  }
  await tx
    .insert(roleUserNameAssignment)
    .values(
      DEMO_USER_ROLES.flatMap((u) => u.roles.map((name) => ({ userName: u.userName, roleId: roleId.get(name)! }))),
    );
  await tx
    .insert(roleGroupNameAssignment)
    .values(
      DEMO_GROUP_ROLES.flatMap((g) => g.roles.map((name) => ({ groupName: g.groupName, roleId: roleId.get(name)! }))),
    );
  await bumpRevision(tx);
}
