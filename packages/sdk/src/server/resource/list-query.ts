import { z } from 'zod';
import { ApiError } from '../http-problem.js';
import { pageQuerySchema, type PageRequest } from '../jsonapi/pagination.js';
import {
  camelCase,
  defaultPageSize,
  filterNames,
  type FilterKind,
  orderingsOf,
  type ResourceShape,
} from '../../shared/resource-shape.js';

/**
 * The query string of a list: both paging forms (`page[number]`/`page[size]`, the JSON:API clients'
 * form, and the spec's `page`/`page_size`), filters under their plain name, `filter[name]` and their
 * aliases, one ordering (`sort` or `ordering`, a leading '-' descends), `include` and sparse
 * fieldsets (`fields[type]`). The keys keep the order the claims collections always had, so that
 * pagination links stay byte for byte what they were.
 */
const INT_MAX = 2147483647;

function filterSchema(kind: FilterKind) {
  if (kind === 'integer') return z.coerce.number().int().min(1).max(INT_MAX).optional();
  if (kind === 'boolean') return z.enum(['true', 'false']).optional();
  return z.string().max(200).optional();
}

export function orderingSchema(shape: ResourceShape) {
  const names = orderingsOf(shape).flatMap((name) => [name.replace(/^-/, ''), `-${name.replace(/^-/, '')}`]);
  return z.enum(names as [string, ...string[]]).optional();
}

/** Types whose fields a caller may narrow: the resource's own and its includable relationships'. */
export function listQuerySchema(shape: ResourceShape, options: { include: boolean; fieldTypes: string[] }) {
  const size = defaultPageSize(shape);
  const max = shape.maxPageSize ?? Math.max(size, 1000);
  const jsonapi = shape.style === 'jsonapi';
  const bracketPaging = pageQuerySchema(size, max);
  const plainPaging = {
    page: z.coerce.number().int().min(1).max(1_000_000),
    page_size: z.coerce.number().int().min(1).max(max),
  };
  const paging = shape.unpaged
    ? {}
    : jsonapi
      ? {
          ...bracketPaging,
          page: plainPaging.page.optional(),
          page_size: plainPaging.page_size.optional(),
        }
      : {
          count: z.enum(['true', 'false']).optional(),
          page: plainPaging.page.default(1),
          page_size: plainPaging.page_size.default(size),
          // Fresh schemas: a `.default()` stays in force under `.optional()`.
          'page[number]': z.coerce.number().int().min(1).optional(),
          'page[size]': z.coerce.number().int().min(1).max(max).optional(),
        };
  const filters: Record<string, z.ZodType> = {};
  for (const [name, filter] of Object.entries(shape.filters ?? {})) {
    for (const alias of filterNames(name, filter)) filters[alias] = filter.schema ?? filterSchema(filter.kind);
  }
  const order = jsonapi ? { sort: orderingSchema(shape) } : { ordering: orderingSchema(shape) };
  const extra: Record<string, z.ZodType> = {};
  if (options.include && jsonapi) extra.include = z.string().max(300).optional();
  if (jsonapi) for (const type of options.fieldTypes) extra[`fields[${type}]`] = z.string().max(1000).optional();
  return z.strictObject({ ...paging, ...filters, ...order, ...extra });
}

export type ListQuery = Record<string, unknown>;

/** The page asked for, whichever form named it; the other form's keys are dropped from `query`. */
export function pageOf(shape: ResourceShape, query: ListQuery): PageRequest {
  let number: number;
  let size: number;
  if (shape.style === 'jsonapi') {
    number = (query.page as number | undefined) ?? (query['page[number]'] as number);
    size = (query.page_size as number | undefined) ?? (query['page[size]'] as number);
    query['page[number]'] = number;
    query['page[size]'] = size;
    delete query.page;
    delete query.page_size;
  } else {
    number = (query['page[number]'] as number | undefined) ?? (query.page as number);
    size = (query['page[size]'] as number | undefined) ?? (query.page_size as number);
    query.page = number;
    query.page_size = size;
    delete query['page[number]'];
    delete query['page[size]'];
  }
  return { number, size, offset: (number - 1) * size };
}

/** The value of a filter under any of its names (undefined: not filtered). */
export function filterValue(shape: ResourceShape, query: ListQuery, name: string): unknown {
  const filter = shape.filters![name]!;
  for (const alias of filterNames(name, filter)) if (query[alias] !== undefined) return query[alias];
  return undefined;
}

export const filterColumn = (shape: ResourceShape, name: string) => shape.filters![name]!.column ?? camelCase(name);

/** `ordering`/`sort` → the ordering's name and direction (the first ordering when none is given). */
export function orderOf(shape: ResourceShape, query: ListQuery): { name: string; descending: boolean } {
  const value = (shape.style === 'jsonapi' ? query.sort : query.ordering) as string | undefined;
  const chosen = value ?? orderingsOf(shape)[0]!;
  return { name: chosen.replace(/^-/, ''), descending: chosen.startsWith('-') };
}

/** `fields[type]=a,b` of the query as sets (empty names are dropped). */
export function fieldsetsOf(query: ListQuery): Record<string, Set<string>> | undefined {
  const fields: Record<string, Set<string>> = {};
  for (const [key, value] of Object.entries(query)) {
    const match = /^fields\[(.+)\]$/.exec(key);
    if (!match || typeof value !== 'string') continue;
    fields[match[1]!] = new Set(
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    );
  }
  return Object.keys(fields).length ? fields : undefined;
}

/** A plain list's next/previous: the request's own URL with `page` changed (the access lists' form). */
export function plainPageLink(url: string, page: number): string {
  const parsed = new URL(url, 'http://atrium.invalid');
  parsed.searchParams.delete('page[number]');
  parsed.searchParams.set('page', String(page));
  return `${parsed.pathname}${parsed.search}`;
}

export const invalidId = (detail: string) => new ApiError(404, detail);
