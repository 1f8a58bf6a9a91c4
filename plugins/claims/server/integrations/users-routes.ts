import { and, asc, desc, eq, inArray, type Column, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  pageOfRows,
  isUniqueViolation,
  ApiError,
  fieldError,
  defineResource,
  serializeDocument,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { loadClaimFor } from '../core/claim-access.js';
import { claimScope, exposureClaimScope } from '../core/claim-scope.js';
import { CLAIMS_BASE, callerOf, numericId, security, tags, writeAudit } from '../core/http-kit.js';
import { claim, claimAssignment, claimUser, exposure, exposureAssignment, lookup } from '../core/tables.js';
import {
  ensureClaimUser,
  findClaimsUser,
  listClaimsUsers,
  requireClaimsUser,
  settingsOf,
  type ClaimsUser,
} from './claims-users.js';

/**
 * The users integration: claim users (identity users whose role may update claims, claims-users.ts),
 * their roles on claims, claim and
 * exposure assignments, per-user settings (the claim they last worked on), and
 * `POST claims/users/{username}/assign/claims/` which makes a user the primary adjuster of claims.
 * Bodies are plain JSON objects as the classic client sends them; answers are JSON:API documents.
 */
const BASE = '/integrations/users';
const PRIMARY_ADJUSTER = 'Primary Adjuster';

type ClaimUserView = Pick<typeof claimUser.$inferSelect, 'username' | 'name' | 'email' | 'phone' | 'settings'>;

const userResource = defineResource<ClaimUserView>({
  type: 'claim-user',
  id: (row) => row.username,
  attributes: (row) => ({
    username: row.username,
    name: row.name,
    email: row.email,
    phone: row.phone,
    settings: row.settings,
  }),
});

const viewOf = (user: ClaimsUser, settings: Record<string, unknown> | undefined): ClaimUserView => ({
  username: user.username,
  name: user.name,
  email: user.email,
  phone: user.phone ?? '',
  settings: settings ?? {},
});
const roleResource = defineResource<typeof lookup.$inferSelect>({
  type: 'claim-user-role',
  id: (row) => String(row.id),
  attributes: (row) => ({ name: row.name, label: row.label, level: row.sortOrder }),
});
const claimAssignmentResource = defineResource<typeof claimAssignment.$inferSelect>({
  type: 'claim-assignment',
  id: (row) => String(row.id),
  attributes: (row) => ({
    username: row.username,
    role_id: row.roleId,
    claim_id: row.claimId,
    created_at: row.createdAt,
  }),
});
const exposureAssignmentResource = defineResource<typeof exposureAssignment.$inferSelect>({
  type: 'exposure-assignment',
  id: (row) => String(row.id),
  attributes: (row) => ({
    username: row.username,
    role_id: row.roleId,
    exposure_id: row.exposureId,
    created_at: row.createdAt,
  }),
});

const username = z.string().trim().min(1).max(200);
const intId = z.number().int().min(1).max(2147483647);
const claimAssignmentBody = z.strictObject({ username, role_id: intId, claim_id: intId });
const exposureAssignmentBody = z.strictObject({ username, role_id: intId, exposure_id: intId });
const paging = {
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(1000).default(250),
  orderBy: z.enum(['id', '-id', 'username', '-username']).default('id'),
};

// Hand-written, not a resource declaration: the classic users integration takes plain JSON bodies (one assignment or a list) and answers JSON:API, and claim users are identity users found by username.
export function usersRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;

  const requireRole = async (tx: Queryable, id: number) => {
    const [row] = await tx
      .select()
      .from(lookup)
      .where(and(eq(lookup.id, id), eq(lookup.kind, 'claim-user-role')))
      .limit(1);
    if (!row) throw new ApiError(400, `Role ${id} does not exist.`, { source: { pointer: '/role_id' } });
    return row;
  };

  assignmentRoutes(router, context, {
    type: 'claim-assignment',
    noun: 'Claim assignment',
    table: claimAssignment,
    resource: claimAssignmentResource,
    listSummary:
      'Claim assignments (username, role_id, claim_id) on the claims the caller may read; filter claim_id; page, page_size, orderBy.',
    deleteSummary: 'Removes a claim assignment.',
    filters: { claim_id: queryId },
    where: (q) => (q.claim_id ? eq(claimAssignment.claimId, q.claim_id) : undefined),
    // Only the assignments of claims the caller may read (record conditions of claims:claim read).
    scope: (request) => claimScope(context, request, claimAssignment.claimId),
    orderColumn: (q) => (q.orderBy.endsWith('username') ? claimAssignment.username : claimAssignment.id),
    claimOf: async (_tx, row) => row.claimId,
  });
  assignmentRoutes(router, context, {
    type: 'exposure-assignment',
    noun: 'Exposure assignment',
    table: exposureAssignment,
    resource: exposureAssignmentResource,
    listSummary:
      'Exposure assignments on the claims the caller may read; filter exposure_id, or claim_id (every exposure of the claim).',
    deleteSummary: 'Removes an exposure assignment.',
    filters: { exposure_id: queryId, claim_id: queryId },
    where: (q) =>
      and(
        q.exposure_id ? eq(exposureAssignment.exposureId, q.exposure_id) : undefined,
        q.claim_id
          ? inArray(
              exposureAssignment.exposureId,
              db.select({ id: exposure.id }).from(exposure).where(eq(exposure.claimId, q.claim_id)),
            )
          : undefined,
      ),
    // Only the assignments of exposures on claims the caller may read.
    scope: (request) => exposureClaimScope(context, request, exposureAssignment.exposureId),
    orderColumn: () => exposureAssignment.id,
    // The entry names the claim, so the audit log shows it only to those who may read that claim.
    async claimOf(tx, row) {
      const [owning] = await tx
        .select({ claimId: exposure.claimId })
        .from(exposure)
        .where(eq(exposure.id, (row as typeof exposureAssignment.$inferSelect).exposureId));
      return owning?.claimId ?? null;
    },
  });

  router.get(
    `${BASE}/`,
    {
      config: { jsonapi: true, access: claimsPermission('user', 'read') },
      schema: {
        summary:
          'Claim users: the users whose role may update claims, by name; search= narrows by name or user name; ' +
          'role= keeps those holding that claim role (by role name) on any claim.',
        tags,
        security,
        querystring: z.strictObject({
          role: z.string().max(100).optional(),
          search: z.string().trim().max(200).optional(),
        }),
      },
    },
    async (request) => {
      const users = await listClaimsUsers(context, { search: request.query.search });
      const settings = await settingsOf(
        db,
        users.map((u) => u.username),
      );
      let rows = users.map((u) => viewOf(u, settings.get(u.username)));
      if (request.query.role) {
        const holders = await db
          .selectDistinct({ username: claimAssignment.username })
          .from(claimAssignment)
          .innerJoin(lookup, eq(lookup.id, claimAssignment.roleId))
          .where(eq(lookup.name, request.query.role));
        const names = new Set(holders.map((h) => h.username));
        rows = rows.filter((r) => names.has(r.username));
      }
      return serializeDocument(userResource, rows, { meta: { count: rows.length, pages: 1 } });
    },
  );

  router.get(
    `${BASE}/roles/`,
    {
      config: { jsonapi: true, access: claimsPermission('user', 'read') },
      schema: { summary: 'The claim user roles with their levels.', tags, security },
    },
    async () => {
      const rows = await db
        .select()
        .from(lookup)
        .where(eq(lookup.kind, 'claim-user-role'))
        .orderBy(asc(lookup.sortOrder));
      return serializeDocument(roleResource, rows, { meta: { count: rows.length, pages: 1 } });
    },
  );

  router.post(
    `${BASE}/claim-assignments/`,
    {
      config: { access: claimsPermission('assignment', 'create') },
      schema: {
        summary: 'Assigns a user to a claim in a role: one {username, role_id, claim_id} or a list of them.',
        tags,
        security,
        body: z.union([claimAssignmentBody, z.array(claimAssignmentBody).min(1).max(500)]),
      },
    },
    async (request, reply) => {
      const list = Array.isArray(request.body) ? request.body : [request.body];
      // Record checks (and who is a claims user) before the transaction (see loadClaimFor).
      const users = new Map<string, ClaimsUser>();
      for (const item of list) {
        await loadClaimFor(context, request, db, item.claim_id, 'assign').catch(() => {
          throw new ApiError(400, `Claim ${item.claim_id} not found.`, { source: { pointer: '/claim_id' } });
        });
        if (!users.has(item.username))
          users.set(item.username, await requireClaimsUser(context, item.username, '/username'));
      }
      const created = await db
        .transaction(async (tx) => {
          const out: (typeof claimAssignment.$inferSelect)[] = [];
          for (const item of list) {
            await ensureClaimUser(tx, users.get(item.username)!);
            await requireRole(tx, item.role_id);
            await loadClaimFor(context, request, tx, item.claim_id, 'assign').catch(() => {
              throw new ApiError(400, `Claim ${item.claim_id} not found.`, { source: { pointer: '/claim_id' } });
            });
            const [row] = await tx
              .insert(claimAssignment)
              .values({ username: item.username, roleId: item.role_id, claimId: item.claim_id })
              .returning();
            await writeAudit(tx, {
              username: callerOf(request),
              action: 'assign',
              entityType: 'claim-assignment',
              entityId: row!.id,
              claimId: item.claim_id,
              after: row,
            });
            out.push(row!);
          }
          return out;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ApiError(409, 'The user already holds this role on the claim.');
          throw error;
        });
      reply.status(201).header('content-type', 'application/vnd.api+json');
      return serializeDocument(claimAssignmentResource, Array.isArray(request.body) ? created : created[0]!);
    },
  );

  router.post(
    `${BASE}/exposure-assignments/`,
    {
      config: { access: claimsPermission('assignment', 'create') },
      schema: { summary: 'Assigns a user to an exposure in a role.', tags, security, body: exposureAssignmentBody },
    },
    async (request, reply) => {
      const item = request.body;
      const user = await requireClaimsUser(context, item.username, '/username');
      const [owning] = await db
        .select({ claimId: exposure.claimId })
        .from(exposure)
        .where(eq(exposure.id, item.exposure_id))
        .limit(1);
      if (owning) {
        await loadClaimFor(context, request, db, owning.claimId, 'assign').catch(() => {
          throw new ApiError(400, `Exposure ${item.exposure_id} not found.`, { source: { pointer: '/exposure_id' } });
        });
      }
      const row = await db
        .transaction(async (tx) => {
          await ensureClaimUser(tx, user);
          await requireRole(tx, item.role_id);
          const [target] = await tx
            .select({ id: exposure.id, claimId: exposure.claimId })
            .from(exposure)
            .where(eq(exposure.id, item.exposure_id))
            .limit(1);
          if (!target)
            throw new ApiError(400, `Exposure ${item.exposure_id} not found.`, { source: { pointer: '/exposure_id' } });
          await loadClaimFor(context, request, tx, target.claimId, 'assign').catch(() => {
            throw new ApiError(400, `Exposure ${item.exposure_id} not found.`, { source: { pointer: '/exposure_id' } });
          });
          const [created] = await tx
            .insert(exposureAssignment)
            .values({ username: item.username, roleId: item.role_id, exposureId: item.exposure_id })
            .returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'assign',
            entityType: 'exposure-assignment',
            entityId: created!.id,
            claimId: target.claimId,
            after: created,
          });
          return created!;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ApiError(409, 'The user already holds this role on the exposure.');
          throw error;
        });
      reply.status(201).header('content-type', 'application/vnd.api+json');
      return serializeDocument(exposureAssignmentResource, row);
    },
  );

  router.patch(
    `${BASE}/settings/:username/`,
    {
      config: { access: claimsPermission('user', 'update') },
      schema: {
        summary: "Changes a claim user's settings (claim_id: the claim they work on).",
        tags,
        security,
        params: z.strictObject({ username }),
        body: z.strictObject({ claim_id: intId.nullable().optional() }),
      },
    },
    async (request, reply) => {
      const target = request.params.username;
      // One's own settings, or another's when the access policy allows it for that user (record.username):
      // the Claims handling policy lets adjusters change only their own.
      const principal = request.principal!;
      if (principal.username.toLowerCase() !== target.toLowerCase()) {
        const evaluation = await context.services.evaluator!.evaluate(principal, {
          ...claimsPermission('user', 'update'),
          record: { username: target },
        });
        if (!evaluation.allowed) throw new ApiError(403, "You may not change another user's claim settings.");
      }
      const user = await findClaimsUser(context, target);
      if (!user) throw new ApiError(404, `User ${target} not found.`);
      if (request.body.claim_id) {
        const [exists] = await db
          .select({ id: claim.id })
          .from(claim)
          .where(eq(claim.id, request.body.claim_id))
          .limit(1);
        if (!exists)
          throw new ApiError(400, `Claim ${request.body.claim_id} not found.`, { source: { pointer: '/claim_id' } });
      }
      const row = await db.transaction(async (tx) => {
        const current = await ensureClaimUser(tx, user);
        const [updated] = await tx
          .update(claimUser)
          .set({ settings: { ...current.settings, ...request.body } })
          .where(eq(claimUser.username, user.username))
          .returning();
        return updated!;
      });
      reply.header('content-type', 'application/vnd.api+json');
      return serializeDocument(userResource, row);
    },
  );

  router.get(
    `${BASE}/:username/`,
    {
      config: { jsonapi: true, access: claimsPermission('user', 'read') },
      schema: { summary: 'One claim user.', tags, security, params: z.strictObject({ username }) },
    },
    async (request) => {
      const user = await findClaimsUser(context, request.params.username);
      if (!user) throw new ApiError(404, `User ${request.params.username} not found.`);
      const settings = await settingsOf(db, [user.username]);
      return serializeDocument(userResource, viewOf(user, settings.get(user.username)));
    },
  );

  router.post(
    '/claims/users/:username/assign/claims/',
    {
      config: { access: claimsPermission('claim', 'assign') },
      schema: {
        summary: 'Makes the user the primary adjuster of the claims given (claim_ids) and records the assignments.',
        tags,
        security,
        params: z.strictObject({ username }),
        body: z.strictObject({ claim_ids: z.array(intId).min(1).max(500) }),
      },
    },
    async (request, reply) => {
      const target = request.params.username;
      const user = await findClaimsUser(context, target);
      if (!user) throw new ApiError(404, `User ${target} not found.`);
      for (const id of new Set(request.body.claim_ids)) {
        const [exists] = await db.select({ id: claim.id }).from(claim).where(eq(claim.id, id)).limit(1);
        if (!exists) continue; // reported in the transaction as a pointer error
        await loadClaimFor(context, request, db, id, 'assign').catch(() => {
          throw new ApiError(400, `Claim ${id} not found.`, { source: { pointer: '/claim_ids' } });
        });
      }
      const updated = await db.transaction(async (tx) => {
        await ensureClaimUser(tx, user);
        const [role] = await tx
          .select()
          .from(lookup)
          .where(and(eq(lookup.kind, 'claim-user-role'), eq(lookup.name, PRIMARY_ADJUSTER)))
          .limit(1);
        const ids = [...new Set(request.body.claim_ids)];
        const found = await tx.select({ id: claim.id }).from(claim).where(inArray(claim.id, ids));
        const missing = ids.find((id) => !found.some((f) => f.id === id));
        if (missing) throw fieldError('claim_ids', `Claim ${missing} not found.`);
        const rows = [];
        for (const id of ids) {
          const before = await loadClaimFor(context, request, tx, id, 'assign', { lock: true }).catch(() => {
            throw new ApiError(400, `Claim ${id} not found.`, { source: { pointer: '/claim_ids' } });
          });
          const [after] = await tx
            .update(claim)
            .set({ primaryAdjuster: user.username, version: before.version + 1, updatedAt: new Date() })
            .where(eq(claim.id, id))
            .returning();
          if (role) {
            await tx
              .delete(claimAssignment)
              .where(and(eq(claimAssignment.claimId, id), eq(claimAssignment.roleId, role.id)));
            await tx.insert(claimAssignment).values({ claimId: id, username: target, roleId: role.id });
          }
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'assign',
            entityType: 'claim',
            entityId: id,
            claimId: id,
            before: { primary_adjuster: before.primaryAdjuster },
            after: { primary_adjuster: target },
          });
          rows.push(after!);
        }
        return rows;
      });
      reply.header('content-type', 'application/vnd.api+json');
      return {
        jsonapi: { version: '1.1' },
        data: updated.map((c) => ({
          type: 'claim',
          id: String(c.id),
          attributes: { number: c.number, primary_adjuster: c.primaryAdjuster },
        })),
      };
    },
  );
}

