import { z } from 'zod';
import type { PaginationLinks } from './document.js';

/**
 * Page-based pagination with `page[number]` (1-based) and `page[size]`, as the claims and user
 * management clients send it. Links carry every other query parameter unchanged so that a client can
 * fetch all pages in parallel from `links.last` / `meta.pages`.
 */
export interface PageRequest {
  number: number;
  size: number;
  offset: number;
}

export function pageQuerySchema(defaultSize: number, maxSize = Math.max(defaultSize, 1000)) {
  return {
    'page[number]': z.coerce.number().int().min(1).default(1),
    'page[size]': z.coerce.number().int().min(1).max(maxSize).default(defaultSize),
  };
}

export function toPageRequest(query: { 'page[number]': number; 'page[size]': number }): PageRequest {
  const number = query['page[number]'];
  const size = query['page[size]'];
  return { number, size, offset: (number - 1) * size };
}

/** Builds self/first/prev/next/last links for a collection at `path` with the request's query. */
export function paginationLinks(
  path: string,
  query: Record<string, unknown>,
  page: PageRequest,
  total: number,
): { links: PaginationLinks; meta: { count: number; pages: number } } {
  const pages = Math.max(1, Math.ceil(total / page.size));
  const url = (number: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (key === 'page[number]' || key === 'page[size]' || value === undefined) continue;
      params.append(key, String(value));
    }
    params.set('page[number]', String(number));
    params.set('page[size]', String(page.size));
    return `${path}?${params.toString()}`;
  };
  return {
    links: {
      self: url(page.number),
      first: url(1),
      prev: page.number > 1 ? url(Math.min(page.number - 1, pages)) : null,
      next: page.number < pages ? url(page.number + 1) : null,
      last: url(pages),
    },
    meta: { count: total, pages },
  };
}
