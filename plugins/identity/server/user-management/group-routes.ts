import { asc, count, desc, eq, ilike, sql } from 'drizzle-orm';
import {
  ApiError,
  pageQuerySchema,
  paginationLinks,
  resourceDocument,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
} from '@atrium/sdk/server';
import type { IdentityServices } from '../identity-services.js';
import { userGroup } from '../tables.js';
import { USER_MANAGEMENT_PERMISSIONS as P } from './permissions.js';
import {
  attributeProblem,
  groupResource,
  isUniqueViolation,
  loadGroup,
  requireMatchingId,
  USER_MANAGEMENT_BASE,
  type GroupRecord,
} from './resources.js';

const tags = ['identity', 'user-management'];
const security = [{ bearer: [] }];
export const GROUP_PAGE_SIZE = 60;

const groupAttributes = {
  name: z.string().trim().min(1, 'This field may not be blank.').max(128),
  description: z.string().max(2000),
};
const idParams = z.strictObject({ id: z.string().min(1).max(100) });

const GROUP_EXISTS = 'A group with this name already exists.';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET/POST groups, PATCH/DELETE groups/{id}, GET groups/{id}/relationships/members. */
export function groupRoutes(router: AtriumRouter, services: IdentityServices) {
  const { db } = services;

  router.get(
    '/groups',
    {
      config: { jsonapi: true, access: P.readGroup },
      schema: {
        summary: 'Lists groups, 60 a page by default, in name order; filter[name] matches part of the name.',
        description: 'Fetch every group by following links.next. sort: name, -name, created_at, -created_at.',
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(GROUP_PAGE_SIZE),
          'filter[name]': z.string().max(128).optional(),
          sort: z.enum(['name', '-name', 'created_at', '-created_at']).optional(),
        }),
      },
    },
    async (request) => {
      const query = request.query;
      const page = toPageRequest(query);
      const where = query['filter[name]'] ? ilike(userGroup.name, `%${escapeLike(query['filter[name]'])}%`) : undefined;
      const sort = query.sort ?? 'name';
      const column = sort.endsWith('name') ? sql`lower(${userGroup.name})` : userGroup.createdAt;
      const order = sort.startsWith('-') ? desc(column) : asc(column);
      const [total] = await db.select({ n: count() }).from(userGroup).where(where);
      const rows = await db
        .select()
        .from(userGroup)
        .where(where)
        .orderBy(order, asc(userGroup.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${USER_MANAGEMENT_BASE}/groups`, query, page, total?.n ?? 0);
      return serializeDocument(groupResource, rows, { links, meta });
    },
  );

  router.post(
    '/groups',
    {
      config: { jsonapi: true, access: P.createGroup },
      schema: {
        summary: 'Creates a group (name required and unique in any case; description optional).',
        tags,
        security,
        body: resourceDocument('group', {
          name: groupAttributes.name,
          description: groupAttributes.description.optional(),
        }),
      },
    },
    async (request, reply) => {
      const attributes = request.body.data.attributes;
      if (!attributes?.name) throw attributeProblem('name', 'This field is required.', 'required');
      const now = services.clock.now();
      let created: GroupRecord;
      try {
        [created] = (await db
          .insert(userGroup)
          .values({ name: attributes.name, description: attributes.description ?? '', createdAt: now, updatedAt: now })
          .returning()) as [GroupRecord];
      } catch (error) {
        if (isUniqueViolation(error)) throw attributeProblem('name', GROUP_EXISTS, 'GroupExistsException');
        throw error;
      }
      reply.status(201);
      return serializeDocument(groupResource, created);
    },
  );

  router.get(
    '/groups/:id',
    {
      config: { jsonapi: true, access: P.readGroup },
      schema: { summary: 'One group.', tags, security, params: idParams },
    },
    async (request) => serializeDocument(groupResource, await loadGroup(db, request.params.id)),
  );

  router.patch(
    '/groups/:id',
    {
      config: { jsonapi: true, access: P.updateGroup },
      schema: {
        summary: 'Renames or describes a group.',
        description:
          "Role assignments of the access module name groups: after a rename, the group's members hold the roles " +
          'assigned to the new name.',
        tags,
        security,
        params: idParams,
        body: resourceDocument(
          'group',
          { name: groupAttributes.name.optional(), description: groupAttributes.description.optional() },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const existing = await loadGroup(db, request.params.id);
      const attributes = request.body.data.attributes ?? {};
      let updated: GroupRecord;
      try {
        [updated] = (await db
          .update(userGroup)
          .set({
            ...(attributes.name !== undefined ? { name: attributes.name } : {}),
            ...(attributes.description !== undefined ? { description: attributes.description } : {}),
            updatedAt: services.clock.now(),
          })
          .where(eq(userGroup.id, existing.id))
          .returning()) as [GroupRecord];
      } catch (error) {
        if (isUniqueViolation(error)) throw attributeProblem('name', GROUP_EXISTS, 'GroupExistsException');
        throw error;
      }
      if (!updated) throw new ApiError(404, `Group '${request.params.id}' not found.`);
      if (updated.name !== existing.name) services.forgetSessionSnapshots();
      return serializeDocument(groupResource, updated);
    },
  );

  router.delete(
    '/groups/:id',
    {
      config: { jsonapi: true, access: P.deleteGroup },
      schema: {
        summary: 'Deletes a group; its members leave it (they keep their accounts).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      const existing = await loadGroup(db, request.params.id);
      await db.delete(userGroup).where(eq(userGroup.id, existing.id));
      services.forgetSessionSnapshots();
      return reply.status(204).send();
    },
  );

  router.get(
    '/groups/:id/relationships/members',
    {
      config: { jsonapi: true, access: P.readGroup },
      schema: {
        summary: "The group's members as user resource identifiers, in username order.",
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const group = await loadGroup(db, request.params.id);
      const rows = await db.execute<{ id: string }>(
        sql`select m.user_id as id from identity.group_member m join identity."user" u on u.id = m.user_id
            where m.group_id = ${group.id} order by u.username`,
      );
      return {
        jsonapi: { version: '1.1' as const },
        data: rows.rows.map((row) => ({ type: 'user', id: row.id })),
        meta: { count: rows.rows.length },
      };
    },
  );
}
