import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { ApiError, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { mayAccessRecord } from './http-kit.js';
import { claim } from './tables.js';
import type { ClaimRow } from './claim-resource.js';

/** What the access evaluator sees of a claim (conditions may name record.status, record.primary_adjuster …). */
export function claimAccessRecord(row: ClaimRow): Record<string, unknown> {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    product_id: row.productId,
    primary_adjuster: row.primaryAdjuster,
    created_by: row.createdBy,
  };
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
  if (!(await mayAccessRecord(context, request, claimsPermission('claim', action), claimAccessRecord(row)))) {
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
