import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { pageQuerySchema, z, type PageRequest, type Queryable } from '@atrium/sdk/server';
import type { ClaimRow, LocationRow } from './claim-resource.js';
import { JSONAPI_PAGE_SIZE } from './http-kit.js';
import { filterShape, filterValue } from './query-filters.js';
import { claim, location } from './tables.js';

/**
 * The claim list query (`GET /claims/`): the spec's filters, the sort, the page and its total.
 * Kept apart from the route so that the P2 benchmark and record-level access filters
 * (`accessFilter`) go through the very same statements the route sends.
 */
const listFilters = {
  numbers: z.string().max(5000).optional(),
  number: z.string().max(100).optional(),
  claim_number: z.string().max(100).optional(),
  status: z.string().max(200).optional(),
  has_adjuster: z.enum(['true', 'false']).optional(),
  primary_adjuster: z.string().max(200).optional(),
  policy_number: z.string().max(100).optional(),
  loss_city: z.string().max(100).optional(),
  loss_state: z.string().max(50).optional(),
  loss_zip: z.string().max(20).optional(),
};
const sortable = {
  id: claim.id,
  number: claim.number,
  date_of_loss: claim.dateOfLoss,
  reported_date: claim.reportedDate,
};
export const CLAIM_SORTS = [
  'id',
  '-id',
  'number',
  '-number',
  'date_of_loss',
  '-date_of_loss',
  'reported_date',
  '-reported_date',
] as const;
export type ClaimSort = (typeof CLAIM_SORTS)[number];

export const claimListQuery = z.strictObject({
  ...pageQuerySchema(JSONAPI_PAGE_SIZE),
  ...filterShape(listFilters),
  include: z.string().max(200).optional(),
  sort: z.enum(CLAIM_SORTS).optional(),
});

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The WHERE of the claim list for the given filters. */
export function claimListConditions(query: Record<string, unknown>): {
  where: SQL | undefined;
  joinsLocation: boolean;
  /** The conditions on the loss location alone (already part of `where`). */
  locationWhere: SQL | undefined;
} {
  const f = <T = string>(name: string) => filterValue<T>(query, name);
  const conditions: SQL[] = [];
  if (f('numbers')) conditions.push(inArray(claim.number, list(f('numbers')!)));
  if (f('number')) conditions.push(ilike(claim.number, `%${escapeLike(f('number')!)}%`));
  if (f('claim_number')) conditions.push(eq(claim.number, f('claim_number')!));
  if (f('status')) conditions.push(inArray(claim.status, list(f('status')!)));
  if (f('has_adjuster') === 'true') conditions.push(isNotNull(claim.primaryAdjuster));
  if (f('has_adjuster') === 'false') conditions.push(isNull(claim.primaryAdjuster));
  if (f('primary_adjuster')) conditions.push(eq(claim.primaryAdjuster, f('primary_adjuster')!));
  if (f('policy_number')) conditions.push(eq(claim.policyNumber, f('policy_number')!));
  const onLocation: SQL[] = [];
  if (f('loss_city')) onLocation.push(sql`lower(${location.city}) = lower(${f('loss_city')!})`);
  if (f('loss_state')) onLocation.push(sql`upper(${location.state}) = upper(${f('loss_state')!})`);
  if (f('loss_zip')) onLocation.push(eq(location.zip, f('loss_zip')!));
  conditions.push(...onLocation);
  return {
    where: conditions.length ? and(...conditions) : undefined,
    joinsLocation: onLocation.length > 0,
    locationWhere: onLocation.length ? and(...onLocation) : undefined,
  };
}

export interface ClaimListOptions {
  /** The validated query string (plain or filter[…] filters). */
  query: Record<string, unknown>;
  page: PageRequest;
  sort?: ClaimSort;
  /** An extra condition ANDed into both the count and the page (record-level access). */
  accessFilter?: SQL;
}

/**
 * One page of claims and the exact total that match. The page statement brings each claim's loss
 * location along (a left join: with an index on the filtered columns PostgreSQL walks the claims
 * newest first and probes each location, a nested loop that stops after one page); hand `locations`
 * to `hydrateClaims` so that it does not read them again. The count runs only when the page does not
 * already tell the total (a page that is not full, or an empty first page, ends the list), so a
 * search that finds a handful of claims is a single statement.
 */
export async function listClaims(
  db: Queryable,
  { query, page, sort = '-id', accessFilter }: ClaimListOptions,
): Promise<{ rows: ClaimRow[]; locations: LocationRow[]; total: number }> {
  const conditions = claimListConditions(query);
  const where = accessFilter ? and(conditions.where, accessFilter) : conditions.where;
  const column = sortable[sort.replace('-', '') as keyof typeof sortable];
  const order = sort.startsWith('-') ? desc(column) : asc(column);
  const found = await db
    .select()
    .from(claim)
    .leftJoin(location, eq(location.id, claim.lossLocationId))
    .where(where)
    .orderBy(order, desc(claim.id))
    .limit(page.size)
    .offset(page.offset);
  const rows = found.map((r) => r.claim);
  const locations = found.flatMap((r) => (r.location ? [r.location] : []));
  const counted = (total: number) => ({ rows, locations, total });
  if (rows.length > 0 && rows.length < page.size) return counted(page.offset + rows.length);
  if (rows.length === 0 && page.offset === 0) return counted(0);
  if (conditions.locationWhere) {
    // Filtered on the location: count, for each matching location (from its index), its claims that
    // pass every condition. A join here made PostgreSQL hash all 100,000 claims (P2); the correlated
    // count probes claim_loss_location_idx once per location instead, about twice as fast.
    const ofLocation = db
      .select({ n: count() })
      .from(claim)
      .where(and(eq(claim.lossLocationId, location.id), where));
    const [total] = await db
      .select({ n: sql<number>`coalesce(sum(${ofLocation}), 0)`.mapWith(Number) })
      .from(location)
      .where(conditions.locationWhere);
    return counted(total?.n ?? 0);
  }
  const [total] = await db.select({ n: count() }).from(claim).where(where);
  return counted(total?.n ?? 0);
}
