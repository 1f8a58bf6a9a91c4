import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { fieldError, notFound, z, type AtriumRouter, type Database, type Permission } from '@atrium/sdk/server';
import { riskField, riskItem } from '../tables.js';
import { chainIndex, refuseInherited, riskTypeParams, riskTypeScope, type RiskTypeScope } from './definition-scope.js';
import type { FieldRow, ItemRow, Resolved, ResolvedDefinition } from './resolve.js';
import { id, versionQuery } from './scope.js';
import { assertDraftVersion } from './version-guard.js';

/**
 * The rows a risk type holds in a product version — its fields and its items — live by the same
 * rules: each row belongs to one version; a child product's version inherits its ancestors' rows by
 * name, and changing an inherited row writes the child's own override; a deleted row keeps
 * `deleted_at` so that it can be restored. What their routes do alike is here: the version's deleted
 * rows, restore, reorder, and the write that updates an own row or overrides an inherited one.
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

/**
 * Writes `values` onto a row the version sees: an own row is updated, an inherited one gets the
 * version's override (keeping the ancestor's row as it is). Returns the id of the row written.
 */
export async function saveChildRow<Row extends ChildRow, Values extends object>(
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
  scope: RiskTypeScope,
  current: Row,
  values: Values,
): Promise<number> {
  const { table } = kind;
  if (chainIndex(scope, current.productVersionId) > 0) {
    const [row] = await db
      .insert(table)
      .values({ ...values, productVersionId: scope.version.id, riskTypeId: scope.riskType.row.id } as never)
      .returning({ id: table.id });
    return row!.id;
  }
  await db
    .update(table)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(table.id, current.id));
  return current.id;
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

const listQuery = z.strictObject({ version_id: id.optional(), deleted: z.enum(['true', 'false']).optional() });
const reorderBody = z.strictObject({ order: z.array(id).min(1).max(1000) });
type RiskTypePath = z.infer<typeof riskTypeParams>;

export interface RiskTypeChildRoutes<Row extends ChildRow> {
  /** The collection's path: `/lines/products/:product/risk-types/:riskType/risk-fields/`. */
  base: string;
  /** The path parameter naming one row (`field`, `item`). */
  param: string;
  access: { read: Permission; update: Permission; delete: Permission };
  /** One row by id in the risk type (an ancestor's row the version overrides finds the override), or 404. */
  find(scope: RiskTypeScope, rowId: number): Resolved<Row>;
  /** A row as every route answers it. */
  out(scope: RiskTypeScope, resolved: Resolved<Row>): unknown;
  /** Refuses a delete the kind does not allow (an item a calculation uses). */
  beforeDelete?(scope: RiskTypeScope, current: Resolved<Row>): void;
  summaries: { list: string; one: string; delete: string; restore: string; reorder: string };
}

/**
 * The routes fields and items register alike: the list (`deleted=true`: the version's deleted rows),
 * one row, soft delete (own rows only), restore and reorder, each write on a draft only. Returns the lookups
 * their own create and change routes use.
 */
export function riskTypeChildRoutes<Row extends ChildRow, Values extends object>(
  router: AtriumRouter,
  db: Database,
  kind: RiskTypeChildKind<Row, Values>,
  routes: RiskTypeChildRoutes<Row>,
) {
  const tags = ['lines'];
  const one = `${routes.base}:${routes.param}/`;
  // Typed as the risk type's parameters: the row's parameter has the name the kind gives it (`rowIdOf`).
  const oneParams = riskTypeParams.extend({ [routes.param]: id }) as unknown as typeof riskTypeParams;
  const scopeOf = (params: RiskTypePath, versionId?: number) =>
    riskTypeScope(db, params.product, versionId, params.riskType);
  /** The row as the routes answer it, read afresh in the version. */
  const reload = async (params: RiskTypePath, versionId: number, rowId: number) => {
    const scope = await scopeOf(params, versionId);
    return routes.out(scope, routes.find(scope, rowId));
  };
  const rowIdOf = (params: RiskTypePath) => (params as Record<string, unknown>)[routes.param] as number;
  const listOf = (scope: RiskTypeScope, rows: Resolved<Row>[]) => {
    const results = rows.map((r) => routes.out(scope, r));
    return { count: results.length, results };
  };

  router.get(
    routes.base,
    {
      config: { access: routes.access.read },
      schema: { summary: routes.summaries.list, tags, params: riskTypeParams, querystring: listQuery },
    },
    async (request) => {
      const scope = await scopeOf(request.params, request.query.version_id);
      const rows =
        request.query.deleted === 'true'
          ? await deletedChildRows(db, kind, scope)
          : kind.rowsOf(scope.definition, scope.riskType.row.name);
      return listOf(scope, rows);
    },
  );

  router.get(
    one,
    {
      config: { access: routes.access.read },
      schema: { summary: routes.summaries.one, tags, params: oneParams, querystring: versionQuery },
    },
    async (request) => {
      const scope = await scopeOf(request.params, request.query.version_id);
      return routes.out(scope, routes.find(scope, rowIdOf(request.params)));
    },
  );

  router.delete(
    one,
    {
      config: { access: routes.access.delete },
      schema: { summary: routes.summaries.delete, tags, params: oneParams, querystring: versionQuery },
    },
    async (request, reply) => {
      const scope = await scopeOf(request.params, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      const current = routes.find(scope, rowIdOf(request.params));
      refuseInherited(scope, `${kind.noun} ${current.row.name}`, current.row.productVersionId);
      routes.beforeDelete?.(scope, current);
      await db.update(kind.table).set({ deletedAt: new Date() }).where(eq(kind.table.id, current.row.id));
      reply.code(204);
    },
  );

  router.post(
    `${one}restore/`,
    {
      config: { access: routes.access.update },
      schema: { summary: routes.summaries.restore, tags, params: oneParams, querystring: versionQuery },
    },
    async (request) => {
      const scope = await scopeOf(request.params, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      await restoreChildRow(db, kind, scope, rowIdOf(request.params));
      return reload(request.params, scope.version.id, rowIdOf(request.params));
    },
  );

  router.post(
    `${routes.base}reorder/`,
    {
      config: { access: routes.access.update },
      schema: {
        summary: routes.summaries.reorder,
        tags,
        params: riskTypeParams,
        querystring: versionQuery,
        body: reorderBody,
      },
    },
    async (request) => {
      const scope = await scopeOf(request.params, request.query.version_id);
      await assertDraftVersion(db, scope.version.id);
      await reorderChildRows(db, kind, scope, request.body.order);
      const fresh = await scopeOf(request.params, scope.version.id);
      return listOf(fresh, kind.rowsOf(fresh.definition, fresh.riskType.row.name));
    },
  );

  return { scopeOf, reload };
}
