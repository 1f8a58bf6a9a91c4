import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './define-server-plugin.js';
import type { ResourceAuditEntry } from './resource/declare.js';

/**
 * One audit mechanism for every module (docs/plugins.md, "Audit"): each module keeps its own audit
 * table (one owner per table), and writes it through `defineAuditLog(table)` — in the caller's
 * transaction, so an entry exists exactly when its write committed. The same log gives a declared
 * resource its `audit` (`log.forResource()`), so hand-written routes and declared resources write
 * the same rows.
 */
export interface AuditRecord {
  /** Who did it (the caller's user name, `system` for jobs). */
  username: string;
  action: string;
  entityType: string;
  entityId: string | number;
  /** The record before and after, kept in their JSON form (Dates as ISO strings). */
  before?: unknown;
  after?: unknown;
}

export interface AuditLog<E extends AuditRecord = AuditRecord> {
  /** Writes one entry in `tx`, the write's own transaction. */
  write(tx: Queryable, entry: E): Promise<void>;
  /**
   * A declared resource's `audit`: the caller, the action, the resource type and URL id, the row
   * before and after; `map` names other values or adds the module's own columns.
   */
  forResource(
    map?: (entry: ResourceAuditEntry) => Partial<E>,
  ): (tx: Queryable, entry: ResourceAuditEntry) => Promise<void>;
}

export interface AuditLogOptions {
  /** Keys left out of `before`/`after` wherever they occur (file bytes: `['content']`). */
  omit?: readonly string[];
}

/**
 * The audit log kept in `table`. The table has text columns `username`, `action`, `entity_type` and
 * `entity_id` (Drizzle keys `username`, `action`, `entityType`, `entityId`); `before`/`after` (jsonb)
 * and any other column are optional: an entry's keys that name one of the table's columns are written,
 * the rest are not (a log without `before` keeps who did what to which record only).
 */
export function defineAuditLog<E extends AuditRecord = AuditRecord>(
  table: PgTable,
  options: AuditLogOptions = {},
): AuditLog<E> {
  const columns = new Set(Object.keys(getTableColumns(table)));
  for (const required of ['username', 'action', 'entityType', 'entityId']) {
    if (!columns.has(required)) throw new Error(`An audit log table needs a column '${required}'.`);
  }
  const omit = new Set(options.omit ?? []);
  const toJson = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value, (key, v: unknown) => (omit.has(key) ? undefined : v)));

  const write = async (tx: Queryable, entry: E) => {
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry)) {
      if (!columns.has(key) || value === undefined) continue;
      values[key] = key === 'before' || key === 'after' ? toJson(value) : value;
    }
    values.entityId = String(entry.entityId);
    await tx.insert(table).values(values as never);
  };

  return {
    write,
    forResource: (map) => (tx, entry) =>
      write(tx, {
        username: entry.request.principal?.username ?? 'system',
        action: entry.action,
        entityType: entry.type,
        entityId: entry.id,
        before: entry.before,
        after: entry.after,
        ...map?.(entry),
      } as E),
  };
}
