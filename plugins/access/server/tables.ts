import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Statement } from '../shared/statement-schema.js';

/**
 * Tables of the access module: roles, policies of statements, which policies a role has, and which
 * roles a user (by user name) or a group (by group name) holds. Role assignments live here only;
 * identity asks the role directory this module provides.
 */
export const access = pgSchema('access');

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A role a user acts in. `gen2_role` is the classic system's role the name maps to. */
export const role = access.table(
  'role',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    gen2Role: text('gen2_role'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('role_name_key').on(sql`lower(${table.name})`)],
);

/** A named, versioned list of statements. System policies come with the installation and are read-only. */
export const policy = access.table(
  'policy',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    version: text('version').notNull().default('0.0.0'),
    type: text('type').notNull().default('custom'),
    statements: jsonb('statements').$type<Statement[]>().notNull(),
    dateAdded: timestamptz('date_added').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_name_key').on(sql`lower(${table.name})`),
    check('policy_type_check', sql`${table.type} in ('system', 'custom')`),
  ],
);

/** The policies a role has. */
export const policyAssignment = access.table(
  'policy_assignment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => role.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('policy_assignment_policy_role_key').on(table.policyId, table.roleId),
    index('policy_assignment_role_idx').on(table.roleId),
  ],
);

/** A role held by a user, named by user name (identity's lower-cased e-mail address). */
export const roleUserNameAssignment = access.table(
  'role_user_name_assignment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userName: text('user_name').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => role.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('role_user_name_assignment_user_role_key').on(table.userName, table.roleId),
    index('role_user_name_assignment_role_idx').on(table.roleId),
  ],
);

/** A role held by every member of a group, named by group name. */
export const roleGroupNameAssignment = access.table(
  'role_group_name_assignment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    groupName: text('group_name').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => role.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('role_group_name_assignment_group_role_key').on(sql`lower(${table.groupName})`, table.roleId),
    index('role_group_name_assignment_role_idx').on(table.roleId),
  ],
);

/**
 * One row counting changes to anything above. Every write bumps it in its own transaction, so that
 * each server process can tell, with one cheap read, that its compiled policies are stale.
 */
export const accessRevision = access.table('revision', {
  id: integer('id').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull(),
  changedAt: timestamptz('changed_at').notNull().defaultNow(),
});

/**
 * The default grants a plugin declared (`definePermissions` grants), applied at start: one system
 * policy per plugin and role, and the grant version it was written from. Start rewrites the policy
 * only when the plugin's grant version rose; what administrators grant lives in custom policies.
 */
export const pluginGrant = access.table(
  'plugin_grant',
  {
    plugin: text('plugin').notNull(),
    roleName: text('role_name').notNull(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => policy.id, { onDelete: 'cascade' }),
    grantVersion: integer('grant_version').notNull(),
    appliedAt: timestamptz('applied_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.plugin, table.roleName] })],
);
