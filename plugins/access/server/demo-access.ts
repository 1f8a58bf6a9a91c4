import { eq } from 'drizzle-orm';
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
  await seedClaimsSupervisor(tx);
  await bumpRevision(tx);
}

/**
 * Demo role Claims Supervisor (supervisor@atrium.test): handles claims like an adjuster and approves
 * what adjusters may not, up to 25,000.00 a payment (the claims module seeds the same authority
 * limit for the role).
 */
export const CLAIMS_SUPERVISOR = {
  role: 'Claims Supervisor',
  gen2Role: 'claims_supervisor',
  user: 'supervisor@atrium.test',
};

async function seedClaimsSupervisor(tx: SeedContext['tx']): Promise<void> {
  const [created] = await tx
    .insert(role)
    .values({ name: CLAIMS_SUPERVISOR.role, gen2Role: CLAIMS_SUPERVISOR.gen2Role })
    .returning({ id: role.id });
  const [supervision] = await tx
    .insert(policy)
    .values({
      name: 'Claims supervision',
      description: 'Claims supervisors handle claims and approve payments up to 25000.00.',
      version: SYSTEM_POLICY_VERSION,
      type: 'system',
      statements: [
        {
          sid: 'ClaimsModules',
          effect: 'allow',
          actions: ['ViewModule'],
          resources: ['ui:claims', 'ui:contacts', 'ui:policies', 'ui:documents', 'ui:notes', 'ui:reports'],
        },
        { sid: 'Claims', effect: 'allow', actions: ['*'], resources: ['claims:*'] },
        {
          sid: 'ClaimContacts',
          effect: 'allow',
          actions: ['read', 'create', 'update'],
          resources: ['contacts:*', 'notes:*', 'documents:*'],
        },
        { sid: 'PolicyLookups', effect: 'allow', actions: ['read'], resources: ['policies:*', 'lines:*', 'reports:*'] },
        {
          sid: 'PaymentsOverAuthority',
          effect: 'deny',
          actions: ['create', 'update', 'approve'],
          resources: ['claims:payment'],
          conditions: [{ attribute: 'record.amount', operator: 'gt', value: '25000.00' }],
        },
        {
          sid: 'AuthorityLimitsAdministered',
          effect: 'deny',
          actions: ['create', 'update', 'delete'],
          resources: ['claims:authority-limit'],
        },
        { sid: 'ClaimsImportAdministered', effect: 'deny', actions: ['*'], resources: ['claims:import'] },
        {
          sid: 'PaymentBatchesAdministered',
          effect: 'deny',
          actions: ['create', 'update', 'delete', 'approve'],
          resources: ['claims:payment-batch'],
        },
        {
          sid: 'OwnClaimSettings',
          effect: 'deny',
          actions: ['update'],
          resources: ['claims:user'],
          conditions: [{ attribute: 'record.username', operator: 'ne', value: { ref: 'user.username' } }],
        },
      ],
    })
    .returning({ id: policy.id });
  const signedIn = await tx.select({ id: policy.id }).from(policy).where(eq(policy.name, 'Signed-in basics')).limit(1);
  await tx
    .insert(policyAssignment)
    .values([
      { policyId: supervision!.id, roleId: created!.id },
      ...signedIn.map((p) => ({ policyId: p.id, roleId: created!.id })),
    ]);
  await tx.insert(roleUserNameAssignment).values({ userName: CLAIMS_SUPERVISOR.user, roleId: created!.id });
}
