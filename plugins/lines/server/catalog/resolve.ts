import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { notFound, type Queryable } from '@atrium/sdk/server';
import type { InheritanceStatus } from '../../shared/definition-types.js';
import {
  calculation,
  itemLimit,
  product,
  productVersion,
  rateTable,
  rateTableRow,
  riskField,
  riskItem,
  riskType,
  sequence,
} from '../tables.js';

/**
 * Inheritance, resolved by name (see tables.ts and docs/lines.md): a version sees its own rows and
 * those of its parent product's version (and that one's parent), the nearest row of a name winning.
 */

export interface ChainVersion {
  id: number;
  productId: number;
  productName: string;
  number: number;
  label: string;
  status: 'draft' | 'published' | 'retired';
  effectiveDate: string;
  premiumRoundingPlaces: number;
  premiumRoundingMode: 'half-up' | 'half-even' | 'down' | 'up';
  parentVersionId: number | null;
}

/** The version and its ancestors' versions, nearest first ([own, parent's, grandparent's]). */
export async function versionChain(db: Queryable, versionId: number): Promise<ChainVersion[]> {
  const chain: ChainVersion[] = [];
  let next: number | null = versionId;
  while (next !== null && chain.length < 4) {
    const [row]: ChainVersion[] = await db
      .select({
        id: productVersion.id,
        productId: productVersion.productId,
        productName: product.name,
        number: productVersion.number,
        label: productVersion.label,
        status: productVersion.status,
        effectiveDate: productVersion.effectiveDate,
        premiumRoundingPlaces: productVersion.premiumRoundingPlaces,
        premiumRoundingMode: productVersion.premiumRoundingMode,
        parentVersionId: productVersion.parentVersionId,
      })
      .from(productVersion)
      .innerJoin(product, eq(product.id, productVersion.productId))
      .where(eq(productVersion.id, next))
      .limit(1);
    if (!row) {
      if (chain.length === 0) throw notFound(`Version ${versionId} not found.`);
      break;
    }
    chain.push(row);
    next = row.parentVersionId;
  }
  return chain;
}

export type RiskTypeRow = typeof riskType.$inferSelect;
export type FieldRow = typeof riskField.$inferSelect;
export type ItemRow = typeof riskItem.$inferSelect;
export type LimitRow = typeof itemLimit.$inferSelect;
export type CalculationRow = typeof calculation.$inferSelect;
export type RateTableDbRow = typeof rateTable.$inferSelect;
export type RateRowDbRow = typeof rateTableRow.$inferSelect;
export type SequenceRow = typeof sequence.$inferSelect;

export interface Resolved<T> {
  row: T;
  inheritanceStatus: InheritanceStatus;
  /** The product whose version owns the row. */
  productId: number;
}

export interface ResolvedRiskType extends Resolved<RiskTypeRow> {
  parentName: string | null;
  /** 1 for a root risk type. */
  depth: number;
}

export interface ResolvedCalculation extends Resolved<CalculationRow> {
  itemName: string | null;
}

export interface ResolvedRateTable extends Resolved<RateTableDbRow> {
  riskTypeName: string | null;
  rows: RateRowDbRow[];
}

export interface ResolvedDefinition {
  chain: ChainVersion[];
  /** Pre-order over the tree, siblings by sequence then name. */
  riskTypes: ResolvedRiskType[];
  /** Keyed by lower-cased risk type name; each list in `order`. */
  fields: Map<string, Resolved<FieldRow>[]>;
  items: Map<string, Resolved<ItemRow>[]>;
  /** Keyed by `${riskType}/${item}` lower-cased; ordered. */
  limits: Map<string, Resolved<LimitRow>[]>;
  calculations: Map<string, ResolvedCalculation[]>;
  rateTables: ResolvedRateTable[];
  sequences: Resolved<SequenceRow>[];
  /** Every risk type row of the chain by id (also overridden ones), to name what rows point at. */
  riskTypeRowsById: Map<number, RiskTypeRow>;
  itemRowsById: Map<number, ItemRow>;
  /** Every live field row of the chain by id (an ancestor's overridden row leads to its override by name). */
  fieldRowsById: Map<number, FieldRow>;
}

const lower = (value: string) => value.toLowerCase();
export const itemKey = (riskTypeName: string, itemName: string) => `${lower(riskTypeName)}/${lower(itemName)}`;

