import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ApiError, badRequest, notFound, type ProblemSource, type Queryable } from '@atrium/sdk/server';
import type { KeyCell } from '@atrium/rating';
import type { InheritanceStatus, KeyColumn as StoredKeyColumn } from '../../shared/definition-types.js';
import type { ResolvedDefinition } from '../catalog/resolve.js';
import { rateTable, rateTableRow } from '../tables.js';
import type { RateTableProblem } from './rate-table-problems.js';
import type { TableRow } from './rate-table-shape.js';
import { validateRateTable } from './rate-table-validation.js';

export type RateTableDb = typeof rateTable.$inferSelect;

/** A rate table as the version sees it: the row, whose product owns it, and its status there. */
export interface VisibleTable {
  row: RateTableDb;
  inheritanceStatus: InheritanceStatus;
  productId: number;
  riskTypeName: string | null;
}

/** A live table the version sees, or one of its own deleted tables; 404 otherwise. */
export async function visibleTable(
  db: Queryable,
  definition: ResolvedDefinition,
  tableId: number,
): Promise<VisibleTable> {
  const live = definition.rateTables.find((t) => t.row.id === tableId);
  if (live) return live;
  const versionId = definition.chain[0]!.id;
  const [row] = await db.select().from(rateTable).where(eq(rateTable.id, tableId)).limit(1);
  if (row && row.productVersionId === versionId && row.deletedAt !== null) {
    return {
      row,
      inheritanceStatus: 'own',
      productId: definition.chain[0]!.productId,
      riskTypeName: row.riskTypeId === null ? null : (definition.riskTypeRowsById.get(row.riskTypeId)?.name ?? null),
    };
  }
  throw notFound(`Rate table ${tableId} not found in version ${versionId}.`);
}

/** A table this very version owns (only those can be changed here). */
export async function ownTable(db: Queryable, definition: ResolvedDefinition, tableId: number): Promise<VisibleTable> {
  const table = await visibleTable(db, definition, tableId);
  const version = definition.chain[0]!;
  if (table.row.productVersionId !== version.id) {
    const owner = definition.chain.find((v) => v.id === table.row.productVersionId);
    throw badRequest(
      `Rate table '${table.row.name}' is inherited from ${owner?.productName ?? 'a parent product'}; change it there, or create a rate table named '${table.row.name}' in this version to override it.`,
      { code: 'inherited' },
    );
  }
  return table;
}

export async function readRows(db: Queryable, tableId: number): Promise<TableRow[]> {
  const rows = await db
    .select({ keys: rateTableRow.keys, value: rateTableRow.value })
    .from(rateTableRow)
    .where(and(eq(rateTableRow.rateTableId, tableId), isNull(rateTableRow.deletedAt)))
    .orderBy(asc(rateTableRow.rowOrder), asc(rateTableRow.id));
  return rows.map((r) => ({ keys: r.keys as Record<string, KeyCell>, value: r.value }));
}

