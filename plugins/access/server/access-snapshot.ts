import { asc } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import type { Statement } from '../shared/statement-schema.js';
import { readRevision } from './access-revision.js';
import { PolicySet, type SourceStatement } from './statements/policy-set.js';
import { policy, policyAssignment, role, roleGroupNameAssignment, roleUserNameAssignment } from './tables.js';

/**
 * Everything the evaluator and the role directory need, read in one go: roles, each role's
 * policies (compiled on first use), and who holds which role. Access data is small — tens of roles
 * and policies, one assignment per user and role — so a process keeps it all and rebuilds it when
 * the revision moves.
 */
export interface RoleRecord {
  id: number;
  name: string;
  gen2Role: string | null;
}

/** Users whose roles a snapshot remembers; past this it starts again (a snapshot
 * lives until the access revision moves). */
const ROLES_ANSWERED_LIMIT = 50_000;

export class AccessSnapshot {
  private readonly compiled = new Map<number, PolicySet>();
  private readonly rolesAnswered = new Map<string, readonly string[]>();

  constructor(
    readonly revision: number,
    private readonly rolesByName: Map<string, RoleRecord>,
    private readonly statementsByRole: Map<number, SourceStatement[]>,
    private readonly rolesByUser: Map<string, string[]>,
    private readonly rolesByGroup: Map<string, string[]>,
  ) {}

  role(name: string): RoleRecord | undefined {
    return this.rolesByName.get(name.toLowerCase());
  }

  policySet(roleId: number): PolicySet {
    let set = this.compiled.get(roleId);
    if (!set) {
      set = new PolicySet(this.statementsByRole.get(roleId) ?? []);
      this.compiled.set(roleId, set);
    }
    return set;
  }

  /**
   * Role names held by the user directly and through any of the groups, in name order. The
   * authenticator asks on every request, so answers are kept with the snapshot (a new revision is a
   * new snapshot) and frozen, since every request of the user shares the one array.
   */
  rolesOf(username: string, groups: string[] = []): readonly string[] {
    const key = groups.length === 0 ? username : `${username}\u0000${groups.join('\u0000')}`;
    let roles = this.rolesAnswered.get(key);
    if (roles) return roles;
    const found = new Set(this.rolesByUser.get(normalizeUserName(username)) ?? []);
    for (const group of groups) for (const name of this.rolesByGroup.get(group.toLowerCase()) ?? []) found.add(name);
    roles = Object.freeze([...found].sort((a, b) => a.localeCompare(b)));
    if (this.rolesAnswered.size >= ROLES_ANSWERED_LIMIT) this.rolesAnswered.clear();
    this.rolesAnswered.set(key, roles);
    return roles;
  }
}

export const normalizeUserName = (username: string) => username.trim().toLowerCase();

export async function loadSnapshot(db: Queryable): Promise<AccessSnapshot> {
  // The revision is read first: a write that lands while the rest is read makes the next check reload.
  const revision = await readRevision(db);
  const roles = await db.select({ id: role.id, name: role.name, gen2Role: role.gen2Role }).from(role);
  const policies = await db
    .select({ id: policy.id, name: policy.name, statements: policy.statements })
    .from(policy)
    .orderBy(asc(policy.id));
  const policyAssignments = await db
    .select({ policyId: policyAssignment.policyId, roleId: policyAssignment.roleId })
    .from(policyAssignment);
  const userAssignments = await db
    .select({ userName: roleUserNameAssignment.userName, roleId: roleUserNameAssignment.roleId })
    .from(roleUserNameAssignment);
  const groupAssignments = await db
    .select({ groupName: roleGroupNameAssignment.groupName, roleId: roleGroupNameAssignment.roleId })
    .from(roleGroupNameAssignment);

  const roleById = new Map(roles.map((r) => [r.id, r]));
  const policyById = new Map(policies.map((p) => [p.id, p]));
  const statementsByRole = new Map<number, SourceStatement[]>();
  for (const assignment of [...policyAssignments].sort((a, b) => a.policyId - b.policyId)) {
    const assigned = policyById.get(assignment.policyId);
    if (!assigned) continue;
    const list = statementsByRole.get(assignment.roleId) ?? [];
    (assigned.statements as Statement[]).forEach((statement, index) =>
      list.push({ policyId: assigned.id, policyName: assigned.name, index, statement }),
    );
    statementsByRole.set(assignment.roleId, list);
  }
  const group = (rows: { key: string; roleId: number }[]) => {
    const map = new Map<string, string[]>();
    for (const row of rows) {
      const name = roleById.get(row.roleId)?.name;
      if (!name) continue;
      const list = map.get(row.key) ?? [];
      list.push(name);
      map.set(row.key, list);
    }
    return map;
  };
  return new AccessSnapshot(
    revision,
    new Map(roles.map((r) => [r.name.toLowerCase(), r])),
    statementsByRole,
    group(userAssignments.map((a) => ({ key: normalizeUserName(a.userName), roleId: a.roleId }))),
    group(groupAssignments.map((a) => ({ key: a.groupName.toLowerCase(), roleId: a.roleId }))),
  );
}