/** Picks the nearest row per key; `own`, `overridden` (own and an ancestor's) or `inherited`. */
function resolveByKey<T extends { productVersionId: number }>(
  rows: T[],
  key: (row: T) => string,
  chain: ChainVersion[],
): Resolved<T>[] {
  const index = new Map(chain.map((version, i) => [version.id, i]));
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  const out: Resolved<T>[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => index.get(a.productVersionId)! - index.get(b.productVersionId)!);
    const chosen = group[0]!;
    const at = index.get(chosen.productVersionId)!;
    const inheritanceStatus: InheritanceStatus = at > 0 ? 'inherited' : group.length > 1 ? 'overridden' : 'own';
    out.push({ row: chosen, inheritanceStatus, productId: chain[at]!.productId });
  }
  return out;
}

function groupBy<T>(values: T[], key: (value: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    const list = map.get(k);
    if (list) list.push(value);
    else map.set(k, [value]);
  }
  return map;
}

const byOrder = <T extends { row: { order: number; id: number } }>(a: T, b: T) =>
  a.row.order - b.row.order || a.row.id - b.row.id;

export interface ResolveOptions {
  /** Load rate table rows (default true). */
  rateRows?: boolean;
}

/** Resolves everything a version sees. One query per table over the whole chain. */
export async function resolveDefinition(
  db: Queryable,
  versionId: number,
  options: ResolveOptions = {},
): Promise<ResolvedDefinition> {
  const chain = await versionChain(db, versionId);
  const ids = chain.map((version) => version.id);

  // One after another, not Promise.all: `db` may be a transaction, a single connection on which pg
  // queues concurrent queries (deprecated, refused by pg 9). Seven local queries: little to win.
  const typeRows = await db.select().from(riskType).where(inArray(riskType.productVersionId, ids));
  const fieldRows = await db
    .select()
    .from(riskField)
    .where(and(inArray(riskField.productVersionId, ids), isNull(riskField.deletedAt)));
  const itemRows = await db
    .select()
    .from(riskItem)
    .where(and(inArray(riskItem.productVersionId, ids), isNull(riskItem.deletedAt)));
  const limitRows = await db
    .select()
    .from(itemLimit)
    .where(and(inArray(itemLimit.productVersionId, ids), isNull(itemLimit.deletedAt)));
  const calcRows = await db
    .select()
    .from(calculation)
    .where(and(inArray(calculation.productVersionId, ids), isNull(calculation.deletedAt)));
  const tableRows = await db
    .select()
    .from(rateTable)
    .where(and(inArray(rateTable.productVersionId, ids), isNull(rateTable.deletedAt)));
  const sequenceRows = await db.select().from(sequence).where(inArray(sequence.productVersionId, ids));

  const riskTypeRowsById = new Map(typeRows.map((row) => [row.id, row]));
  const typeName = (id: number) => riskTypeRowsById.get(id)?.name ?? `#${id}`;

  // Risk types and their tree.
  const resolvedTypes = resolveByKey(typeRows, (row) => lower(row.name), chain);
  const typeByName = new Map(resolvedTypes.map((t) => [lower(t.row.name), t]));
  const parentNameOf = (row: RiskTypeRow) =>
    row.parentRiskTypeId === null ? null : (riskTypeRowsById.get(row.parentRiskTypeId)?.name ?? null);
  const childrenOf = groupBy(resolvedTypes, (t) => lower(parentNameOf(t.row) ?? ''));
  const riskTypes: ResolvedRiskType[] = [];
  const visit = (parentKey: string, parentName: string | null, depth: number, seen: Set<string>) => {
    const children = (childrenOf.get(parentKey) ?? [])
      .filter((t) => !seen.has(lower(t.row.name)))
      .sort((a, b) => a.row.sequence - b.row.sequence || a.row.name.localeCompare(b.row.name));
    for (const child of children) {
      const key = lower(child.row.name);
      seen.add(key);
      riskTypes.push({ ...child, parentName, depth });
      visit(key, child.row.name, depth + 1, seen);
    }
  };
  const seen = new Set<string>();
  // Roots: no parent, or a parent name that resolves to nothing (a dangling reference shows as a root).
  for (const t of resolvedTypes) {
    const parent = parentNameOf(t.row);
    if (parent !== null && !typeByName.has(lower(parent))) childrenOf.set('', [...(childrenOf.get('') ?? []), t]);
  }
  visit('', null, 1, seen);

  const fieldsResolved = resolveByKey(
    fieldRows,
    (row) => `${lower(typeName(row.riskTypeId))}/${lower(row.name)}`,
    chain,
  );
  const fields = groupBy(fieldsResolved, (f) => lower(typeName(f.row.riskTypeId)));
  for (const list of fields.values()) list.sort(byOrder);

  const itemRowsById = new Map(itemRows.map((row) => [row.id, row]));
  const itemsResolved = resolveByKey(itemRows, (row) => itemKey(typeName(row.riskTypeId), row.name), chain);
  const items = groupBy(itemsResolved, (i) => lower(typeName(i.row.riskTypeId)));
  for (const list of items.values()) list.sort(byOrder);

  const itemKeyOf = (itemId: number) => {
    const item = itemRowsById.get(itemId);
    return item ? itemKey(typeName(item.riskTypeId), item.name) : `#${itemId}`;
  };
  const limitsResolved = resolveByKey(
    limitRows,
    (row) => `${itemKeyOf(row.riskItemId)}/${row.kind}/${lower(row.name)}`,
    chain,
  );
  const limits = groupBy(limitsResolved, (l) => itemKeyOf(l.row.riskItemId));
  for (const list of limits.values()) list.sort(byOrder);

  const calcsResolved = resolveByKey(calcRows, (row) => `${lower(typeName(row.riskTypeId))}/${lower(row.name)}`, chain);
  const calculations = groupBy(
    calcsResolved.map((c) => ({
      ...c,
      itemName: c.row.riskItemId === null ? null : (itemRowsById.get(c.row.riskItemId)?.name ?? null),
    })),
    (c) => lower(typeName(c.row.riskTypeId)),
  );
  for (const list of calculations.values()) list.sort(byOrder);

  const tablesResolved = resolveByKey(tableRows, (row) => lower(row.name), chain).sort(byOrder);
  const rowsByTable = new Map<number, RateRowDbRow[]>();
  if (options.rateRows !== false && tablesResolved.length > 0) {
    const rows = await db
      .select()
      .from(rateTableRow)
      .where(
        and(
          inArray(
            rateTableRow.rateTableId,
            tablesResolved.map((t) => t.row.id),
          ),
          isNull(rateTableRow.deletedAt),
        ),
      )
      .orderBy(asc(rateTableRow.rateTableId), asc(rateTableRow.rowOrder), asc(rateTableRow.id));
    for (const row of rows) {
      const list = rowsByTable.get(row.rateTableId);
      if (list) list.push(row);
      else rowsByTable.set(row.rateTableId, [row]);
    }
  }
  const rateTables = tablesResolved.map((t) => ({
    ...t,
    riskTypeName: t.row.riskTypeId === null ? null : typeName(t.row.riskTypeId),
    rows: rowsByTable.get(t.row.id) ?? [],
  }));

  const sequences = resolveByKey(sequenceRows, (row) => lower(row.name), chain).sort((a, b) =>
    a.row.name.localeCompare(b.row.name),
  );

  return {
    chain,
    riskTypes,
    fields,
    items,
    limits,
    calculations,
    rateTables,
    sequences,
    riskTypeRowsById,
    itemRowsById,
    fieldRowsById: new Map(fieldRows.map((row) => [row.id, row])),
  };
}

