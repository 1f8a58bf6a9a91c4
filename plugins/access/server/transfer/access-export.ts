import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '@atrium/sdk/server';
import type { Statement } from '../../shared/statement-schema.js';
import { policy, policyAssignment, role, roleGroupNameAssignment, roleUserNameAssignment } from '../tables.js';
import { toCsv } from './csv.js';

/**
 * The export file: roles, policies and every assignment, each referring to roles and policies by
 * name so that a file moves between installations (ids differ from one database to the next).
 */
export const EXPORT_FORMAT = 'atrium-access';
export const EXPORT_FORMAT_VERSION = 1;

export interface AccessExport {
  format: typeof EXPORT_FORMAT;
  format_version: number;
  exported_at: string;
  roles: { name: string; gen2_role: string | null }[];
  policies: {
    name: string;
    description: string;
    version: string;
    type: 'system' | 'custom';
    statements: Statement[];
  }[];
  policy_assignments: { policy: string; role: string }[];
  role_user_name_assignments: { user_name: string; role: string }[];
  role_group_name_assignments: { group_name: string; role: string }[];
}

export async function buildExport(db: Queryable, now = new Date()): Promise<AccessExport> {
  const roles = await db.select().from(role).orderBy(asc(role.id));
  const policies = await db.select().from(policy).orderBy(asc(policy.id));
  const policyAssignments = await db
    .select({ policy: policy.name, role: role.name })
    .from(policyAssignment)
    .innerJoin(policy, eq(policy.id, policyAssignment.policyId))
    .innerJoin(role, eq(role.id, policyAssignment.roleId))
    .orderBy(asc(policyAssignment.id));
  const users = await db
    .select({ user_name: roleUserNameAssignment.userName, role: role.name })
    .from(roleUserNameAssignment)
    .innerJoin(role, eq(role.id, roleUserNameAssignment.roleId))
    .orderBy(asc(roleUserNameAssignment.id));
  const groups = await db
    .select({ group_name: roleGroupNameAssignment.groupName, role: role.name })
    .from(roleGroupNameAssignment)
    .innerJoin(role, eq(role.id, roleGroupNameAssignment.roleId))
    .orderBy(asc(roleGroupNameAssignment.id));
  return {
    format: EXPORT_FORMAT,
    format_version: EXPORT_FORMAT_VERSION,
    exported_at: now.toISOString(),
    roles: roles.map((r) => ({ name: r.name, gen2_role: r.gen2Role })),
    policies: policies.map((p) => ({
      name: p.name,
      description: p.description,
      version: p.version,
      type: p.type as 'system' | 'custom',
      statements: p.statements,
    })),
    policy_assignments: policyAssignments,
    role_user_name_assignments: users,
    role_group_name_assignments: groups,
  };
}

/** One row per record; `record` says which kind, statements are JSON text. */
export const CSV_COLUMNS = [
  'record',
  'name',
  'description',
  'version',
  'type',
  'gen2_role',
  'statements',
  'policy',
  'role',
  'user_name',
  'group_name',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];
export const CSV_RECORDS = {
  role: 'roles',
  policy: 'policies',
  policy_assignment: 'policy_assignments',
  role_user_name_assignment: 'role_user_name_assignments',
  role_group_name_assignment: 'role_group_name_assignments',
} as const;

export function exportToCsv(document: AccessExport): string {
  const row = (values: Partial<Record<CsvColumn, string | null>>) => CSV_COLUMNS.map((column) => values[column] ?? '');
  return toCsv([
    [...CSV_COLUMNS],
    ...document.roles.map((r) => row({ record: 'role', name: r.name, gen2_role: r.gen2_role })),
    ...document.policies.map((p) =>
      row({
        record: 'policy',
        name: p.name,
        description: p.description,
        version: p.version,
        type: p.type,
        statements: JSON.stringify(p.statements),
      }),
    ),
    ...document.policy_assignments.map((a) => row({ record: 'policy_assignment', policy: a.policy, role: a.role })),
    ...document.role_user_name_assignments.map((a) =>
      row({ record: 'role_user_name_assignment', user_name: a.user_name, role: a.role }),
    ),
    ...document.role_group_name_assignments.map((a) =>
      row({ record: 'role_group_name_assignment', group_name: a.group_name, role: a.role }),
    ),
  ]);
}
