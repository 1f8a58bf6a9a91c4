import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { fieldError, notFound, type Database } from '@atrium/sdk/server';
import { riskField, riskItem } from '../tables.js';
import { chainIndex, riskTypeParams, riskTypeScope, type RiskTypeScope } from './definition-scope.js';
import type { FieldRow, ItemRow, Resolved, ResolvedDefinition } from './resolve.js';

/**
 * The rows a risk type holds in a product version — its fields and its items — live by the same
 * rules: each row belongs to one version; a child product's version inherits its ancestors' rows by
 * name, and changing an inherited row writes the child's own override; a deleted row keeps
 * `deleted_at` so that it can be restored. What their routes do alike is here: the version's deleted
 * rows, restore and reorder.
 * (Limits sit under an item and restore by kind and name; calculations and rate tables keep their
 * own rules: docs/lines-rate-tables.md.)
 */

type ChildRow = FieldRow | ItemRow;
// An insert into `kind.table` (fields or items) takes `as never`: TypeScript cannot pair the union of
// the two tables with the union of their values, though each kind pairs its own table and values.

export interface RiskTypeChildKind<Row extends ChildRow, Values extends object> {
  table: typeof riskField | typeof riskItem;
  /** Starts the messages that name one row by id or name: `Field 12`, `Item dwelling`. */
  noun: 'Field' | 'Item';
  /** The noun with its article, for `… is not a field of home` and `A field named …`. */
  aNoun: 'a field' | 'an item';
  /** The live rows the risk type shows in a version, inheritance applied, in order. */
  rowsOf(definition: ResolvedDefinition, riskTypeName: string): Resolved<Row>[];
  /** What a row holds apart from its version, risk type and bookkeeping: an override copies it. */
  valuesOf(row: Row): Values;
}

/** What an item holds apart from its version, risk type and bookkeeping (an override copies it). */
export const itemValues = (row: ItemRow) => ({
  name: row.name,
  label: row.label,
  presence: row.presence,
  type: row.type,
  fullyEarned: row.fullyEarned,
  order: row.order,
  premiumCalculation: row.premiumCalculation,
});

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The version's own deleted rows of the risk type, most recently deleted first (`?deleted=true`). */
export async function deletedChildRows<Row extends ChildRow, Values extends object>(
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
  scope: RiskTypeScope,
): Promise<Resolved<Row>[]> {
  const { table } = kind;
  const rows = (await db
    .select()
    .from(table)
    .where(
      and(
        eq(table.productVersionId, scope.version.id),
        eq(table.riskTypeId, scope.riskType.row.id),
        isNotNull(table.deletedAt),
      ),
    )
    .orderBy(desc(table.deletedAt))) as Row[];
  return rows.map((row) => ({ row, inheritanceStatus: 'own', productId: scope.product.id }));
}

/** Brings back a deleted row of this version, unless a live row of the risk type took its name since. */
export async function restoreChildRow<Row extends ChildRow, Values extends object>(
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
  scope: RiskTypeScope,
  rowId: number,
): Promise<void> {
  const { table, noun } = kind;
  const riskTypeName = scope.riskType.row.name;
  const [row] = (await db
    .select()
    .from(table)
    .where(and(eq(table.id, rowId), eq(table.productVersionId, scope.version.id)))) as Row[];
  if (!row || row.riskTypeId !== scope.riskType.row.id) {
    throw notFound(`${noun} ${rowId} not found on risk type ${riskTypeName}.`);
  }
  if (row.deletedAt === null) throw fieldError('id', `${noun} ${row.name} is not deleted.`);
  const clash = kind
    .rowsOf(scope.definition, riskTypeName)
    .find((r) => r.row.name.toLowerCase() === row.name.toLowerCase() && r.row.productVersionId === scope.version.id);
  if (clash) {
    throw fieldError(
      'name',
      `${capitalized(kind.aNoun)} named '${row.name}' exists again on ${riskTypeName}; rename it first.`,
    );
  }
  await db.update(table).set({ deletedAt: null, updatedAt: new Date() }).where(eq(table.id, row.id));
}

/**
 * Sets the rows' order (1, 2, …): the listed ids first, in the given order, the rest after them in
 * their order. A row whose place changes is updated, or overridden when inherited. One transaction.
 */
export async function reorderChildRows<Row extends ChildRow, Values extends object>(
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
  scope: RiskTypeScope,
  ids: number[],
): Promise<void> {
  const { table, noun, aNoun } = kind;
  const riskTypeName = scope.riskType.row.name;
  const rows = kind.rowsOf(scope.definition, riskTypeName);
  if (new Set(ids).size !== ids.length) throw fieldError('order', `${capitalized(aNoun)} is listed twice.`);
  for (const rowId of ids) {
    if (!rows.some((r) => r.row.id === rowId)) {
      throw fieldError('order', `${noun} ${rowId} is not ${aNoun} of ${riskTypeName}.`);
    }
  }
  const ordered = [
    ...ids.map((rowId) => rows.find((r) => r.row.id === rowId)!),
    ...rows.filter((r) => !ids.includes(r.row.id)),
  ];
  await db.transaction(async (tx) => {
    for (const [index, resolved] of ordered.entries()) {
      const order = index + 1;
      if (resolved.row.order === order) continue;
      if (chainIndex(scope, resolved.row.productVersionId) > 0) {
        await tx.insert(table).values({
          ...kind.valuesOf(resolved.row),
          order,
          productVersionId: scope.version.id,
          riskTypeId: scope.riskType.row.id,
        } as never);
      } else {
        await tx.update(table).set({ order, updatedAt: new Date() }).where(eq(table.id, resolved.row.id));
      }
    }
  });
}

/**
 * What a risk type's fields and items declare alike for their routes (definition-row-routes.ts): the
 * risk type's scope, its live rows, the name clash, where a new row goes, and soft delete with
 * `?deleted=true`, restore and reorder.
 */
export function riskTypeRows<Row extends ChildRow, Values extends object>(
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
) {
  return {
    params: riskTypeParams,
    table: kind.table,
    noun: kind.noun,
    scopeOf: (params: Record<string, unknown>, versionId: number | undefined) =>
      riskTypeScope(db, params.product as string, versionId, params.riskType as string),
    rowsOf: (scope: RiskTypeScope) => kind.rowsOf(scope.definition, scope.riskType.row.name),
    nameTaken: (scope: RiskTypeScope, name: string) =>
      `${capitalized(kind.aNoun)} named '${name}' already exists on ${scope.riskType.row.name}.`,
    placeOf: (scope: RiskTypeScope) => ({ productVersionId: scope.version.id, riskTypeId: scope.riskType.row.id }),
    soft: {
      deleted: (scope: RiskTypeScope) => deletedChildRows(db, kind, scope),
      restore: (scope: RiskTypeScope, rowId: number) => restoreChildRow(db, kind, scope, rowId),
      reorder: (scope: RiskTypeScope, ids: number[]) => reorderChildRows(db, kind, scope, ids),
    },
  };
}
