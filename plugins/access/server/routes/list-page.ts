import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import { ApiError, z } from '@atrium/sdk/server';

/**
 * The list conventions of the access service (the classic list API): `page` (from 1), `page_size`,
 * `ordering` (comma-separated field names, a leading '-' descends), `count` (accepted; the count is
 * always answered) and filters; answers `{ count, next, previous, results }` where next and previous
 * are this list's path with the page changed, or null.
 */
export const MAX_PAGE_SIZE = 10000;

export const pageQuery = (defaultPageSize: number) => ({
  count: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(defaultPageSize),
  ordering: z.string().max(200).optional(),
});

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface OrderField {
  field: string;
  descending: boolean;
}

/** Parses `ordering` against the fields a list may be ordered by; an unknown field is a 400. */
export function parseOrdering(value: string | undefined, allowed: readonly string[], fallback: string): OrderField[] {
  const parts = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const fields = (parts.length ? parts : [fallback]).map((part) => ({
    field: part.replace(/^-/, ''),
    descending: part.startsWith('-'),
  }));
  const unknown = fields.find((f) => !allowed.includes(f.field));
  if (unknown) {
    throw new ApiError(
      400,
      `Cannot order by '${unknown.field}'; choose from ${allowed.join(', ')} (prefix '-' to descend).`,
      {
        source: { parameter: 'ordering' },
        code: 'invalid_ordering',
      },
    );
  }
  return fields;
}

export function orderByColumns(
  fields: OrderField[],
  columns: Record<string, AnyColumn | SQL>,
  tieBreaker: AnyColumn,
): SQL[] {
  return [...fields.map((f) => (f.descending ? desc(columns[f.field]!) : asc(columns[f.field]!))), asc(tieBreaker)];
}

function pageLink(url: string, page: number): string {
  const parsed = new URL(url, 'http://atrium.invalid');
  parsed.searchParams.set('page', String(page));
  // `/x/` and `/x` are the same route (trailing-slash twins): the links name the registered one.
  return `${parsed.pathname.replace(/(.)\/+$/, '$1')}${parsed.search}`;
}

export function toPage<T>(
  url: string,
  query: { page: number; page_size: number },
  count: number,
  results: T[],
): Page<T> {
  const { page, page_size: size } = query;
  return {
    count,
    next: page * size < count ? pageLink(url, page + 1) : null,
    previous: page > 1 ? pageLink(url, Math.min(page - 1, Math.max(1, Math.ceil(count / size)))) : null,
    results,
  };
}

/** `%`, `_` and `\` in a user's filter text match themselves in ILIKE. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export const offsetOf = (query: { page: number; page_size: number }) => (query.page - 1) * query.page_size;
