import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  pageOfRows,
  ApiError,
  attributeError,
  pageQuerySchema,
  resourceDocument,
  serializeDocument,
  toManyRelationship,
  toOneRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { claimsPermission } from '../permissions.js';
import { checkIfMatch, claimAccessFilter, loadClaimFor } from './claim-access.js';
import { etagOf, type ClaimRow } from './claim-resource.js';
import { dateText, loadTagIds } from './claim-write.js';
import { exposureResource, hydrateExposures, type ExposureRow } from './exposure-resource.js';
import {
  CLAIMS_BASE,
  JSONAPI_PAGE_SIZE,
  callerOf,
  relationshipId,
  requireMatchingId,
  security,
  tags,
  writeAudit,
} from './http-kit.js';
import { filterShape, filterValue } from './query-filters.js';
import { assertTransition } from './status-transitions.js';
import { requireClaimsUser } from '../integrations/claims-users.js';
import { claim, exposure, exposureTag, party, policyRevision } from './tables.js';

/**
 * Exposures: numbered 1, 2, 3 … within their claim, moved through open → closed → reopened with a
 * reason, updated with If-Match like claims. Reading or writing one checks its claim for the caller.
 */
const text = (max: number) => z.string().trim().max(max);
const amount = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/, 'Enter an amount with at most 2 decimal places.');
const exposureAttributes = {
  exposure_name: text(200).optional(),
  description: text(5000).optional(),
  status: text(20).optional(),
  status_change_reason: text(500).nullable().optional(),
  is_injury: z.boolean().optional(),
  expired: z.boolean().optional(),
  adjuster: text(200).nullable().optional(),
  adjuster_start_date: dateText.nullable().optional(),
  deductible_applied_status: text(50).nullable().optional(),
  deductible_override_amount: amount.nullable().optional(),
  deductible_override_reason: text(500).nullable().optional(),
  full_deductible_applied: z.boolean().optional(),
  summary: text(5000).optional(),
  folder_id: z.number().int().min(1).nullable().optional(),
  // The policy coverage claimed under: its coverage type on a revision of the claim's policy (the
  // claim's own revision when policy_revision_id is left out). null clears it.
  coverage_type: text(100).nullable().optional(),
  policy_revision_id: z.number().int().min(1).max(2147483647).nullable().optional(),
};
const exposureRelationships = {
  claim: toOneRelationship('claim', false).optional(),
  party: toOneRelationship('party').optional(),
  coverage: toOneRelationship('coverage').optional(),
  risk: toOneRelationship('risk').optional(),
  tags: toManyRelationship('tag').optional(),
};
type Attributes = { [K in keyof typeof exposureAttributes]?: z.infer<(typeof exposureAttributes)[K]> };
type Relationships = {
  claim?: { data: { id: string } };
  party?: { data: { id: string } | null };
  coverage?: { data: { id: string } | null };
  risk?: { data: { id: string } | null };
  tags?: { data: { id: string }[] };
};
const idParams = z.strictObject({ id: z.string().max(20) });

function values(attributes: Attributes, relationships: Relationships = {}) {
  const a = attributes;
  const v: Partial<typeof exposure.$inferInsert> = {};
  if (a.exposure_name !== undefined) v.exposureName = a.exposure_name;
  if (a.description !== undefined) v.description = a.description;
  if (a.status_change_reason !== undefined) v.statusChangeReason = a.status_change_reason;
  if (a.is_injury !== undefined) v.isInjury = a.is_injury;
  if (a.expired !== undefined) v.expired = a.expired;
  if (a.adjuster !== undefined) v.adjuster = a.adjuster;
  if (a.adjuster_start_date !== undefined) v.adjusterStartDate = a.adjuster_start_date?.slice(0, 10) ?? null;
  if (a.deductible_applied_status !== undefined) v.deductibleAppliedStatus = a.deductible_applied_status;
  if (a.deductible_override_amount !== undefined) v.deductibleOverrideAmount = a.deductible_override_amount;
  if (a.deductible_override_reason !== undefined) v.deductibleOverrideReason = a.deductible_override_reason;
  if (a.full_deductible_applied !== undefined) v.fullDeductibleApplied = a.full_deductible_applied;
  if (a.summary !== undefined) v.summary = a.summary;
  if (a.folder_id !== undefined) v.folderId = a.folder_id;
  if (relationships.party) v.partyId = relationshipId(relationships.party.data?.id, 'party');
  if (relationships.coverage) v.coverageId = relationshipId(relationships.coverage.data?.id, 'coverage');
  if (relationships.risk) v.riskId = relationshipId(relationships.risk.data?.id, 'risk');
  return v;
}

/**
 * The coverage columns an exposure write sets: coverage type and the revision listing it (the given
 * one, else the claim's, else the one the exposure already names). The revision must belong to the
 * claim's policy and list the coverage type; anything else is a 400 on the attribute at fault.
 */
