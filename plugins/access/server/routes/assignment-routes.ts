import type { FastifyRequest } from 'fastify';
import { and, count, eq, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { fieldError, notFound, z, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import type { IdentityDirectory } from '@atrium/plugin-identity/directory';
import type { AccessState } from '../access-state.js';
import { normalizeUserName } from '../access-snapshot.js';
import { ACCESS_PERMISSIONS } from '../permissions.js';
import { policy, policyAssignment, role, roleGroupNameAssignment, roleUserNameAssignment } from '../tables.js';
import { withUniqueCheck, writeAccess } from './access-write.js';
import { offsetOf, orderByColumns, pageOf, pageQuery, parseOrdering, toPage } from './list-page.js';

/**
 * The three kinds of assignment, each with list, create, read, replace, patch and delete:
 * - policy-assignments           { id, policy_id, role }   a role has a policy
 * - role-user-name-assignments   { id, user_name, role }   a user (by user name) holds a role
 * - role-group-name-assignments  { id, group_name, role }  every member of a group holds a role
 * `role` is the role's name. Lists page by 10000 by default and filter by the subject and role.
 * A user or group must exist in identity (user management) to be given a role; without the
 * identity module installed (the access module's own tests) names are taken as given.
 */
const tags = ['access'];
const security = [{ bearer: [] }];

interface AssignmentKind {
  path: string;
  noun: string;
  subjectField: 'policy_id' | 'user_name' | 'group_name';
  subjectColumn: AnyColumn;
  /** The column's property name in the Drizzle table. */
  subjectProperty: 'policyId' | 'userName' | 'groupName';
  table: typeof policyAssignment;
  subjectSchema: z.ZodType<number | string>;
  filterSchema: z.ZodType<number | string>;
  /** How the subject is compared: exact, or regardless of case. */
  subjectEquals(column: AnyColumn, value: number | string): SQL;
  describeSubject(value: number | string): string;
  checkSubject?(db: Queryable, value: number | string, directory: IdentityDirectory | null): Promise<void>;
}

const userName = z
  .string()
  .trim()
  .min(1, 'A user name is required.')
  .max(320)
  .regex(/^\S+$/, 'A user name has no spaces.')
  .transform(normalizeUserName);
const groupName = z.string().trim().min(1, 'A group name is required.').max(200);
const policyId = z.number().int().min(1).max(2147483647);

const KINDS: AssignmentKind[] = [
  {
    path: 'policy-assignments',
    noun: 'Policy assignment',
    subjectField: 'policy_id',
    subjectColumn: policyAssignment.policyId,
    subjectProperty: 'policyId',
    table: policyAssignment,
    subjectSchema: policyId,
    filterSchema: z.coerce.number().int().min(1).max(2147483647),
    subjectEquals: (column, value) => eq(column, value),
    describeSubject: (value) => `Policy ${value}`,
    async checkSubject(db, value) {
      const [row] = await db
        .select({ id: policy.id })
        .from(policy)
        .where(eq(policy.id, Number(value)))
        .limit(1);
      if (!row) throw fieldError('policy_id', `Policy ${value} does not exist.`);
    },
  },
  {
    path: 'role-user-name-assignments',
    noun: 'Role assignment',
    subjectField: 'user_name',
    subjectColumn: roleUserNameAssignment.userName,
    subjectProperty: 'userName',
    table: roleUserNameAssignment as unknown as typeof policyAssignment,
    subjectSchema: userName,
    filterSchema: userName,
    subjectEquals: (column, value) => eq(column, value),
    describeSubject: (value) => `User '${value}'`,
    async checkSubject(db, value, directory) {
      if (!directory) return;
      const [found] = await directory.existingUsernames(db, [String(value)]);
      if (!found) throw fieldError('user_name', `User '${value}' does not exist.`);
    },
  },
  {
    path: 'role-group-name-assignments',
    noun: 'Role assignment',
    subjectField: 'group_name',
    subjectColumn: roleGroupNameAssignment.groupName,
    subjectProperty: 'groupName',
    table: roleGroupNameAssignment as unknown as typeof policyAssignment,
    subjectSchema: groupName,
    filterSchema: groupName,
    subjectEquals: (column, value) => sql`lower(${column}) = lower(${value})`,
    describeSubject: (value) => `Group '${value}'`,
    async checkSubject(db, value, directory) {
      if (!directory) return;
      const [found] = await directory.existingGroupNames(db, [String(value)]);
      if (!found) throw fieldError('group_name', `Group '${value}' does not exist.`);
    },
  },
];

const roleName = z.string().trim().min(1, 'A role is required.').max(100);
const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2147483647) });