/** The ancestors of a risk type (nearest first), by name. */
export function ancestorsOf(definition: ResolvedDefinition, riskTypeName: string): ResolvedRiskType[] {
  const byName = new Map(definition.riskTypes.map((t) => [lower(t.row.name), t]));
  const out: ResolvedRiskType[] = [];
  let current = byName.get(lower(riskTypeName));
  while (current?.parentName && out.length < 8) {
    const parent = byName.get(lower(current.parentName));
    if (!parent) break;
    out.push(parent);
    current = parent;
  }
  return out;
}

/** The descendants of a risk type in pre-order. */
export function descendantsOf(definition: ResolvedDefinition, riskTypeName: string): ResolvedRiskType[] {
  const start = definition.riskTypes.findIndex((t) => lower(t.row.name) === lower(riskTypeName));
  if (start < 0) return [];
  const depth = definition.riskTypes[start]!.depth;
  const out: ResolvedRiskType[] = [];
  for (let i = start + 1; i < definition.riskTypes.length && definition.riskTypes[i]!.depth > depth; i++) {
    out.push(definition.riskTypes[i]!);
  }
  return out;
}

export const fieldsOf = (definition: ResolvedDefinition, riskTypeName: string) =>
  definition.fields.get(lower(riskTypeName)) ?? [];
export const itemsOf = (definition: ResolvedDefinition, riskTypeName: string) =>
  definition.items.get(lower(riskTypeName)) ?? [];
export const limitsOf = (definition: ResolvedDefinition, riskTypeName: string, itemName: string) =>
  definition.limits.get(itemKey(riskTypeName, itemName)) ?? [];
export const calculationsOf = (definition: ResolvedDefinition, riskTypeName: string) =>
  definition.calculations.get(lower(riskTypeName)) ?? [];