type AssignmentTable = typeof claimAssignment | typeof exposureAssignment;
type AssignmentQuery = z.infer<z.ZodObject<typeof paging>> & { claim_id?: number; exposure_id?: number };
const queryId = z.coerce.number().int().min(1).max(2147483647).optional();

/**
 * A kind of assignment's list (paged, only on claims the caller may read) and its delete (an
 * assignment on a claim the caller cannot read is answered like a missing one), audited as unassign.
 */
function assignmentRoutes<Table extends AssignmentTable>(
  router: AtriumRouter,
  context: ServerPluginContext,
  kind: {
    type: 'claim-assignment' | 'exposure-assignment';
    noun: 'Claim assignment' | 'Exposure assignment';
    table: Table;
    resource: ReturnType<typeof defineResource<Table['$inferSelect']>>;
    listSummary: string;
    deleteSummary: string;
    filters: Record<string, typeof queryId>;
    where(q: AssignmentQuery): SQL | undefined;
    scope(request: FastifyRequest): Promise<SQL | undefined>;
    orderColumn(q: AssignmentQuery): Column;
    claimOf(tx: Queryable, row: Table['$inferSelect']): Promise<number | null>;
  },
) {
  const { db } = context;
  // The two tables share these columns; drizzle cannot select from their union by itself.
  const table = kind.table as typeof claimAssignment;
  router.get(
    `${BASE}/${kind.type}s/`,
    {
      config: { jsonapi: true, access: claimsPermission('assignment', 'read') },
      schema: {
        summary: kind.listSummary,
        tags,
        security,
        querystring: z.strictObject({ ...kind.filters, ...paging }),
      },
    },
    async (request) => {
      const q = request.query as AssignmentQuery;
      const where = and(kind.where(q), await kind.scope(request));
      const column = kind.orderColumn(q);
      const { rows, links, meta } = await pageOfRows(db, table, {
        where,
        orderBy: [q.orderBy.startsWith('-') ? desc(column) : asc(column)],
        page: { number: q.page, size: q.page_size, offset: (q.page - 1) * q.page_size },
        path: `${CLAIMS_BASE}${BASE}/${kind.type}s/`,
        query: q,
      });
      return serializeDocument(kind.resource, rows as Table['$inferSelect'][], { links, meta });
    },
  );

  router.delete(
    `${BASE}/${kind.type}s/:id/`,
    {
      config: { jsonapi: true, access: claimsPermission('assignment', 'delete') },
      schema: {
        summary: kind.deleteSummary,
        tags,
        security,
        params: z.strictObject({ id: z.string().max(20) }),
      },
    },
    async (request, reply) => {
      const missing = `${kind.noun} ${request.params.id} not found.`;
      const id = numericId(request.params.id, missing);
      const scope = await kind.scope(request);
      await db.transaction(async (tx) => {
        const [row] = await tx
          .delete(table)
          .where(and(eq(table.id, id), scope))
          .returning();
        if (!row) throw new ApiError(404, missing);
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'unassign',
          entityType: kind.type,
          entityId: id,
          claimId: await kind.claimOf(tx, row as Table['$inferSelect']),
          before: row,
        });
      });
      return reply.status(204).send();
    },
  );
}