async function coverageValues(
  tx: Queryable,
  owner: Pick<ClaimRow, 'policyId' | 'policyRevisionId' | 'policySource' | 'policyCoverages'>,
  attributes: Attributes,
  current?: { policyRevisionId: number | null },
): Promise<Pick<typeof exposure.$inferInsert, 'coverageType' | 'policyRevisionId'> & { label?: string }> {
  if (attributes.coverage_type === undefined && attributes.policy_revision_id === undefined) return {};
  if (!attributes.coverage_type) {
    if (attributes.coverage_type === undefined) {
      throw attributeError('coverage_type', 'Choose the coverage of the policy revision.');
    }
    return { coverageType: null, policyRevisionId: null };
  }
  if (owner.policySource === 'policies') {
    // A claim on a policies-module policy: the coverages copied from its revision in force.
    const covered = (owner.policyCoverages ?? []).find((c) => c.coverage_type === attributes.coverage_type);
    if (!covered) {
      throw attributeError('coverage_type', `The policy revision has no coverage ${attributes.coverage_type}.`);
    }
    return { coverageType: covered.coverage_type, policyRevisionId: null, label: covered.label };
  }
  const revisionId = attributes.policy_revision_id ?? owner.policyRevisionId ?? current?.policyRevisionId ?? null;
  if (revisionId == null) {
    throw attributeError('coverage_type', 'The claim has no policy revision to take the coverage from.');
  }
  const [revision] = await tx
    .select({ policyId: policyRevision.policyId, coverages: policyRevision.coverages })
    .from(policyRevision)
    .where(eq(policyRevision.id, revisionId))
    .limit(1);
  if (!revision || (owner.policyId != null && revision.policyId !== owner.policyId)) {
    throw attributeError(
      'policy_revision_id',
      `Policy revision ${revisionId} is not a revision of the claim's policy.`,
    );
  }
  const covered = revision.coverages.find((c) => c.coverage_type === attributes.coverage_type);
  if (!covered) {
    throw attributeError('coverage_type', `The policy revision has no coverage ${attributes.coverage_type}.`);
  }
  return {
    coverageType: covered.coverage_type,
    policyRevisionId: revisionId,
    label: covered.label || covered.coverage_type,
  };
}

const exposureNotFound = (n: string | number) => new ApiError(404, `Exposure ${n} not found.`);