async function roleIdOf(db: Queryable, name: string): Promise<number> {
  const [row] = await db
    .select({ id: role.id })
    .from(role)
    .where(sql`lower(${role.name}) = lower(${name})`)
    .limit(1);
  if (!row) throw fieldError('role', `Role '${name}' does not exist.`);
  return row.id;
}

/** Identity's directory of users and groups; null when the identity module is not installed. */
export type DirectoryLookup = () => IdentityDirectory | null;

// Hand-written, not a resource declaration: every access write goes through writeAccess (revision bump, change event, compiled policies forgotten), and user names are checked against the directory.
export function assignmentRoutes(router: AtriumRouter, db: Database, state: AccessState, directory: DirectoryLookup) {
  for (const kind of KINDS) registerKind(router, db, state, kind, directory);
}

function registerKind(
  router: AtriumRouter,
  db: Database,
  state: AccessState,
  kind: AssignmentKind,
  directory: DirectoryLookup,
) {
  const { table, subjectField, subjectColumn } = kind;
  const out = z.object({
    id: z.number().int(),
    [subjectField]: subjectField === 'policy_id' ? z.number().int() : z.string(),
    role: z.string(),
  });
  type Out = { id: number; role: string } & Record<string, number | string>;
  const createBody = z.strictObject({ [subjectField]: kind.subjectSchema, role: roleName }) as unknown as z.ZodType<
    Record<string, string | number> & { role: string }
  >;
  const patchBody = z.strictObject({
    id: z.number().int().optional(),
    [subjectField]: kind.subjectSchema.optional(),
    role: roleName.optional(),
  }) as unknown as z.ZodType<Partial<Record<string, string | number>> & { id?: number; role?: string }>;
  const replaceBody = z.strictObject({
    id: z.number().int().optional(),
    [subjectField]: kind.subjectSchema,
    role: roleName,
  }) as unknown as typeof patchBody;
  const listQuery = z.strictObject({
    ...pageQuery(10000),
    [subjectField]: kind.filterSchema.optional(),
    role: z.string().max(100).optional(),
  }) as unknown as z.ZodType<
    { page: number; page_size: number; ordering?: string; role?: string } & Record<string, string | number | undefined>
  >;
  const ORDERING = ['id', subjectField, 'role'] as const;
  const columns = { id: table.id, [subjectField]: subjectColumn, role: role.name };
  const selection = {
    id: table.id,
    subject: subjectColumn as unknown as typeof policyAssignment.policyId,
    role: role.name,
  };
  const toOut = (row: { id: number; subject: unknown; role: string }): Out =>
    ({ id: row.id, [subjectField]: row.subject as string | number, role: row.role }) as Out;
  const duplicate = (subject: string | number, name: string) =>
    fieldError(
      'role',
      `${kind.describeSubject(subject)} already has role '${name}'.`.replace(
        /^Policy (\d+) already has role/,
        'Policy $1 is already assigned to role',
      ),
    );

  const find = async (id: number) => {
    const [row] = await db
      .select(selection)
      .from(table)
      .innerJoin(role, eq(role.id, table.roleId))
      .where(eq(table.id, id))
      .limit(1);
    if (!row) throw notFound(`${kind.noun} ${id} not found.`);
    return row;
  };
  const pairTaken = async (subject: string | number, roleId: number, exceptId?: number) => {
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(
        and(
          kind.subjectEquals(subjectColumn, subject),
          eq(table.roleId, roleId),
          exceptId === undefined ? undefined : ne(table.id, exceptId),
        ),
      )
      .limit(1);
    return !!row;
  };

  router.get(
    `/${kind.path}`,
    {
      config: { access: ACCESS_PERMISSIONS.readAssignment },
      schema: {
        summary: `Lists ${kind.path}; filters: ${subjectField}, role (name).`,
        description: `Ordering by ${ORDERING.join(', ')}; default id; 10000 a page by default.`,
        tags,
        security,
        querystring: listQuery,
        response: { 200: pageOf(out) },
      },
    },
    async (request) => {
      const query = request.query;
      const ordering = parseOrdering(query.ordering, ORDERING, 'id');
      const subject = query[subjectField];
      const where = and(
        subject !== undefined ? kind.subjectEquals(subjectColumn, subject) : undefined,
        query.role ? sql`lower(${role.name}) = lower(${query.role})` : undefined,
      );
      const [total] = await db
        .select({ n: count() })
        .from(table)
        .innerJoin(role, eq(role.id, table.roleId))
        .where(where);
      const rows = await db
        .select(selection)
        .from(table)
        .innerJoin(role, eq(role.id, table.roleId))
        .where(where)
        .orderBy(...orderByColumns(ordering, columns, table.id))
        .limit(query.page_size)
        .offset(offsetOf(query));
      return toPage(request.url, query, total?.n ?? 0, rows.map(toOut));
    },
  );

  router.post(
    `/${kind.path}`,
    {
      config: { access: ACCESS_PERMISSIONS.createAssignment },
      schema: {
        summary: `Creates a ${kind.path.replace(/s$/, '')}.`,
        tags,
        security,
        body: createBody,
        response: { 201: out },
      },
    },
    async (request, reply) => {
      const subject = request.body[subjectField]!;
      await kind.checkSubject?.(db, subject, directory());
      const roleId = await roleIdOf(db, request.body.role);
      if (await pairTaken(subject, roleId)) throw duplicate(subject, request.body.role);
      const id = await withUniqueCheck(
        () =>
          writeAccess(
            db,
            state,
            async (tx) => {
              const [created] = await tx
                .insert(table)
                .values({ [kind.subjectProperty]: subject, roleId } as unknown as typeof table.$inferInsert)
                .returning({ id: table.id });
              return created!.id;
            },
            {
              entity: 'assignment',
              action: 'created',
              request,
              describe: (newId) => ({
                id: String(newId),
                name: request.body.role,
                subject: kind.describeSubject(subject),
              }),
            },
          ),
        () => duplicate(subject, request.body.role),
      );
      return reply.status(201).send(toOut(await find(id)));
    },
  );

  router.get(
    `/${kind.path}/:id`,
    {
      config: { access: ACCESS_PERMISSIONS.readAssignment },
      schema: {
        summary: `One ${kind.path.replace(/s$/, '')}.`,
        tags,
        security,
        params: idParams,
        response: { 200: out },
      },
    },
    async (request) => toOut(await find(request.params.id)),
  );

  const update = async (id: number, body: z.infer<typeof patchBody>, request: FastifyRequest) => {
    const current = await find(id);
    if (body.id !== undefined && body.id !== id)
      throw fieldError('id', `The id is read-only (this is ${kind.noun.toLowerCase()} ${id}).`);
    const subject: string | number = body[subjectField] ?? current.subject;
    if (body[subjectField] !== undefined) await kind.checkSubject?.(db, subject, directory());
    const name = body.role ?? current.role;
    const roleId = await roleIdOf(db, name);
    if (await pairTaken(subject, roleId, id)) throw duplicate(subject, name);
    await withUniqueCheck(
      () =>
        writeAccess(
          db,
          state,
          (tx) =>
            tx
              .update(table)
              .set({ [kind.subjectProperty]: subject, roleId } as unknown as Partial<typeof table.$inferInsert>)
              .where(eq(table.id, id)),
          {
            entity: 'assignment',
            action: 'updated',
            request,
            describe: () => ({ id: String(id), name, subject: kind.describeSubject(subject) }),
          },
        ),
      () => duplicate(subject, name),
    );
    return toOut(await find(id));
  };

  router.put(
    `/${kind.path}/:id`,
    {
      config: { access: ACCESS_PERMISSIONS.updateAssignment },
      schema: {
        summary: `Replaces a ${kind.path.replace(/s$/, '')}.`,
        tags,
        security,
        params: idParams,
        body: replaceBody,
        response: { 200: out },
      },
    },
    async (request) => update(request.params.id, request.body, request),
  );

  router.patch(
    `/${kind.path}/:id`,
    {
      config: { access: ACCESS_PERMISSIONS.updateAssignment },
      schema: {
        summary: `Changes a ${kind.path.replace(/s$/, '')}.`,
        tags,
        security,
        params: idParams,
        body: patchBody,
        response: { 200: out },
      },
    },
    async (request) => update(request.params.id, request.body, request),
  );

  router.delete(
    `/${kind.path}/:id`,
    {
      config: { access: ACCESS_PERMISSIONS.deleteAssignment },
      schema: { summary: `Deletes a ${kind.path.replace(/s$/, '')}.`, tags, security, params: idParams },
    },
    async (request, reply) => {
      const current = await find(request.params.id);
      await writeAccess(db, state, (tx) => tx.delete(table).where(eq(table.id, request.params.id)), {
        entity: 'assignment',
        action: 'deleted',
        request,
        describe: () => ({
          id: String(request.params.id),
          name: current.role,
          subject: kind.describeSubject(current.subject),
        }),
      });
      return reply.status(204).send();
    },
  );
}
