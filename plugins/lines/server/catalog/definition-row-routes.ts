import { eq } from 'drizzle-orm';
import { fieldError, z, type AtriumRouter, type Database, type Permission } from '@atrium/sdk/server';
import type { itemLimit, riskField, riskItem, riskType, sequence } from '../tables.js';
import { chainIndex, refuseInherited, type DefinitionScope } from './definition-scope.js';
import type { Resolved } from './resolve.js';
import { id, putAndPatch, versionQuery } from './scope.js';
import { assertDraftVersion } from './version-guard.js';

/**
 * The routes of a product version's named rows — its risk types and sequences, a risk type's fields
 * and items, an item's limits — registered once: list, one row, create, change (PUT/PATCH) and delete, each write on a
 * draft only. A row an ancestor product owns is changed by writing the version's override (its name
 * kept) and is never deleted here. Soft-deleted kinds add `?deleted=true`, restore and reorder.
 */

interface NamedRow {
  id: number;
  name: string;
  productVersionId: number;
}
// Inserts and updates into `table` take `as never`: TypeScript cannot pair the union of the tables
// with one kind's values, though each kind pairs its own table and values.
type RowTable = typeof riskField | typeof riskItem | typeof itemLimit | typeof riskType | typeof sequence;
type Params = Record<string, unknown>;

export interface DefinitionRows<Scope extends DefinitionScope, Row extends NamedRow, Values, Create, Update> {
  /** The collection's path, e.g. `/lines/products/:product/sequences/`. */
  base: string;
  /** The path parameter naming one row (`field`, `item`, `sequence`, `riskType`). */
  param: string;
  /** The row's path parameter: an id unless given (a risk type is also named). */
  rowParam?: z.ZodType;
  /** The collection's path parameters (without the row's). */
  params: z.ZodObject;
  table: RowTable;
  /** Starts the messages that name one row: `Field 12`, `Sequence policy_number`. */
  noun: string;
  /** Names a row in the refusal to delete an inherited one (default: noun and name). */
  describe?(row: Row): string;
  access: { read: Permission; create: Permission; update: Permission; delete: Permission };
  /** The scope of a request; a row route's parameters include the row's (a risk type finds itself). */
  scopeOf(params: Params, versionId: number | undefined): Promise<Scope>;
  /** The live rows the scope shows, inheritance applied, in order. */
  rowsOf(scope: Scope): Resolved<Row>[];
  /** One row by id, or 404. */
  find(scope: Scope, rowId: number): Resolved<Row>;
  /** A row as every route answers it. */
  out(scope: Scope, resolved: Resolved<Row>): unknown;
  /** A row as its own GET answers it, when that tells more than `out`. */
  outOne?(scope: Scope, resolved: Resolved<Row>): unknown;
  /** The message when a live row already has the name (unless `conflict` checks instead). */
  nameTaken?(scope: Scope, name: string): string;
  /** A rename is checked against the row itself too (a risk type's change of case is refused). */
  renameClashesWithSelf?: boolean;
  /**
   * In place of the name checks: refuses values that clash with a live row or change what an inherited
   * row must keep (an item's limits are told apart by kind and name).
   */
  conflict?(scope: Scope, values: Values, current?: Resolved<Row>): void;
  /** The columns that place a new row or override in the scope (version, risk type). */
  placeOf(scope: Scope): object;
  create: { summary: string; body: z.ZodType<Create>; values(scope: Scope, body: Create): Values };
  /** `values` are written onto an own row; `override` (default: the values placed in the scope) is inserted for an inherited one. */
  update: {
    summary: string;
    body: z.ZodType<Update>;
    values(current: Resolved<Row>, body: Update, scope: Scope): Values;
    override?(scope: Scope, current: Resolved<Row>, values: Values): object;
  };
  /** Checks values as a whole before a write (formula syntax, a format that exists …). */
  check?(values: Values): void | Promise<void>;
  /** Refuses a delete the kind does not allow (an item a calculation uses). */
  beforeDelete?(scope: Scope, current: Resolved<Row>): void;
  /** Soft delete: the version's deleted rows (`?deleted=true`), restore and reorder. Without it a delete removes the row. */
  soft?: {
    deleted?(scope: Scope): Promise<Resolved<Row>[]>;
    restore(scope: Scope, rowId: number): Promise<void>;
    reorder?(scope: Scope, ids: number[]): Promise<void>;
  };
  /** Without `one`, a row has no GET of its own. */
  summaries: { list: string; one?: string; delete: string; restore?: string; reorder?: string };
}

const listQuery = z.strictObject({ version_id: id.optional(), deleted: z.enum(['true', 'false']).optional() });
const reorderBody = z.strictObject({ order: z.array(id).min(1).max(1000) });

