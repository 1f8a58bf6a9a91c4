import type { FastifyRequest } from 'fastify';
import { and, count, eq, ilike, ne, sql } from 'drizzle-orm';
import { fieldError, notFound, z, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import type { AccessState } from '../access-state.js';
import { ACCESS_PERMISSIONS } from '../permissions.js';
import { role } from '../tables.js';
import { withUniqueCheck, writeAccess } from './access-write.js';
import { containsPattern, offsetOf, orderByColumns, pageOf, pageQuery, parseOrdering, toPage } from './list-page.js';

/**
 * Roles: `GET/POST roles`, `GET/PUT/PATCH/DELETE roles/{id}`. A role's name is what users choose as
 * their effective role; `gen2_role` maps it to the classic system's role. Deleting a role removes
 * its policy, user and group assignments with it.
 */
const tags = ['access'];
const security = [{ bearer: [] }];

export const roleOut = z.object({ id: z.number().int(), name: z.string(), gen2_role: z.string().nullable() });
const name = z
  .string()
  .trim()
  .min(1, 'A role needs a name.')
  .max(100)
  .refine((value) => !/[\r\n\t,;]/.test(value), "A role name cannot contain tabs, line breaks, ',' or ';'.");
const gen2Role = z.string().trim().max(100).nullable();
const readOnly = { id: z.number().int().optional() };
const replaceBody = z.strictObject({ name, gen2_role: gen2Role.default(null), ...readOnly });
const patchBody = z.strictObject({ name: name.optional(), gen2_role: gen2Role.optional(), ...readOnly });
const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2147483647) });
const listQuery = z.strictObject({
  ...pageQuery(15),
  name: z.string().max(100).optional(),
  gen2_role: z.string().max(100).optional(),
});
const ORDERING = ['id', 'name', 'gen2_role'] as const;

const toRoleOut = (row: typeof role.$inferSelect) => ({ id: row.id, name: row.name, gen2_role: row.gen2Role });
const duplicateName = (value: string) => fieldError('name', `A role named '${value}' already exists.`);

async function nameTaken(db: Queryable, value: string, exceptId?: number) {
  const [row] = await db
    .select({ id: role.id })
    .from(role)
    .where(and(sql`lower(${role.name}) = lower(${value})`, exceptId === undefined ? undefined : ne(role.id, exceptId)))
    .limit(1);
  return !!row;
}

async function findRole(db: Queryable, id: number) {
  const [row] = await db.select().from(role).where(eq(role.id, id)).limit(1);
  if (!row) throw notFound(`Role ${id} not found.`);
  return row;
}

// Hand-written, not a resource declaration: every access write goes through writeAccess (revision bump, change event, compiled policies forgotten), deleting a role removes its assignments, and PUT replaces with defaults.
export function roleRoutes(router: AtriumRouter, db: Database, state: AccessState) {
  router.get(
    '/roles',
    {
      config: { access: ACCESS_PERMISSIONS.readRole },
      schema: {
        summary: 'Lists roles; filters: name (contains, any case), gen2_role (exact).',
        description: `Ordering by ${ORDERING.join(', ')}; default id.`,
        tags,
        security,
        querystring: listQuery,
        response: { 200: pageOf(roleOut) },
      },
    },
    async (request) => {
      const query = request.query;
      const ordering = parseOrdering(query.ordering, ORDERING, 'id');
      const where = and(
        query.name ? ilike(role.name, containsPattern(query.name)) : undefined,
        query.gen2_role ? eq(role.gen2Role, query.gen2_role) : undefined,
      );
      const [total] = await db.select({ n: count() }).from(role).where(where);
      const rows = await db
        .select()
        .from(role)
        .where(where)
        .orderBy(
          ...orderByColumns(
            ordering,
            { id: role.id, name: sql`lower(${role.name})`, gen2_role: role.gen2Role },
            role.id,
          ),
        )
        .limit(query.page_size)
        .offset(offsetOf(query));
      return toPage(request.url, query, total?.n ?? 0, rows.map(toRoleOut));
    },
  );

  router.post(
    '/roles',
    {
      config: { access: ACCESS_PERMISSIONS.createRole },
      schema: {
        summary: 'Creates a role.',
        tags,
        security,
        body: z.strictObject({ name, gen2_role: gen2Role.default(null) }),
        response: { 201: roleOut },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (await nameTaken(db, body.name)) throw duplicateName(body.name);
      const row = await withUniqueCheck(
        () =>
          writeAccess(
            db,
            state,
            async (tx) => {
              const [created] = await tx
                .insert(role)
                .values({ name: body.name, gen2Role: body.gen2_role || null })
                .returning();
              return created!;
            },
            { entity: 'role', action: 'created', request, describe: (r) => ({ id: String(r.id), name: r.name }) },
          ),
        () => duplicateName(body.name),
      );
      return reply.status(201).send(toRoleOut(row));
    },
  );

  router.get(
    '/roles/:id',
    {
      config: { access: ACCESS_PERMISSIONS.readRole },
      schema: { summary: 'One role.', tags, security, params: idParams, response: { 200: roleOut } },
    },
    async (request) => toRoleOut(await findRole(db, request.params.id)),
  );

  const update = async (id: number, body: z.infer<typeof patchBody>, request: FastifyRequest) => {
    const row = await findRole(db, id);
    if (body.id !== undefined && body.id !== row.id)
      throw fieldError('id', `The id is read-only (this is role ${row.id}).`);
    if (body.name !== undefined && (await nameTaken(db, body.name, id))) throw duplicateName(body.name);
    const values = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.gen2_role !== undefined ? { gen2Role: body.gen2_role || null } : {}),
    };
    if (Object.keys(values).length === 0) return toRoleOut(row);
    const updated = await withUniqueCheck(
      () =>
        writeAccess(
          db,
          state,
          async (tx) => {
            const [written] = await tx.update(role).set(values).where(eq(role.id, id)).returning();
            return written;
          },
          {
            entity: 'role',
            action: 'updated',
            request,
            describe: (r) => ({ id: String(id), name: r?.name ?? row.name }),
          },
        ),
      () => duplicateName(body.name ?? ''),
    );
    if (!updated) throw notFound(`Role ${id} not found.`);
    return toRoleOut(updated);
  };

  router.put(
    '/roles/:id',
    {
      config: { access: ACCESS_PERMISSIONS.updateRole },
      schema: {
        summary: 'Replaces a role (an omitted gen2_role becomes null).',
        tags,
        security,
        params: idParams,
        body: replaceBody,
        response: { 200: roleOut },
      },
    },
    async (request) => update(request.params.id, request.body, request),
  );

  router.patch(
    '/roles/:id',
    {
      config: { access: ACCESS_PERMISSIONS.updateRole },
      schema: {
        summary: 'Changes some fields of a role.',
        tags,
        security,
        params: idParams,
        body: patchBody,
        response: { 200: roleOut },
      },
    },
    async (request) => update(request.params.id, request.body, request),
  );

  router.delete(
    '/roles/:id',
    {
      config: { access: ACCESS_PERMISSIONS.deleteRole },
      schema: {
        summary: 'Deletes a role with its policy, user and group assignments.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      const row = await findRole(db, request.params.id);
      await writeAccess(db, state, (tx) => tx.delete(role).where(eq(role.id, row.id)), {
        entity: 'role',
        action: 'deleted',
        request,
        describe: () => ({ id: String(row.id), name: row.name }),
      });
      return reply.status(204).send();
    },
  );
}
