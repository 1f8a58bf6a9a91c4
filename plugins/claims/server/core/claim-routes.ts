import { POLICY_LOOKUP } from '@atrium/plugin-policies/services';
import { requirePolicyInBook } from '../integrations/policy-source.js';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  ApiError,
  attributeError,
  includeAccess,
  emitEvent,
  parseInclude,
  resourceDocument,
  serializeDocument,
  toManyRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimCreated } from '../events.js';
import { claimsPermission } from '../permissions.js';
import { STATUS_TRANSITIONS } from '../../shared/statuses.js';
import { checkIfMatch, claimAccessFilter, claimNotFound, loadClaimFor } from './claim-access.js';
import { nextClaimNumber } from './claim-numbers.js';
import { claimListQuery, listClaimsPage } from './claim-list-query.js';
import { claimResource, etagOf, hydrateClaims, type ClaimRecord, type ClaimRow } from './claim-resource.js';
import {
  claimAttributes,
  claimRelationships,
  claimValues,
  policyDateOf,
  loadTagIds,
  materializeFnolClaimants,
  replacePerils,
  resolveProductId,
  type ClaimAttributes,
} from './claim-write.js';
import { exposureResource, hydrateExposures } from './exposure-resource.js';
import { CLAIMS_BASE, callerOf, requireMatchingId, security, tags, writeAudit } from './http-kit.js';
import { assertTransition } from './status-transitions.js';
import { ensureClaimUser, requireClaimsUser } from '../integrations/claims-users.js';
import { claim, claimTag, exposure, lookup } from './tables.js';

/**
 * Claims: the list with the spec's filters, FNOL drafts (POST creates one, submit opens it), one
 * claim with its ETag, PATCH with If-Match, status moves, tags as a relationship, lookups by FNOL
 * and claim number, and the status transition table (`claims/statuses/`).
 */
const idParams = z.strictObject({ id: z.string().max(20) });
const numberParams = z.strictObject({ number: z.string().min(1).max(100) });