// Not the SDK's resource declaration: these rows are read through the resolved definition (inheritance by name), written on a draft only and changed by override, not filtered rows of one table.
export function definitionRowRoutes<Scope extends DefinitionScope, Row extends NamedRow, Values, Create, Update>(
  router: AtriumRouter,
  db: Database,
  rows: DefinitionRows<Scope, Row, Values, Create, Update>,
): void {
  const tags = ['lines'];
  const { table, soft } = rows;
  const one = `${rows.base}:${rows.param}/`;
  // Typed as the collection's parameters: the row's parameter has the name the kind gives it (`rowIdOf`).
  const params = rows.params as z.ZodType<Params>;
  const oneParams = rows.params.extend({ [rows.param]: rows.rowParam ?? id }) as z.ZodType<Params>;
  const rowIdOf = (p: Params) => p[rows.param] as number;
  /** The row as the routes answer it, read afresh in the version (by id: a rename leaves the path's name behind). */
  const reload = async (p: Params, versionId: number, rowId: number) => {
    const { [rows.param]: _row, ...collection } = p;
    const scope = await rows.scopeOf(collection, versionId);
    return rows.out(scope, rows.find(scope, rowId));
  };
  const listOf = (scope: Scope, list: Resolved<Row>[]) => {
    const results = list.map((r) => rows.out(scope, r));
    return { count: results.length, results };
  };
  const assertNameFree = (scope: Scope, name: string, exceptName?: string) => {
    const lower = name.toLowerCase();
    const others = rows.rowsOf(scope).filter((r) => rows.renameClashesWithSelf || r.row.name !== exceptName);
    if (others.some((r) => r.row.name.toLowerCase() === lower)) {
      throw fieldError('name', rows.nameTaken!(scope, name));
    }
  };
  // A write's scope: the version's draft, else 400.
  const draftScope = async (p: Params, versionId: number | undefined) => {
    const scope = await rows.scopeOf(p, versionId);
    await assertDraftVersion(db, scope.version.id);
    return scope;
  };

  router.get(
    rows.base,
    {
      config: { access: rows.access.read },
      schema: { summary: rows.summaries.list, tags, params, querystring: soft?.deleted ? listQuery : versionQuery },
    },
    async (request) => {
      const query = request.query as z.infer<typeof listQuery>;
      const scope = await rows.scopeOf(request.params, query.version_id);
      return listOf(scope, soft?.deleted && query.deleted === 'true' ? await soft.deleted(scope) : rows.rowsOf(scope));
    },
  );

  if (rows.summaries.one)
    router.get(
      one,
      {
        config: { access: rows.access.read },
        schema: { summary: rows.summaries.one, tags, params: oneParams, querystring: versionQuery },
      },
      async (request) => {
        const scope = await rows.scopeOf(request.params, request.query.version_id);
        return (rows.outOne ?? rows.out)(scope, rows.find(scope, rowIdOf(request.params)));
      },
    );

  router.post(
    rows.base,
    {
      config: { access: rows.access.create },
      schema: { summary: rows.create.summary, tags, params, querystring: versionQuery, body: rows.create.body },
    },
    async (request, reply) => {
      const scope = await draftScope(request.params, request.query.version_id);
      const body = request.body as Create & { name: string };
      if (!rows.conflict) assertNameFree(scope, body.name);
      const values = rows.create.values(scope, body);
      rows.conflict?.(scope, values);
      await rows.check?.(values);
      const [row] = await db
        .insert(table)
        .values({ ...values, ...rows.placeOf(scope) } as never)
        .returning({ id: table.id });
      reply.code(201);
      return reload(request.params, scope.version.id, row!.id);
    },
  );

  putAndPatch(
    router,
    one,
    { access: rows.access.update, summary: rows.update.summary, params: oneParams, body: rows.update.body },
    async (request) => {
      const scope = await draftScope(request.params, request.query.version_id);
      const resolved = rows.find(scope, rowIdOf(request.params));
      const current = resolved.row;
      const body = request.body as Update & { name?: string };
      const inherited = chainIndex(scope, current.productVersionId) > 0;
      if (!rows.conflict && body.name !== undefined && body.name !== current.name) {
        if (inherited)
          throw fieldError('name', `${rows.noun} ${current.name} is inherited; an override keeps its name.`);
        assertNameFree(scope, body.name, current.name);
      }
      const values = rows.update.values(resolved, body, scope);
      rows.conflict?.(scope, values, resolved);
      await rows.check?.(values);
      let rowId = current.id;
      if (inherited) {
        const override = rows.update.override?.(scope, resolved, values) ?? { ...values, ...rows.placeOf(scope) };
        const [row] = await db
          .insert(table)
          .values(override as never)
          .returning({ id: table.id });
        rowId = row!.id;
      } else {
        await db
          .update(table)
          .set({ ...values, updatedAt: new Date() } as never)
          .where(eq(table.id, current.id));
      }
      return reload(request.params, scope.version.id, rowId);
    },
  );

  router.delete(
    one,
    {
      config: { access: rows.access.delete },
      schema: { summary: rows.summaries.delete, tags, params: oneParams, querystring: versionQuery },
    },
    async (request, reply) => {
      const scope = await draftScope(request.params, request.query.version_id);
      const current = rows.find(scope, rowIdOf(request.params));
      const what = rows.describe?.(current.row) ?? `${rows.noun} ${current.row.name}`;
      refuseInherited(scope, what, current.row.productVersionId);
      rows.beforeDelete?.(scope, current);
      if (soft) {
        await db
          .update(table)
          .set({ deletedAt: new Date() } as never)
          .where(eq(table.id, current.row.id));
      } else {
        await db.delete(table).where(eq(table.id, current.row.id));
      }
      reply.code(204);
    },
  );

  if (!soft) return;
  router.post(
    `${one}restore/`,
    {
      config: { access: rows.access.update },
      schema: { summary: rows.summaries.restore, tags, params: oneParams, querystring: versionQuery },
    },
    async (request) => {
      const scope = await draftScope(request.params, request.query.version_id);
      await soft.restore(scope, rowIdOf(request.params));
      return reload(request.params, scope.version.id, rowIdOf(request.params));
    },
  );

  if (!soft.reorder) return;
  const reorder = soft.reorder;
  router.post(
    `${rows.base}reorder/`,
    {
      config: { access: rows.access.update },
      schema: { summary: rows.summaries.reorder, tags, params, querystring: versionQuery, body: reorderBody },
    },
    async (request) => {
      const scope = await draftScope(request.params, request.query.version_id);
      await reorder(scope, request.body.order);
      const fresh = await rows.scopeOf(request.params, scope.version.id);
      return listOf(fresh, rows.rowsOf(fresh));
    },
  );
}
