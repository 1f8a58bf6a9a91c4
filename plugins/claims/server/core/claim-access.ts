import type { FastifyRequest } from 'fastify';
import { eq, sql, type Column, type SQL } from 'drizzle-orm';
import {
  ApiError,
  recordFilterToSql,
  type Queryable,
  type RecordColumns,
  type RelatedRecordColumn,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { mayAccessRecord } from './http-kit.js';
import { claim, location, policyRevision } from './tables.js';
import type { ClaimRow } from './claim-resource.js';

/** The loss location as the access record carries it (null values when the claim has none). */
export interface ClaimLossLocation {
  state: string;
  city: string;
  zip: string;
}

/**
 * What the access evaluator sees of a claim (conditions may name record.status, record.primary_adjuster,
 * record.loss_state …). `claimAccessColumns` below must give every attribute here the same value in
 * SQL, so that lists filtered in the database show exactly the claims a single read allows.
 */
export function claimAccessRecord(
  row: ClaimRow,
  loss: ClaimLossLocation | null,
  producers: ClaimProducers | null = null,
): Record<string, unknown> {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    product_id: row.productId,
    primary_adjuster: row.primaryAdjuster,
    created_by: row.createdBy,
    loss_state: loss?.state ?? null,
    loss_city: loss?.city ?? null,
    loss_zip: loss?.zip ?? null,
    agent_contact_id: producers?.agentContactId ?? null,
    agency_contact_id: producers?.agencyContactId ?? null,
  };
}

/** Who wrote the claim's policy: the agent's and the agency's contact ids (null when unknown). */
export interface ClaimProducers {
  agentContactId: string | null;
  agencyContactId: string | null;
}

/** The producers of the claim's policy revision (one primary-key read; none without a revision). */
export async function loadClaimProducers(db: Queryable, row: ClaimRow): Promise<ClaimProducers | null> {
  if (row.policySource === 'policies') {
    return { agentContactId: row.policyAgentContactId, agencyContactId: row.policyAgencyContactId };
  }
  if (row.policyRevisionId === null) return null;
  const [found] = await db
    .select({ agentContactId: policyRevision.agentContactId, agencyContactId: policyRevision.agencyContactId })
    .from(policyRevision)
    .where(eq(policyRevision.id, row.policyRevisionId))
    .limit(1);
  return found ?? null;
}

/** The claim's loss location for its access record (one primary-key read; none without a location). */
export async function loadClaimLossLocation(db: Queryable, row: ClaimRow): Promise<ClaimLossLocation | null> {
  if (row.lossLocationId === null) return null;
  const [found] = await db
    .select({ state: location.state, city: location.city, zip: location.zip })
    .from(location)
    .where(eq(location.id, row.lossLocationId))
    .limit(1);
  return found ?? null;
}

/** The loss location's fields, reached from the claim's loss_location_id (semi-joins, see recordFilterToSql). */
const lossField = (column: Column): RelatedRecordColumn => ({
  related: { key: claim.lossLocationId, id: location.id, column },
});

/**
 * The policy's producer fields: copied onto a claim on a policies-module policy, else reached from
 * the claim's mock policy_revision_id (a policies claim has none, so the subquery reads nothing).
 */
const producerField = (copied: Column, column: Column): RecordColumns[string] => ({
  sql: sql`coalesce(${copied}, (select ${column} from ${policyRevision} where ${policyRevision.id} = ${claim.policyRevisionId}))`,
  type: 'string',
});

/** The attributes of claimAccessRecord as SQL over the `claim` table, for record filters on lists. */
export const claimAccessColumns: RecordColumns = {
  id: claim.id,
  number: claim.number,
  status: claim.status,
  product_id: claim.productId,
  primary_adjuster: claim.primaryAdjuster,
  created_by: claim.createdBy,
  loss_state: lossField(location.state),
  loss_city: lossField(location.city),
  loss_zip: lossField(location.zip),
  agent_contact_id: producerField(claim.policyAgentContactId, policyRevision.agentContactId),
  agency_contact_id: producerField(claim.policyAgencyContactId, policyRevision.agencyContactId),
};

/**
 * The condition on `claim` rows that keeps the claims the caller may `action` (record conditions of
 * their policies, decided in the database), for lists, their counts and their pages. undefined: every
 * claim (no record condition applies, or the evaluator cannot filter records); `false`: none.
 */
export async function claimAccessFilter(
  context: ServerPluginContext,
  request: FastifyRequest,
  action: 'read' | 'update' | 'delete' | 'assign' = 'read',
): Promise<SQL | undefined> {
  const evaluator = context.services.evaluator;
  if (!evaluator || !request.principal) return sql`false`;
  if (!evaluator.recordFilter) return undefined;
  const filter = await evaluator.recordFilter(request.principal, claimsPermission('claim', action));
  if (filter === true) return undefined;
  return recordFilterToSql(filter, claimAccessColumns);
}

export const claimNotFound = (n: string | number) => new ApiError(404, `Claim ${n} not found.`);

/**
 * Loads one claim by id for a caller and an action. A claim the caller may not act on is answered
 * exactly like a missing one (404), so that ids reveal nothing. `lock` takes the row for update.
 * Called with a transaction it only loads (and locks): check the record first with `context.db`.
 */
export async function loadClaimFor(
  context: ServerPluginContext,
  request: FastifyRequest,
  tx: Queryable,
  rawId: string | number,
  action: 'read' | 'update' | 'delete' | 'create' | 'assign',
  options: { lock?: boolean } = {},
): Promise<ClaimRow> {
  const id = typeof rawId === 'number' ? rawId : /^[1-9]\d{0,9}$/.test(rawId) ? Number(rawId) : 0;
  if (!id || id > 2147483647) throw claimNotFound(rawId);
  const query = tx.select().from(claim).where(eq(claim.id, id)).limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw claimNotFound(rawId);
  // Inside a transaction the record check is the caller's job, done with `context.db` before the
  // transaction opens: the evaluator may read the database, and on the embedded database (one
  // connection) a read beside an open transaction would wait for it forever.
  if (tx !== context.db) return row;
  const record = claimAccessRecord(row, await loadClaimLossLocation(tx, row), await loadClaimProducers(tx, row));
  if (!(await mayAccessRecord(context, request, claimsPermission('claim', action), record))) {
    throw claimNotFound(rawId);
  }
  return row;
}

/** If-Match against the current ETag: absent is accepted (last write wins), `*` matches, stale is 412. */
export function checkIfMatch(request: FastifyRequest, currentEtag: string, what: string): void {
  const header = request.headers['if-match'];
  if (header === undefined) return;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(currentEtag)) return;
  throw new ApiError(412, `The ${what} was changed by someone else since you read it. Reload it and try again.`, {
    source: { header: 'if-match' },
    code: 'stale_etag',
  });
}