// Hand-written, not a resource declaration: a claim is created as a numbered FNOL draft that submit opens, moves through statuses with a reason audited as a status change, and is read by number too.
export function claimRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const resource = claimResource(db, context);
  const exposures = exposureResource(db);

  const answer = async (
    reply: { header: (name: string, value: string) => unknown },
    row: ClaimRow,
    tx: Queryable = db,
  ) => {
    const [record] = await hydrateClaims(tx, [row]);
    reply.header('etag', etagOf(row));
    return serializeDocument(resource, record!);
  };

  router.get(
    '/claims/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'read') },
      schema: {
        summary:
          'Lists claims, 250 a page (newest first), with the spec’s filters; page[number] or a page[after] cursor.',
        description:
          'Filters (plain or filter[…]): numbers (comma list of claim numbers), number (part of the number, any case), ' +
          'claim_number (exact), status (comma list), has_adjuster (true/false), primary_adjuster, policy_number, ' +
          'loss_city, loss_state (any case), loss_zip. include: product, tags, exposures, parties, primary_insured.',
        tags,
        security,
        querystring: claimListQuery,
      },
    },
    async (request) => {
      const query = request.query;
      const include = parseInclude(query.include, resource);
      const page = toPageRequest(query);
      const accessFilter = await claimAccessFilter(context, request);
      const { rows, locations, links, meta } = await listClaimsPage(db, `${CLAIMS_BASE}/claims/`, {
        query,
        page,
        sort: query.sort,
        accessFilter,
      });
      return serializeDocument(resource, await hydrateClaims(db, rows, { locations }), {
        include,
        links,
        meta,
        access: includeAccess(context, request),
      });
    },
  );

  router.post(
    '/claims/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'create') },
      schema: {
        summary: 'Starts an FNOL: a claim with status draft and the next claim number.',
        tags,
        security,
        body: resourceDocument('claim', claimAttributes, { relationships: claimRelationships }),
      },
    },
    async (request, reply) => {
      const data = request.body.data;
      const attributes: ClaimAttributes = data.attributes ?? {};
      if (attributes.status !== undefined && attributes.status !== 'draft') {
        throw attributeError('status', 'A new claim starts as a draft; submit it to open it.');
      }
      const username = callerOf(request);
      const adjuster = attributes.primary_adjuster ? await requireAdjuster(attributes.primary_adjuster) : null;
      if (attributes.policy_ref) {
        await requirePolicyInBook(context, request, attributes.policy_ref, policyDateOf(attributes, null));
      }
      const created = await db.transaction(async (tx) => {
        // The adjuster's claim settings row, which also keeps the name screens show.
        if (adjuster) await ensureClaimUser(tx, adjuster);
        const productId = await resolveProductId(tx, data.relationships?.product, attributes.policy_type);
        const { values, perilIds } = await claimValues(tx, attributes, productId, null, {
          lookup: context.optionalService(POLICY_LOOKUP),
        });
        const number = await nextClaimNumber(tx);
        const [row] = await tx
          .insert(claim)
          .values({
            ...values,
            number,
            fnolNumber: number,
            status: 'draft',
            productId: productId ?? null,
            createdBy: username,
          })
          .returning();
        if (perilIds) await replacePerils(tx, row!.id, perilIds);
        if (data.relationships?.tags) {
          const tagIds = await loadTagIds(
            tx,
            data.relationships.tags.data.map((t) => t.id),
            '/data/relationships/tags',
          );
          if (tagIds.length) await tx.insert(claimTag).values(tagIds.map((tagId) => ({ claimId: row!.id, tagId })));
        }
        await writeAudit(tx, {
          username,
          action: 'create',
          entityType: 'claim',
          entityId: row!.id,
          claimId: row!.id,
          after: row,
          toStatus: 'draft',
        });
        await emitEvent(
          tx,
          claimCreated,
          {
            claim_id: String(row!.id),
            claim_number: row!.number,
            status: row!.status,
            policy_number: row!.policyNumber,
            created_by: username,
          },
          { triggeringUser: username },
        );
        return row!;
      });
      reply.status(201);
      return answer(reply, created);
    },
  );

  /** primary_adjuster names a claims user (claims-users.ts), asked before the transaction opens. */
  const requireAdjuster = (username: string) =>
    requireClaimsUser(context, username, '/data/attributes/primary_adjuster');

  router.get(
    '/claims/statuses/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'read') },
      schema: {
        summary:
          'The statuses claims and exposures move through: one resource per allowed move (from_status → to_status).',
        description:
          'from_status keeps the moves from that status; claim (a claim id) keeps the moves its claim may make now ' +
          '(entity claim; 404 when the caller cannot read it).',
        tags,
        security,
        querystring: z.strictObject({
          entity: z.enum(['claim', 'exposure']).optional(),
          'filter[entity]': z.enum(['claim', 'exposure']).optional(),
          from_status: z.string().max(40).optional(),
          'filter[from_status]': z.string().max(40).optional(),
          claim: z.string().max(20).optional(),
          'filter[claim]': z.string().max(20).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      let entity = q.entity ?? q['filter[entity]'];
      let from = q.from_status ?? q['filter[from_status]'];
      const claimId = q.claim ?? q['filter[claim]'];
      if (claimId !== undefined) {
        if (entity === 'exposure') {
          throw new ApiError(400, 'claim lists the moves of a claim: leave entity out or set it to claim.', {
            source: { parameter: 'entity' },
          });
        }
        const current = await loadClaimFor(context, request, db, claimId, 'read');
        entity = 'claim';
        // A from_status other than the claim's own: the claim may make none of those moves now.
        from = from === undefined || from === current.status ? current.status : `${from} (not ${current.status})`;
      }
      const reasons = await db
        .select()
        .from(lookup)
        .where(and(inArray(lookup.kind, ['claim-status-reason', 'exposure-status-reason']), eq(lookup.expired, false)))
        .orderBy(asc(lookup.sortOrder), asc(lookup.id));
      // One row per allowed move and reason (the reason lookups of that move); a move without
      // reason lookups is one row whose reason is ''.
      const rows = STATUS_TRANSITIONS.filter(
        (t) => (!entity || t.entity === entity) && (from === undefined || t.from_status === from),
      ).flatMap((t) => {
        const mine = reasons.filter(
          (r) => r.kind === `${t.entity}-status-reason` && r.fromStatus === t.from_status && r.toStatus === t.to_status,
        );
        const base = { ...t, name: t.to_status, label: t.action };
        const id = `${t.entity}:${t.from_status}:${t.to_status}`;
        return mine.length
          ? mine.map((r) => ({ type: 'status', id: `${id}:${r.id}`, attributes: { ...base, reason: r.label } }))
          : [{ type: 'status', id, attributes: { ...base, reason: '' } }];
      });
      return { jsonapi: { version: '1.1' }, data: rows, meta: { count: rows.length, pages: 1 } };
    },
  );

  router.get(
    '/claims/fnol/:number/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'read') },
      schema: {
        summary:
          'Loads an FNOL by number: a draft with that FNOL or claim number first, then any claim with that number.',
        tags,
        security,
        params: numberParams,
      },
    },
    async (request, reply) => {
      const n = request.params.number;
      const [draft] = await db
        .select()
        .from(claim)
        .where(and(eq(claim.status, 'draft'), sql`(${claim.fnolNumber} = ${n} or ${claim.number} = ${n})`))
        .orderBy(desc(claim.id))
        .limit(1);
      const [any] = draft ? [draft] : await db.select().from(claim).where(eq(claim.number, n)).limit(1);
      if (!any) throw new ApiError(404, `FNOL ${n} not found.`);
      const row = await loadClaimFor(context, request, db, any.id, 'read').catch(() => {
        throw new ApiError(404, `FNOL ${n} not found.`);
      });
      return answer(reply, row);
    },
  );

  const byNumber = async (request: Parameters<typeof loadClaimFor>[1], n: string) => {
    const [row] = await db.select({ id: claim.id }).from(claim).where(eq(claim.number, n)).limit(1);
    if (!row) throw claimNotFound(n);
    return loadClaimFor(context, request, db, row.id, 'read').catch(() => {
      throw claimNotFound(n);
    });
  };

  router.get(
    '/claims/by-number/:number/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'read') },
      schema: { summary: 'One claim by its number.', tags, security, params: numberParams },
    },
    async (request, reply) => answer(reply, await byNumber(request, request.params.number)),
  );

  router.get(
    '/claims/by-number/:number/exposures/:exposureNumber/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'read') },
      schema: {
        summary: 'One exposure by its number within a claim (by claim number).',
        tags,
        security,
        params: z.strictObject({ number: z.string().min(1).max(100), exposureNumber: z.string().min(1).max(20) }),
      },
    },
    async (request, reply) => {
      const found = await byNumber(request, request.params.number);
      const n = request.params.exposureNumber;
      const [row] = /^\d{1,9}$/.test(n)
        ? await db
            .select()
            .from(exposure)
            .where(and(eq(exposure.claimId, found.id), eq(exposure.number, Number(n))))
            .limit(1)
        : [];
      if (!row) throw new ApiError(404, `Exposure ${n} not found.`);
      reply.header('etag', etagOf(row, 'exposure'));
      return serializeDocument(exposures, (await hydrateExposures(db, [row]))[0]!);
    },
  );

  router.get(
    '/claims/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'read') },
      schema: {
        summary: 'One claim, with its ETag for If-Match.',
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({ include: z.string().max(200).optional() }),
      },
    },
    async (request, reply) => {
      const include = parseInclude(request.query.include, resource);
      const row = await loadClaimFor(context, request, db, request.params.id, 'read');
      const [record] = await hydrateClaims(db, [row]);
      reply.header('etag', etagOf(row));
      return serializeDocument(resource, record!, { include, access: includeAccess(context, request) });
    },
  );

  /** The one update path: PATCH and submit both come here, in one transaction with the row locked. */
  const update = async (
    request: Parameters<typeof loadClaimFor>[1],
    id: string,
    data: {
      attributes?: ClaimAttributes;
      relationships?: { product?: { data: { id: string } | null }; tags?: { data: { id: string }[] } };
    },
  ) => {
    const before = await loadClaimFor(context, request, db, id, 'update');
    const named = data.attributes?.primary_adjuster;
    const adjuster = named && named !== before.primaryAdjuster ? await requireAdjuster(named) : null;
    const policyRef = data.attributes?.policy_ref;
    if (policyRef) {
      await requirePolicyInBook(context, request, policyRef, policyDateOf(data.attributes ?? {}, before.dateOfLoss));
    }
    return db.transaction(async (tx) => {
      // The new adjuster's claim settings row, which also keeps the name screens show.
      if (adjuster) await ensureClaimUser(tx, adjuster);
      const current = await loadClaimFor(context, request, tx, id, 'update', { lock: true });
      checkIfMatch(request, etagOf(current), 'claim');
      const attributes = data.attributes ?? {};
      const username = callerOf(request);
      const productId =
        (await resolveProductId(
          tx,
          data.relationships?.product,
          current.productId ? undefined : attributes.policy_type,
        )) ?? current.productId;
      const { values, perilIds } = await claimValues(tx, attributes, productId, current.lossLocationId, {
        lookup: context.optionalService(POLICY_LOOKUP),
        dateOfLoss: current.dateOfLoss,
      });
      const to = attributes.status;
      const moving = to !== undefined && to !== current.status;
      if (moving) {
        const reason = attributes.status_change_reason ?? null;
        assertTransition('claim', current.status, to, reason);
        values.status = to;
        if (current.status === 'draft') {
          const lossDate = values.dateOfLoss !== undefined ? values.dateOfLoss : current.dateOfLoss;
          if (!lossDate) throw attributeError('date_of_loss', 'This field is required.');
          values.submittedBy = username;
          values.reportedDate = values.reportedDate ?? current.reportedDate ?? new Date();
          values.currentFnolStep = null;
        }
      }
      const [row] = await tx
        .update(claim)
        .set({ ...values, productId, version: sql`${claim.version} + 1`, updatedAt: new Date() })
        .where(and(eq(claim.id, current.id), eq(claim.version, current.version)))
        .returning();
      if (!row)
        throw new ApiError(412, 'The claim was changed by someone else since you read it. Reload it and try again.');
      if (perilIds) await replacePerils(tx, row.id, perilIds);
      if (data.relationships?.tags) {
        await replaceTags(
          tx,
          row.id,
          data.relationships.tags.data.map((t) => t.id),
        );
      }
      if (moving && current.status === 'draft') {
        await materializeFnolClaimants(
          tx,
          row.id,
          row.fnolClaimants,
          row.policyRevisionId,
          row.policySource === 'policies' ? (row.policyCoverages ?? []) : undefined,
        );
      }
      await writeAudit(tx, {
        username,
        action: moving ? 'status' : 'update',
        entityType: 'claim',
        entityId: row.id,
        claimId: row.id,
        fromStatus: moving ? current.status : null,
        toStatus: moving ? row.status : null,
        reason: moving ? row.statusChangeReason : null,
        before: current,
        after: row,
      });
      return row;
    });
  };

  router.patch(
    '/claims/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'update') },
      schema: {
        summary:
          'Changes a claim. If-Match with the ETag read; a stale one is 412. A status change must be an allowed move.',
        description:
          'Without If-Match the write is accepted (last write wins). status moves follow claims/statuses/; closing and ' +
          'reopening need status_change_reason. draft → open is the FNOL submit.',
        tags,
        security,
        params: idParams,
        body: resourceDocument('claim', claimAttributes, { id: 'required', relationships: claimRelationships }),
      },
    },
    async (request, reply) => {
      requireMatchingId(request.body.data.id, request.params.id);
      return answer(reply, await update(request, request.params.id, request.body.data));
    },
  );

  router.post(
    '/claims/:id/submit/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'update') },
      schema: {
        summary: 'Submits an FNOL draft: draft → open; its claimants become parties with exposures.',
        tags,
        security,
        params: idParams,
        body: resourceDocument('claim', claimAttributes, { id: 'required', relationships: claimRelationships }),
      },
    },
    async (request, reply) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const data = request.body.data;
      return answer(
        reply,
        await update(request, request.params.id, { ...data, attributes: { ...data.attributes, status: 'open' } }),
      );
    },
  );

  router.delete(
    '/claims/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('claim', 'delete') },
      schema: {
        summary: 'Deletes an FNOL draft (a submitted claim is closed instead).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      await loadClaimFor(context, request, db, request.params.id, 'delete');
      await db.transaction(async (tx) => {
        const current = await loadClaimFor(context, request, tx, request.params.id, 'delete', { lock: true });
        checkIfMatch(request, etagOf(current), 'claim');
        if (current.status !== 'draft') {
          throw new ApiError(
            409,
            `Claim ${current.number} is ${current.status}; only FNOL drafts can be deleted. Close it instead.`,
          );
        }
        await tx.delete(claim).where(eq(claim.id, current.id));
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'delete',
          entityType: 'claim',
          entityId: current.id,
          claimId: current.id,
          before: current,
        });
      });
      return reply.status(204).send();
    },
  );

  const replaceTags = async (tx: Queryable, claimId: number, ids: string[]) => {
    const tagIds = await loadTagIds(tx, ids, '/data');
    await tx.delete(claimTag).where(eq(claimTag.claimId, claimId));
    if (tagIds.length) await tx.insert(claimTag).values(tagIds.map((tagId) => ({ claimId, tagId })));
    return tagIds;
  };

  for (const path of ['/claims/:id/relationships/tags', '/claims/:id/relationships/tags/']) {
    router.get(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('claim', 'read') },
        schema: { summary: "The claim's tags as resource identifiers.", tags, security, params: idParams },
      },
      async (request) => {
        const row = await loadClaimFor(context, request, db, request.params.id, 'read');
        const [record] = await hydrateClaims(db, [row]);
        return { jsonapi: { version: '1.1' }, data: record!.tagIds.map((id) => ({ type: 'tag', id })) };
      },
    );
    router.patch(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('claim', 'update') },
        schema: {
          summary: "Replaces the claim's tags with the list given (tag ids).",
          tags,
          security,
          params: idParams,
          body: toManyRelationship('tag'),
        },
      },
      async (request) => {
        const ids = request.body.data.map((t) => t.id);
        await loadClaimFor(context, request, db, request.params.id, 'update');
        const tagIds = await db.transaction(async (tx) => {
          const current = await loadClaimFor(context, request, tx, request.params.id, 'update', { lock: true });
          const [before] = await hydrateClaims(tx, [current]);
          const result = await replaceTags(tx, current.id, ids);
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'tags',
            entityType: 'claim',
            entityId: current.id,
            claimId: current.id,
            before: { tags: before!.tagIds },
            after: { tags: result.map(String) },
          });
          return result;
        });
        return { jsonapi: { version: '1.1' }, data: tagIds.map((id) => ({ type: 'tag', id: String(id) })) };
      },
    );
  }
}

export type { ClaimRecord };
// The list query moved to claim-list-query.ts; these stay importable from here.
export { claimListConditions, claimListQuery } from './claim-list-query.js';
