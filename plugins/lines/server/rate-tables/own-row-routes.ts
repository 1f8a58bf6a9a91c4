import { z, type AtriumRouter, type Database, type Permission, type Queryable } from '@atrium/sdk/server';
import { assertDraftVersion } from '../catalog/version-guard.js';
import {
  refuseDeleted,
  reorderOwnRows,
  restoreOwnRow,
  softDeleteOwnRow,
  type OwnRowKind,
  type OwnRowPlace,
} from './own-row-writes.js';
import { id, versionQuery } from './route-scope.js';

/**
 * The child routes of a versioned product definition that rate tables and calculations share, under
 * one path each kind gives (`base`, e.g. `products/{p}/risk-types/{t}/calculations/`): list (with
 * `include_deleted=true`), create, `reorder/`, get, PUT/PATCH, DELETE (soft) and `{id}/restore/`.
 * `version_id` picks the version; every write runs in one transaction on a draft version and only on
 * a row the version owns. What differs — where a path points, what a row shows, how it is written —
 * is the kind's (`OwnRowRoutes`); the routes, their order of checks and their transactions are here.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];
const listQuery = versionQuery.extend({ include_deleted: z.enum(['true', 'false']).optional() });

type Params = Record<string, number>;
type Body = Record<string, any>;

/** A row the version sees, as the kind finds it (`row` is the table row that is deleted and restored). */
export interface Found {
  row: { id: number; name: string; deletedAt: Date | null };
}

export interface OwnRowRoutes<At extends { versionId: number }, F extends Found> {
  kind: OwnRowKind;
  permissions: Record<'read' | 'create' | 'update' | 'delete', Permission>;
  base: string;
  params: z.ZodObject<z.ZodRawShape>;
  /** The URL parameter naming one row (`calc`, `table`). */
  idParam: string;
  summaries: {
    list: string;
    create: string;
    reorder: string;
    find: string;
    update: Record<'PUT' | 'PATCH', string>;
    delete: string;
    restore: string;
  };
  createBody: z.ZodType;
  updateBody: z.ZodType;
  /** Checks of a body that need no database (a formula's syntax), before the transaction. */
  precheck?(body: Body): void;
  /** The version, the definition and the place the path names (404s for unknown parts). */
  locate(db: Queryable, params: Params, versionId: number | undefined): Promise<At>;
  placeOf(at: At): OwnRowPlace;
  /** A row in the path's scope; `own`: one the version owns (a 400 for an inherited one). */
  find(db: Queryable, at: At, rowId: number, own: boolean): Promise<F>;
  list(db: Queryable, at: At, includeDeleted: boolean): Promise<unknown>;
  /** What a reorder answers: the rows in their new order. */
  reordered(tx: Queryable, at: At): Promise<unknown>;
  show(db: Queryable, at: At, found: F): Promise<unknown> | unknown;
  create(tx: Queryable, at: At, body: Body): Promise<unknown>;
  /** A change of a live row the version owns (deleted rows are refused before). */
  update(tx: Queryable, at: At, found: F, body: Body): Promise<unknown>;
  /** What a restore answers, once the row is back (a check of the whole definition may refuse it). */
  restored(tx: Queryable, at: At, found: F): Promise<unknown>;
}

export function registerOwnRowRoutes<At extends { versionId: number }, F extends Found>(
  router: AtriumRouter,
  db: Database,
  spec: OwnRowRoutes<At, F>,
): void {
  const { base, params, kind, permissions: P, summaries } = spec;
  const one = `${base}:${spec.idParam}/`;
  const itemParams = params.extend({ [spec.idParam]: id });
  type Request = { params: unknown; query: unknown; body?: unknown };
  const paramsOf = (request: Request) => request.params as Params;
  const versionOf = (request: Request) => (request.query as { version_id?: number }).version_id;
  const rowIdOf = (request: Request) => paramsOf(request)[spec.idParam]!;
  /** A write: located in the transaction, on a draft version. */
  const write = <T>(request: Request, work: (tx: Queryable, at: At) => Promise<T>) =>
    db.transaction(async (tx) => {
      const at = await spec.locate(tx, paramsOf(request), versionOf(request));
      await assertDraftVersion(tx, at.versionId);
      return work(tx, at);
    });
  const schema = (summary: string, more: Record<string, unknown>) => ({ summary, tags, security, ...more });

  router.get(
    base,
    { config: { access: P.read }, schema: schema(summaries.list, { params, querystring: listQuery }) },
    async (request) => {
      const at = await spec.locate(db, paramsOf(request), versionOf(request));
      return spec.list(db, at, (request.query as { include_deleted?: string }).include_deleted === 'true');
    },
  );

  router.post(
    base,
    {
      config: { access: P.create },
      schema: schema(summaries.create, { params, querystring: versionQuery, body: spec.createBody }),
    },
    async (request, reply) => {
      spec.precheck?.(request.body as Body);
      const out = await write(request, (tx, at) => spec.create(tx, at, request.body as Body));
      return reply.code(201).send(out);
    },
  );

  router.post(
    `${base}reorder/`,
    {
      config: { access: P.update },
      schema: schema(summaries.reorder, {
        params,
        querystring: versionQuery,
        body: z.strictObject({ order: z.array(id).min(1).max(10_000) }),
      }),
    },
    async (request) =>
      write(request, async (tx, at) => {
        await reorderOwnRows(tx, kind, spec.placeOf(at), (request.body as { order: number[] }).order);
        return spec.reordered(tx, at);
      }),
  );

  router.get(
    one,
    { config: { access: P.read }, schema: schema(summaries.find, { params: itemParams, querystring: versionQuery }) },
    async (request) => {
      const at = await spec.locate(db, paramsOf(request), versionOf(request));
      return spec.show(db, at, await spec.find(db, at, rowIdOf(request), false));
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    router.route({
      method,
      url: one,
      config: { access: P.update },
      schema: schema(summaries.update[method], {
        params: itemParams,
        querystring: versionQuery,
        body: spec.updateBody,
      }),
      handler: (request) => {
        spec.precheck?.(request.body as Body);
        return write(request, async (tx, at) => {
          const found = await spec.find(tx, at, rowIdOf(request), true);
          refuseDeleted(kind, found.row);
          return spec.update(tx, at, found, request.body as Body);
        });
      },
    });
  }

  router.delete(
    one,
    {
      config: { access: P.delete },
      schema: schema(summaries.delete, { params: itemParams, querystring: versionQuery }),
    },
    async (request, reply) => {
      await write(request, async (tx, at) => {
        const found = await spec.find(tx, at, rowIdOf(request), true);
        await softDeleteOwnRow(tx, kind, found.row);
      });
      return reply.code(204).send();
    },
  );

  router.post(
    `${one}restore/`,
    {
      config: { access: P.update },
      schema: schema(summaries.restore, { params: itemParams, querystring: versionQuery }),
    },
    async (request) =>
      write(request, async (tx, at) => {
        const found = await spec.find(tx, at, rowIdOf(request), true);
        await restoreOwnRow(tx, kind, spec.placeOf(at), found.row);
        return spec.restored(tx, at, found);
      }),
  );
}
