import { and, asc, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  pageQuerySchema,
  paginationLinks,
  z,
  type PageRequest,
  type PaginationLinks,
  type Queryable,
} from '@atrium/sdk/server';
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
  /** "My claims": the user's as primary adjuster, or filed (FNOL created or submitted) by the user. */
  adjuster_or_filer: z.string().max(200).optional(),
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

/** The sorts a keyset cursor (`page[after]`) can follow: their columns are never null. */
const CURSOR_SORTS: readonly ClaimSort[] = ['id', '-id', 'number', '-number'];

export const claimListQuery = z.strictObject({
  ...pageQuerySchema(JSONAPI_PAGE_SIZE),
  /** Keyset paging: the claims after this cursor (`meta.after` of the page before), in place of page[number]. */
  'page[after]': z.string().max(300).optional(),
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
  if (f('adjuster_or_filer')) {
    const user = f('adjuster_or_filer')!;
    conditions.push(or(eq(claim.primaryAdjuster, user), eq(claim.submittedBy, user), eq(claim.createdBy, user))!);
  }
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
  /** Keyset paging: only the claims after this position of the sort (page.offset is then ignored). */
  after?: ClaimCursor;
  /** Exact counts up to this many (EXACT_COUNT_LIMIT); tests lower it. */
  exactCountLimit?: number;
}

/** A position in the list: the sort column's value and the id of the last claim of a page. */
export interface ClaimCursor {
  value: string | number;
  id: number;
}

/**
 * Counts are exact up to this many claims; past it, `count_estimated` is set and the count is the
 * planner's estimate (never below this limit plus one). Counting every match of a filter that
 * keeps a third of a million claims would cost more than the page itself.
 */
export const EXACT_COUNT_LIMIT = 10_000;

const encodeCursor = (cursor: ClaimCursor) =>
  Buffer.from(JSON.stringify([cursor.value, cursor.id])).toString('base64url');

/** The cursor a client sent, checked: a 400 on page[after] when it is not one of ours or not for this sort. */
export function decodeCursor(token: string, sort: ClaimSort): ClaimCursor {
  const invalid = (detail: string) =>
    new ApiError(400, detail, { source: { parameter: 'page[after]' }, code: 'invalid_cursor' });
  if (!CURSOR_SORTS.includes(sort)) {
    throw invalid(`page[after] works with sort ${CURSOR_SORTS.join(', ')}; use page[number] for sort ${sort}.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const byNumber = sort.endsWith('number');
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    !Number.isSafeInteger(parsed[1]) ||
    (byNumber ? typeof parsed[0] !== 'string' : !Number.isSafeInteger(parsed[0]))
  ) {
    throw invalid('page[after] is not a cursor of this list: use meta.after of the page before.');
  }
  return { value: parsed[0] as string | number, id: parsed[1] as number };
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
  { query, page, sort = '-id', accessFilter, after, exactCountLimit = EXACT_COUNT_LIMIT }: ClaimListOptions,
): Promise<{ rows: ClaimRow[]; locations: LocationRow[]; total: number; totalIsEstimate: boolean }> {
  const conditions = claimListConditions(query);
  const where = accessFilter ? and(conditions.where, accessFilter) : conditions.where;
  const column = sortable[sort.replace('-', '') as keyof typeof sortable];
  const descending = sort.startsWith('-');
  const order = descending ? desc(column) : asc(column);
  // Keyset: (column, id) past the cursor in the order of the list — for -id just `id < $`, which
  // walks claim_pkey from there instead of skipping `offset` rows one by one.
  const past =
    after &&
    (column === claim.id
      ? (descending ? lt : gt)(claim.id, after.id)
      : descending
        ? sql`(${column}, ${claim.id}) < (${after.value}, ${after.id})`
        : sql`(${column}, ${claim.id}) > (${after.value}, ${after.id})`);
  const found = await db
    .select()
    .from(claim)
    .leftJoin(location, eq(location.id, claim.lossLocationId))
    .where(past ? and(where, past) : where)
    .orderBy(order, desc(claim.id))
    .limit(page.size)
    .offset(after ? 0 : page.offset);
  const rows = found.map((r) => r.claim);
  const locations = found.flatMap((r) => (r.location ? [r.location] : []));
  const counted = (total: number, totalIsEstimate = false) => ({ rows, locations, total, totalIsEstimate });
  if (!after && rows.length > 0 && rows.length < page.size) return counted(page.offset + rows.length);
  if (!after && rows.length === 0 && page.offset === 0) return counted(0);
  // The count stops at EXACT_COUNT_LIMIT + 1 matches: exact below, the planner's estimate above.
  // A builder per use: .limit() changes the builder it is called on.
  const matches = () =>
    db
      .select({ one: sql`1` })
      .from(claim)
      .leftJoin(location, eq(location.id, claim.lossLocationId))
      .where(where);
  const [capped] = await db.select({ n: count() }).from(
    matches()
      .limit(exactCountLimit + 1)
      .as('matches'),
  );
  const exact = capped?.n ?? 0;
  if (exact <= exactCountLimit) return counted(exact);
  const plan = await db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    sql`explain (format json) ${matches()}`,
  );
  const estimate = Math.round(plan.rows[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  return counted(Math.max(exact, estimate), true);
}

export interface ClaimListPage {
  rows: ClaimRow[];
  locations: LocationRow[];
  links: PaginationLinks;
  /**
   * `count` and `pages` as always; `count_estimated: true` when the count is the planner's
   * estimate (past EXACT_COUNT_LIMIT); with page[after] only, `after`: the cursor of the page's last
   * claim, to ask for the next page with (absent on the last page).
   */
  meta: { count: number; pages: number; count_estimated?: true; after?: string };
}

/**
 * The list route's page: page[number] (offset) or page[after] (keyset) with its links and meta.
 * With page[after] (empty for the first page), links.next is the keyset link for the next page and
 * meta.after its cursor; links.prev is null; first and last stay numbered. Without it, the answer is
 * the spec's, byte for byte, but for `count_estimated` past EXACT_COUNT_LIMIT.
 */
export async function listClaimsPage(
  db: Queryable,
  path: string,
  options: Omit<ClaimListOptions, 'after'> & { query: Record<string, unknown> },
): Promise<ClaimListPage> {
  const sort = options.sort ?? '-id';
  const token = options.query['page[after]'] as string | undefined;
  // `page[after]=` (empty) starts keyset paging at the top of the list.
  const keyset = token !== undefined;
  if (keyset && !CURSOR_SORTS.includes(sort)) decodeCursor(token, sort);
  const after = token ? decodeCursor(token, sort) : undefined;
  const page = keyset ? { ...options.page, number: 1, offset: 0 } : options.page;
  const { rows, locations, total, totalIsEstimate } = await listClaims(db, { ...options, page, after });
  const { 'page[after]': _after, ...numbered } = options.query;
  const { links, meta } = paginationLinks(path, numbered, page, total);
  const last = rows.at(-1);
  const cursor =
    keyset && last && rows.length === page.size
      ? encodeCursor({ value: sort.endsWith('number') ? last.number : last.id, id: last.id })
      : undefined;
  const extra: Pick<ClaimListPage['meta'], 'count_estimated' | 'after'> = {};
  if (totalIsEstimate) extra.count_estimated = true;
  if (cursor) extra.after = cursor;
  if (keyset) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(numbered)) {
      if (key !== 'page[number]' && value !== undefined) search.append(key, String(value));
    }
    links.self = `${path}?${new URLSearchParams({ ...Object.fromEntries(search), 'page[after]': token! }).toString()}`;
    links.prev = null;
    links.next = cursor
      ? `${path}?${new URLSearchParams({ ...Object.fromEntries(search), 'page[after]': cursor }).toString()}`
      : null;
  }
  return { rows, locations, links, meta: { ...meta, ...extra } };
}
