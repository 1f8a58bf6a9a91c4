import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  pageOfRows,
  declareResource,
  defineResource,
  defineResourceShape,
  registerResource,
  pageQuerySchema,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { CLAIMS_BASE, JSONAPI_PAGE_SIZE, security, tags } from './http-kit.js';
import { claimScope } from './claim-scope.js';
import { filterShape, filterValue } from './query-filters.js';
import { auditLog, exposure, party } from './tables.js';

/** The audit log (read only) and the summary claimants of a claim (parties with role claimant). */
const auditLogShape = defineResourceShape({
  type: 'audit-log',
  path: '/claims/audit-log/',
  style: 'jsonapi',
  readOnlyResource: true,
  attributes: {},
  filters: {
    claim_id: { kind: 'integer', aliases: ['filter[claim]'] },
    entity_type: { kind: 'text', schema: z.string().max(50).optional(), blankIsAbsent: true },
    entity_id: { kind: 'text', schema: z.string().max(50).optional(), blankIsAbsent: true },
    username: { kind: 'text', schema: z.string().max(200).optional(), blankIsAbsent: true },
  },
  orderings: ['-id'],
});

/**
 * The spec gives the audit log a list only (no find). Entries about claims the caller cannot read are
 * left out; entries about no claim stay.
 */
const auditLogDeclaration = declareResource({
  shape: auditLogShape,
  table: auditLog,
  permission: { resource: claimsPermission('audit-log', 'read').resource },
  without: ['find'],
  scope: (call) => claimScope(call.context, call.request, auditLog.claimId, { nullable: true }),
  selfLinks: false,
  omitEmptyRelationships: true,
  present: (row) => ({
    at: row.at,
    username: row.username,
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId,
    claim_id: row.claimId,
    from_status: row.fromStatus,
    to_status: row.toStatus,
    reason: row.reason,
    before: row.before,
    after: row.after,
  }),
  openapi: {
    summary: 'audit log entries',
    tags,
    security,
    summaries: {
      list:
        'The audit log of every claims write, newest first by default; filter by claim_id, entity_type, entity_id, username. ' +
        'Entries about a claim are listed only when the caller may read that claim.',
    },
  },
});

// Summary claimants stay hand-written: they are computed from parties and exposures, not rows of one table.
export function auditRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  registerResource(router, context, auditLogDeclaration);

  router.get(
    '/summary-claimants/',
    {
      config: { jsonapi: true, access: claimsPermission('party', 'read') },
      schema: {
        summary: "A claim's claimants with the numbers of their exposures (exposures grouped by claimant).",
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(JSONAPI_PAGE_SIZE),
          ...filterShape({ claim_id: z.coerce.number().int().min(1).max(2147483647).optional() }),
        }),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown> & { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const claimId = filterValue<number>(query, 'claim_id');
      const where = and(
        eq(party.role, 'claimant'),
        claimId ? eq(party.claimId, claimId) : undefined,
        await claimScope(context, request, party.claimId),
      );
      const { rows, links, meta } = await pageOfRows(db, party, {
        where,
        orderBy: [asc(party.claimId), asc(party.displayNumber)],
        page,
        path: `${CLAIMS_BASE}/summary-claimants/`,
        query,
      });
      const exposures = rows.length
        ? await db
            .select({
              partyId: exposure.partyId,
              id: exposure.id,
              number: exposure.number,
              status: exposure.status,
              name: exposure.exposureName,
            })
            .from(exposure)
            .where(
              inArray(
                exposure.partyId,
                rows.map((r) => r.id),
              ),
            )
            .orderBy(asc(exposure.number))
        : [];
      const withExposures = rows.map((row) => ({ ...row, exposures: exposures.filter((e) => e.partyId === row.id) }));
      return { ...(await serializeDocument(summaryResource, withExposures)), links, meta };
    },
  );
}

type SummaryRow = typeof party.$inferSelect & {
  exposures: { id: number; number: number; status: string; name: string }[];
};
const summaryResource = defineResource<SummaryRow>({
  type: 'summary-claimant',
  id: (row) => String(row.id),
  attributes: (row) => ({
    display_number: row.displayNumber,
    name: row.name,
    claim_id: row.claimId,
    exposures: row.exposures.map((e) => ({ id: e.id, number: e.number, status: e.status, exposure_name: e.name })),
  }),
});
