import { count, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './define-server-plugin.js';
import type { PaginationLinks } from './jsonapi/document.js';
import { paginationLinks, type PageRequest } from './jsonapi/pagination.js';

/**
 * One page of a table's rows with the paging links and meta of the JSON:API collection at `path`:
 * the two queries (how many rows in all, then the page) every hand-written paged list makes before it
 * serializes. `where` undefined: every row; `query` is the request's, carried into the links.
 */
export async function pageOfRows<T extends PgTable>(
  db: Queryable,
  table: T,
  options: {
    where?: SQL;
    orderBy: (SQL | PgColumn)[];
    page: PageRequest;
    path: string;
    query: Record<string, unknown>;
  },
): Promise<{ rows: InferSelectModel<T>[]; links: PaginationLinks; meta: { count: number; pages: number } }> {
  const [total] = await db
    .select({ n: count() })
    .from(table as PgTable)
    .where(options.where);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(options.where)
    .orderBy(...options.orderBy)
    .limit(options.page.size)
    .offset(options.page.offset);
  const { links, meta } = paginationLinks(options.path, options.query, options.page, total?.n ?? 0);
  return { rows: rows as InferSelectModel<T>[], links, meta };
}
