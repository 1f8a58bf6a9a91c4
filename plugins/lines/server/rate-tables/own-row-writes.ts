import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { badRequest, fieldError, z, type Queryable } from '@atrium/sdk/server';
import { calculation, rateTable } from '../tables.js';
import { withUniqueCheck } from './route-scope.js';

/**
 * Rate tables and calculations are written only in the version that owns them (a child product
 * overrides an inherited one by creating its own of the same name), kept in an explicit order and
 * soft deleted. Their routes check names, order, delete and restore alike; this is that part, each
 * kind answering in its own words.
 */
export interface OwnRowKind {
  table: typeof rateTable | typeof calculation;
  noun: 'rate table' | 'calculation';
  plural: 'rate tables' | 'calculations';
  /** Where names are unique and what a reorder may list: the whole version, or the risk type. */
  of: 'this version' | 'this risk type';
}

/** The version, and the risk type row when names and order count per risk type (calculations). */
export interface OwnRowPlace {
  versionId: number;
  riskTypeRowId: number | null;
}

interface OwnRow {
  id: number;
  name: string;
  deletedAt: Date | null;
}

/** A row's name, which formulas use (rate tables are called by it, calculations read by it). */
export const ownRowName = (noun: OwnRowKind['noun'], use: 'read' | 'call') =>
  z
    .string()
    .trim()
    .min(1, `A ${noun} needs a name.`)
    .max(100)
    .regex(
      /^[A-Za-z_][A-Za-z0-9_]*$/,
      `A ${noun} name starts with a letter or '_' and holds only letters, digits and '_' (formulas ${use} it by name).`,
    );

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function inPlace(kind: OwnRowKind, place: OwnRowPlace) {
  return and(
    eq(kind.table.productVersionId, place.versionId),
    place.riskTypeRowId === null ? undefined : eq(kind.table.riskTypeId, place.riskTypeRowId),
  );
}

export const duplicateName = (kind: OwnRowKind, name: string) =>
  fieldError('name', `A ${kind.noun} named '${name}' already exists in ${kind.of}.`);

/** Is a live row of the place called `name` (case aside), other than `exceptId`? */
export async function nameTaken(db: Queryable, kind: OwnRowKind, place: OwnRowPlace, name: string, exceptId?: number) {
  const { table } = kind;
  const [found] = await db
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        inPlace(kind, place),
        isNull(table.deletedAt),
        sql`lower(${table.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(table.id, exceptId),
      ),
    )
    .limit(1);
  return !!found;
}

/** The order after the place's last row (0 for the first). */
export async function nextOrder(db: Queryable, kind: OwnRowKind, place: OwnRowPlace): Promise<number> {
  const [max] = await db
    .select({ n: sql<number>`coalesce(max(${kind.table.order}), -1)::int` })
    .from(kind.table)
    .where(inPlace(kind, place));
  return Number(max?.n ?? -1) + 1;
}

/**
 * Inserts a new row of the place: its name must be free there (a 400 on `name` otherwise, also when
 * a concurrent insert takes it first); without an `order` it goes after the place's last row.
 */
export async function insertOwnRow<T>(
  tx: Queryable,
  kind: OwnRowKind,
  place: OwnRowPlace,
  row: { name: string; order?: number },
  insert: (order: number) => Promise<T>,
): Promise<T> {
  if (await nameTaken(tx, kind, place, row.name)) throw duplicateName(kind, row.name);
  const order = row.order ?? (await nextOrder(tx, kind, place));
  return withUniqueCheck(
    () => insert(order),
    () => duplicateName(kind, row.name),
  );
}

/** Gives the listed rows the order 0, 1, …; each must be a live row of the place, listed once. */
export async function reorderOwnRows(tx: Queryable, kind: OwnRowKind, place: OwnRowPlace, ids: number[]) {
  const { table } = kind;
  if (new Set(ids).size !== ids.length) throw fieldError('order', `A ${kind.noun} is listed twice in order.`);
  const own = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(inPlace(kind, place), inArray(table.id, ids), isNull(table.deletedAt)));
  const known = new Set(own.map((r) => r.id));
  const unknown = ids.filter((x) => !known.has(x));
  if (unknown.length > 0) throw fieldError('order', `Not ${kind.plural} of ${kind.of}: ${unknown.join(', ')}.`);
  for (const [index, rowId] of ids.entries()) {
    await tx.update(table).set({ order: index, updatedAt: new Date() }).where(eq(table.id, rowId));
  }
}

/** A deleted row is changed only once restored. */
export function refuseDeleted(kind: OwnRowKind, row: OwnRow) {
  if (row.deletedAt) throw badRequest(`${capitalized(kind.noun)} '${row.name}' is deleted; restore it first.`);
}

export async function softDeleteOwnRow(tx: Queryable, kind: OwnRowKind, row: OwnRow) {
  if (row.deletedAt) throw badRequest(`${capitalized(kind.noun)} '${row.name}' is already deleted.`);
  await tx.update(kind.table).set({ deletedAt: new Date() }).where(eq(kind.table.id, row.id));
}

/** Brings a deleted row back, unless a live one of the place has taken its name since. */
export async function restoreOwnRow(tx: Queryable, kind: OwnRowKind, place: OwnRowPlace, row: OwnRow) {
  if (!row.deletedAt) throw badRequest(`${capitalized(kind.noun)} '${row.name}' is not deleted.`);
  if (await nameTaken(tx, kind, place, row.name, row.id)) {
    throw badRequest(
      `Another ${kind.noun} named '${row.name}' exists in ${kind.of}; rename or delete it before restoring this one.`,
    );
  }
  await withUniqueCheck(
    () => tx.update(kind.table).set({ deletedAt: null, updatedAt: new Date() }).where(eq(kind.table.id, row.id)),
    () => duplicateName(kind, row.name),
  );
}