export async function countRows(db: Queryable, tableIds: number[]): Promise<Map<number, number>> {
  if (tableIds.length === 0) return new Map();
  const rows = await db
    .select({ id: rateTableRow.rateTableId, n: sql<number>`count(*)::int` })
    .from(rateTableRow)
    .where(and(inArray(rateTableRow.rateTableId, tableIds), isNull(rateTableRow.deletedAt)))
    .groupBy(rateTableRow.rateTableId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Replaces every row of a table (inside the caller's transaction). */
export async function replaceRows(tx: Queryable, tableId: number, rows: TableRow[]): Promise<void> {
  await tx.delete(rateTableRow).where(eq(rateTableRow.rateTableId, tableId));
  const CHUNK = 1000;
  for (let start = 0; start < rows.length; start += CHUNK) {
    await tx.insert(rateTableRow).values(
      rows.slice(start, start + CHUNK).map((row, i) => ({
        rateTableId: tableId,
        keys: row.keys as Record<string, string | { from: string | null; to: string | null }>,
        value: row.value,
        rowOrder: start + i,
      })),
    );
  }
}

/** Key cells as stored: numbers as decimal text, ranges as { from, to } of text or null. */
export function normalizeRows(rows: { keys: Record<string, unknown>; value: string | number }[]): TableRow[] {
  const text = (v: unknown) => (typeof v === 'number' ? String(v) : (v as string));
  return rows.map((row) => {
    const keys: Record<string, KeyCell> = {};
    for (const [name, cell] of Object.entries(row.keys)) {
      if (typeof cell === 'object' && cell !== null) {
        const range = cell as { from: unknown; to: unknown };
        keys[name] = {
          from: range.from === null ? null : text(range.from),
          to: range.to === null ? null : text(range.to),
        };
      } else keys[name] = typeof cell === 'number' ? String(cell) : (cell as string | boolean);
    }
    return { keys, value: typeof row.value === 'number' ? String(row.value) : row.value.trim() };
  });
}

export type ValidityState = 'valid' | 'invalid' | 'empty';

export function validityOf(table: RateTableDb, rows: TableRow[]): { state: ValidityState; problems: string[] } {
  const problems = validateRateTable(shapeOf(table), rows).map((p) => p.message);
  return { state: problems.length > 0 ? 'invalid' : rows.length === 0 ? 'empty' : 'valid', problems };
}

export function shapeOf(table: Pick<RateTableDb, 'name' | 'keyColumns' | 'interpolate' | 'defaultValue'>) {
  return {
    name: table.name,
    keys: table.keyColumns.map((k) => ({ name: k.name, match: k.match })),
    interpolate: table.interpolate,
    default: table.defaultValue,
  };
}

/** The JSON of a table. `rows` only in the detail answer. */
export function tableOut(
  table: VisibleTable,
  rows: TableRow[] | null,
  rowsCount: number,
  validity: { state: ValidityState; problems: string[] } | null,
) {
  const { row } = table;
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    product: table.productId,
    product_id: table.productId,
    product_version_id: row.productVersionId,
    risk_type_id: row.riskTypeId,
    risk_type: table.riskTypeName,
    key_columns: row.keyColumns as StoredKeyColumn[],
    interpolate: row.interpolate,
    default: row.defaultValue,
    order: row.order,
    rowsCount,
    validityState: validity?.state ?? (rowsCount === 0 ? 'empty' : 'valid'),
    problems: validity?.problems ?? [],
    inheritanceStatus: table.inheritanceStatus,
    deleted_at: row.deletedAt ? row.deletedAt.toISOString() : null,
    ...(rows ? { rows } : {}),
  };
}

/**
 * A 400 listing every problem of a table, each issue pointing at its cell: into `rows` of a JSON
 * body, or at the pasted text / uploaded file.
 */
export function rateTableProblemsError(
  name: string,
  problems: RateTableProblem[],
  sourceOf: (problem: RateTableProblem) => ProblemSource | undefined,
): ApiError {
  const shown = problems.slice(0, 5).map((p) => p.message);
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  return new ApiError(400, `Rate table '${name}' has ${problems.length} problem(s): ${shown.join('; ')}${more}`, {
    code: 'invalid_rate_table',
    issues: problems.slice(0, 100).map((p) => ({
      detail: p.message,
      source: sourceOf(p),
      code: 'invalid_rate_table',
    })),
    meta: { problems: problems.slice(0, 100) },
  });
}

/** Pointer of a problem in a JSON body's `rows` (row numbers there are 1-based positions). */
export function rowsPointer(problem: RateTableProblem): ProblemSource {
  if (problem.row === undefined) {
    if (problem.column === 'default') return { pointer: '/default' };
    if (problem.column !== undefined) return { pointer: '/key_columns' };
    return { pointer: '/rows' };
  }
  const base = `/rows/${problem.row - 1}`;
  if (problem.column === undefined) return { pointer: base };
  if (problem.column === 'value') return { pointer: `${base}/value` };
  return { pointer: `${base}/keys/${problem.column.replace(/~/g, '~0').replace(/\//g, '~1')}` };
}