// Hand-written, not a resource declaration: exposures are numbered within their claim, take their coverage from the policy revision, and move through statuses with a reason audited as a status change.
export function exposureRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const resource = exposureResource(db);

  /** An exposure whose claim the caller may act on (else 404, like a missing one). */
  const loadFor = async (
    request: FastifyRequest,
    tx: Queryable,
    rawId: string,
    action: 'read' | 'update' | 'delete',
    lock = false,
  ) => {
    const id = /^[1-9]\d{0,9}$/.test(rawId) && Number(rawId) <= 2147483647 ? Number(rawId) : 0;
    if (!id) throw exposureNotFound(rawId);
    const query = tx.select().from(exposure).where(eq(exposure.id, id)).limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw exposureNotFound(rawId);
    const owner = await loadClaimFor(context, request, tx, row.claimId, action === 'read' ? 'read' : 'update').catch(
      () => {
        throw exposureNotFound(rawId);
      },
    );
    return { row, owner };
  };

  const answer = async (reply: { header: (n: string, v: string) => unknown }, row: ExposureRow, tx: Queryable = db) => {
    reply.header('etag', etagOf(row, 'exposure'));
    return serializeDocument(resource, (await hydrateExposures(tx, [row]))[0]!);
  };

  const replaceTags = async (tx: Queryable, exposureId: number, ids: string[], pointer: string) => {
    const tagIds = await loadTagIds(tx, ids, pointer);
    await tx.delete(exposureTag).where(eq(exposureTag.exposureId, exposureId));
    if (tagIds.length) await tx.insert(exposureTag).values(tagIds.map((tagId) => ({ exposureId, tagId })));
    return tagIds;
  };

  const checkParty = async (tx: Queryable, claimId: number, partyId: number | null | undefined) => {
    if (partyId == null) return;
    const [row] = await tx
      .select({ id: party.id })
      .from(party)
      .where(and(eq(party.id, partyId), eq(party.claimId, claimId)))
      .limit(1);
    if (!row) {
      throw new ApiError(400, `Party ${partyId} is not a party of this claim.`, {
        source: { pointer: '/data/relationships/party/data/id' },
      });
    }
  };

  router.get(
    '/exposures/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'read') },
      schema: {
        summary: 'Lists exposures, 250 a page; filter by claim_id (filter[claim]), status, party_id, adjuster.',
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(JSONAPI_PAGE_SIZE),
          ...filterShape({
            claim_id: z.coerce.number().int().min(1).max(2147483647).optional(),
            status: z.string().max(100).optional(),
            party_id: z.coerce.number().int().min(1).max(2147483647).optional(),
            adjuster: z.string().max(200).optional(),
          }),
          sort: z.enum(['id', '-id', 'number', '-number']).optional(),
        }),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown> & {
        'page[number]': number;
        'page[size]': number;
        sort?: string;
      };
      const page = toPageRequest(query);
      const conditions: SQL[] = [];
      const claimId = filterValue<number>(query, 'claim_id');
      if (claimId) conditions.push(eq(exposure.claimId, claimId));
      const status = filterValue<string>(query, 'status');
      if (status) conditions.push(inArray(exposure.status, status.split(',')));
      const partyId = filterValue<number>(query, 'party_id');
      if (partyId) conditions.push(eq(exposure.partyId, partyId));
      const adjuster = filterValue<string>(query, 'adjuster');
      if (adjuster) conditions.push(eq(exposure.adjuster, adjuster));
      // An exposure is listed only when its claim is (record conditions of claims:claim read).
      const claimFilter = await claimAccessFilter(context, request);
      if (claimFilter) {
        conditions.push(inArray(exposure.claimId, db.select({ id: claim.id }).from(claim).where(claimFilter)));
      }
      const where = conditions.length ? and(...conditions) : undefined;
      const sort = query.sort ?? 'id';
      const column = sort.endsWith('number') ? exposure.number : exposure.id;
      const { rows, links, meta } = await pageOfRows(db, exposure, {
        where,
        orderBy: [sort.startsWith('-') ? desc(column) : asc(column), asc(exposure.id)],
        page,
        path: `${CLAIMS_BASE}/exposures/`,
        query,
      });
      return serializeDocument(resource, await hydrateExposures(db, rows), { links, meta });
    },
  );

  router.post(
    '/exposures/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'create') },
      schema: {
        summary:
          'Adds an exposure to a claim (relationship claim required); it is numbered after the claim’s others and starts open.',
        tags,
        security,
        body: resourceDocument('exposure', exposureAttributes, { relationships: exposureRelationships }),
      },
    },
    async (request, reply) => {
      const data = request.body.data;
      const attributes: Attributes = data.attributes ?? {};
      const relationships = (data.relationships ?? {}) as Relationships;
      if (!relationships.claim) {
        throw new ApiError(400, 'This field is required.', { source: { pointer: '/data/relationships/claim' } });
      }
      if (attributes.status !== undefined && attributes.status !== 'open') {
        throw attributeError('status', 'A new exposure starts open.');
      }
      const claimNotFoundHere = () => {
        throw new ApiError(400, `Claim ${relationships.claim!.data.id} not found.`, {
          source: { pointer: '/data/relationships/claim/data/id' },
        });
      };
      await loadClaimFor(context, request, db, relationships.claim.data.id, 'update').catch(claimNotFoundHere);
      if (attributes.adjuster) await requireClaimsUser(context, attributes.adjuster, '/data/attributes/adjuster');
      const created = await db.transaction(async (tx) => {
        const owner = await loadClaimFor(context, request, tx, relationships.claim!.data.id, 'update', {
          lock: true,
        }).catch(() => {
          throw new ApiError(400, `Claim ${relationships.claim!.data.id} not found.`, {
            source: { pointer: '/data/relationships/claim/data/id' },
          });
        });
        if (owner.status === 'closed') {
          throw new ApiError(409, `Claim ${owner.number} is closed; reopen it to add an exposure.`);
        }
        const v = values(attributes, relationships);
        await checkParty(tx, owner.id, v.partyId);
        const { label, ...covered } = await coverageValues(tx, owner, attributes);
        Object.assign(v, covered);
        // Named after its coverage when no name is given (as FNOL names the exposures it makes).
        if (!v.exposureName && label) v.exposureName = label;
        const [{ next }] = (
          await tx.execute<{ next: number }>(
            sql`select coalesce(max(number), 0)::int + 1 as next from claims.exposure where claim_id = ${owner.id}`,
          )
        ).rows as [{ next: number }];
        const [row] = await tx
          .insert(exposure)
          .values({ ...v, claimId: owner.id, number: Number(next), status: 'open' })
          .returning();
        if (relationships.tags)
          await replaceTags(
            tx,
            row!.id,
            relationships.tags.data.map((t) => t.id),
            '/data/relationships/tags',
          );
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'create',
          entityType: 'exposure',
          entityId: row!.id,
          claimId: owner.id,
          after: row,
          toStatus: 'open',
        });
        return row!;
      });
      reply.status(201);
      return answer(reply, created);
    },
  );

  router.get(
    '/exposures/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'read') },
      schema: { summary: 'One exposure, with its ETag for If-Match.', tags, security, params: idParams },
    },
    async (request, reply) => answer(reply, (await loadFor(request, db, request.params.id, 'read')).row),
  );

  router.patch(
    '/exposures/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'update') },
      schema: {
        summary: 'Changes an exposure. If-Match with the ETag read (stale: 412); status moves follow claims/statuses/.',
        tags,
        security,
        params: idParams,
        body: resourceDocument('exposure', exposureAttributes, {
          id: 'required',
          relationships: exposureRelationships,
        }),
      },
    },
    async (request, reply) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const attributes: Attributes = request.body.data.attributes ?? {};
      const relationships = (request.body.data.relationships ?? {}) as Relationships;
      if (relationships.claim) {
        throw new ApiError(400, 'An exposure cannot move to another claim.', {
          source: { pointer: '/data/relationships/claim' },
        });
      }
      const before = await loadFor(request, db, request.params.id, 'update');
      // The exposure's adjuster is a claims user (claims-users.ts), asked before the transaction opens.
      if (attributes.adjuster && attributes.adjuster !== before.row.adjuster)
        await requireClaimsUser(context, attributes.adjuster, '/data/attributes/adjuster');
      const updated = await db.transaction(async (tx) => {
        const { row: current, owner } = await loadFor(request, tx, request.params.id, 'update', true);
        checkIfMatch(request, etagOf(current, 'exposure'), 'exposure');
        const v = values(attributes, relationships);
        await checkParty(tx, current.claimId, v.partyId);
        const { label: _label, ...covered } = await coverageValues(tx, owner, attributes, current);
        Object.assign(v, covered);
        const to = attributes.status;
        const moving = to !== undefined && to !== current.status;
        if (moving) {
          assertTransition('exposure', current.status, to, attributes.status_change_reason ?? null);
          v.status = to;
        }
        const [row] = await tx
          .update(exposure)
          .set({ ...v, version: sql`${exposure.version} + 1`, updatedAt: new Date() })
          .where(and(eq(exposure.id, current.id), eq(exposure.version, current.version)))
          .returning();
        if (!row)
          throw new ApiError(
            412,
            'The exposure was changed by someone else since you read it. Reload it and try again.',
          );
        if (relationships.tags)
          await replaceTags(
            tx,
            row.id,
            relationships.tags.data.map((t) => t.id),
            '/data/relationships/tags',
          );
        await writeAudit(tx, {
          username: callerOf(request),
          action: moving ? 'status' : 'update',
          entityType: 'exposure',
          entityId: row.id,
          claimId: row.claimId,
          fromStatus: moving ? current.status : null,
          toStatus: moving ? row.status : null,
          reason: moving ? row.statusChangeReason : null,
          before: current,
          after: row,
        });
        return row;
      });
      return answer(reply, updated);
    },
  );

  router.delete(
    '/exposures/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('exposure', 'delete') },
      schema: {
        summary: 'Deletes an exposure of an FNOL draft (submitted claims close exposures instead).',
        tags,
        security,
        params: idParams,
      },
    },
    async (request, reply) => {
      await loadFor(request, db, request.params.id, 'delete');
      await db.transaction(async (tx) => {
        const { row, owner } = await loadFor(request, tx, request.params.id, 'delete', true);
        if (owner.status !== 'draft') {
          throw new ApiError(409, `Exposure ${row.number} belongs to a submitted claim; close it instead.`);
        }
        await tx.delete(exposure).where(eq(exposure.id, row.id));
        await writeAudit(tx, {
          username: callerOf(request),
          action: 'delete',
          entityType: 'exposure',
          entityId: row.id,
          claimId: row.claimId,
          before: row,
        });
      });
      return reply.status(204).send();
    },
  );

  for (const path of ['/exposures/:id/relationships/tags', '/exposures/:id/relationships/tags/']) {
    router.patch(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('exposure', 'update') },
        schema: {
          summary: "Replaces the exposure's tags (tag ids).",
          tags,
          security,
          params: idParams,
          body: toManyRelationship('tag'),
        },
      },
      async (request) => {
        await loadFor(request, db, request.params.id, 'update');
        const tagIds = await db.transaction(async (tx) => {
          const { row } = await loadFor(request, tx, request.params.id, 'update', true);
          const before = (await hydrateExposures(tx, [row]))[0]!.tagIds;
          const result = await replaceTags(
            tx,
            row.id,
            request.body.data.map((t) => t.id),
            '/data',
          );
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'tags',
            entityType: 'exposure',
            entityId: row.id,
            claimId: row.claimId,
            before: { tags: before },
            after: { tags: result.map(String) },
          });
          return result;
        });
        return { jsonapi: { version: '1.1' }, data: tagIds.map((id) => ({ type: 'tag', id: String(id) })) };
      },
    );
  }
}
