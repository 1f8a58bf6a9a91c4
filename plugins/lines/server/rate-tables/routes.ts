import { and, eq, sql } from 'drizzle-orm';
import {
  ApiError,
  fieldError,
  z,
  type AtriumRouter,
  type Database,
  type Queryable,
  type ServerPluginContext,
  readUploadedFile,
} from '@atrium/sdk/server';
import { assertDraftVersion } from '../catalog/version-guard.js';
import type { ResolvedDefinition } from '../catalog/resolve.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { rateTable } from '../tables.js';
import { GridFileError, parseDelimited, readGridFile, writeDelimited, writeXlsx } from './rate-table-files.js';
import { readGrid, writeGrid } from './rate-table-grid.js';
import type { TableRow } from './rate-table-shape.js';
import {
  countRows,
  normalizeRows,
  ownTable,
  rateTableProblemsError,
  readRows,
  replaceRows,
  rowsPointer,
  shapeOf,
  tableOut,
  validityOf,
  visibleTable,
  type VisibleTable,
} from './rate-table-store.js';
import {
  duplicateName,
  insertOwnRow,
  nameTaken as ownNameTaken,
  ownRowName,
  type OwnRowKind,
  type OwnRowPlace,
} from './own-row-writes.js';
import { registerOwnRowRoutes, type OwnRowRoutes } from './own-row-routes.js';
import { validateRateTable } from './rate-table-validation.js';
import { definitionOf, id, riskTypeIn, uploadScope, versionOf, versionQuery, withUniqueCheck } from './route-scope.js';

/**
 * Rate tables of a product version (see docs/lines-rate-tables.md), under two paths that behave alike:
 * `products/{p}/rate-tables/` (every table of the version) and `products/{p}/risk-types/{t}/rate-tables/`
 * (the tables a risk type shows; a table created there belongs to it). `version_id` picks the version.
 *
 * list, create, get, PUT/PATCH, DELETE (soft), `{id}/restore/` and `reorder/` (`{ order: [ids] }`) are
 * the child routes calculations have too (own-row-routes.ts); this file says what a rate table is and
 * adds `{id}/rows/` (GET, PUT: replace all rows), `{id}/paste/` (tab-separated cells from a spreadsheet),
 * `{id}/import/` (CSV, TSV or XLSX upload) and `{id}/export/?format=csv|tsv|xlsx`.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];
const P = LINES_PERMISSIONS.rateTable;

const tableName = ownRowName('rate table', 'call');
const keyColumn = z.strictObject({
  name: z.string().trim().min(1, 'A key column needs a name.').max(100),
  label: z.string().max(200).optional(),
  match: z.enum(['exact', 'range']).default('exact'),
});
const bound = z.union([z.string().max(100), z.number(), z.null()]);
const keyCell = z.union([z.string().max(500), z.number(), z.boolean(), z.strictObject({ from: bound, to: bound })]);
const row = z.strictObject({ keys: z.record(z.string(), keyCell), value: z.union([z.string().max(100), z.number()]) });
const rows = z.array(row).max(100_000);
const decimalOrNull = z.union([z.string().trim().max(100), z.number(), z.null()]);

const writeFields = {
  label: z.string().trim().max(200).optional(),
  key_columns: z.array(keyColumn).max(10, 'A rate table has at most 10 key columns.').optional(),
  interpolate: z.string().trim().max(100).nullable().optional(),
  default: decimalOrNull.optional(),
  order: z.number().int().min(0).max(1_000_000).optional(),
  rows: rows.optional(),
  risk_type_id: id.nullable().optional(),
};
const createBody = z.strictObject({ name: tableName, ...writeFields });
const updateBody = z.strictObject({ name: tableName.optional(), ...writeFields, id: z.number().optional() });

const exportQuery = versionQuery.extend({ format: z.enum(['csv', 'tsv', 'xlsx']).default('csv') });

interface Scope {
  base: string;
  params: z.ZodType<{ product: number; riskType?: number }>;
}
const SCOPES: Scope[] = [
  { base: '/lines/products/:product/rate-tables/', params: z.strictObject({ product: id }) },
  {
    base: '/lines/products/:product/risk-types/:riskType/rate-tables/',
    params: z.strictObject({ product: id, riskType: id }),
  },
];
const withId = (params: Scope['params']) =>
  (params as unknown as z.ZodObject<z.ZodRawShape>).extend({ table: id }) as unknown as z.ZodType<{
    product: number;
    riskType?: number;
    table: number;
  }>;

interface Located {
  versionId: number;
  definition: ResolvedDefinition;
  riskTypeName: string | null;
  riskTypeRowId: number | null;
}

async function locate(db: Queryable, params: { product: number; riskType?: number }, versionId?: number) {
  const version = await versionOf(db, params.product, versionId);
  const definition = await definitionOf(db, version);
  let riskTypeName: string | null = null;
  let riskTypeRowId: number | null = null;
  if (params.riskType !== undefined) {
    const riskType = riskTypeIn(definition, params.riskType);
    riskTypeName = riskType.row.name;
    riskTypeRowId = riskType.row.id;
  }
  return { versionId: version, definition, riskTypeName, riskTypeRowId } satisfies Located;
}

/** A risk type named in the body: a 400 pointing at `risk_type_id` when the version has no such risk type. */
function bodyRiskType(at: Located, riskTypeId: number): number {
  try {
    return riskTypeIn(at.definition, riskTypeId).row.id;
  } catch {
    throw fieldError('risk_type_id', `Risk type ${riskTypeId} is not a risk type of this version.`);
  }
}

function inScope(table: VisibleTable, at: Located): boolean {
  return at.riskTypeName === null || table.riskTypeName?.toLowerCase() === at.riskTypeName.toLowerCase();
}

async function tableInScope(db: Queryable, at: Located, tableId: number, own: boolean): Promise<VisibleTable> {
  const table = own ? await ownTable(db, at.definition, tableId) : await visibleTable(db, at.definition, tableId);
  if (!inScope(table, at))
    throw new ApiError(404, `Rate table ${tableId} is not a table of risk type '${at.riskTypeName}'.`);
  return table;
}

async function detail(db: Queryable, table: VisibleTable) {
  const tableRows = await readRows(db, table.row.id);
  return tableOut(table, tableRows, tableRows.length, validityOf(table.row, tableRows));
}

const kind: OwnRowKind = { table: rateTable, noun: 'rate table', plural: 'rate tables', of: 'this version' };
/** Names and order count per version, whichever path (version or risk type) a request took. */
const placeOf = (at: Located): OwnRowPlace => ({ versionId: at.versionId, riskTypeRowId: null });
const nameTaken = (db: Queryable, versionId: number, name: string, exceptId?: number) =>
  ownNameTaken(db, kind, { versionId, riskTypeRowId: null }, name, exceptId);
const duplicate = (name: string) => duplicateName(kind, name);

/** Checks the definition and rows together; a 400 naming rows and columns when they do not hold. */
function checkTable(
  shape: {
    name: string;
    keys: { name: string; match: 'exact' | 'range' }[];
    interpolate?: string | null;
    default?: string | null;
  },
  tableRows: TableRow[],
) {
  const problems = validateRateTable(shape, tableRows);
  if (problems.length > 0) throw rateTableProblemsError(shape.name, problems, rowsPointer);
}

const decimalText = (value: string | number | null | undefined) =>
  value === undefined ? undefined : value === null || value === '' ? null : String(value);

// Hand-written, not a resource declaration: rate tables are children of a versioned product definition (inherited overrides, draft-only writes, soft delete, restore, reorder), not rows of one table.
export function registerRateTableRoutes(router: AtriumRouter, context: ServerPluginContext): Promise<void> {
  const db = context.db;
  for (const scope of SCOPES) {
    registerOwnRowRoutes(router, db, routesOf(scope));
    registerScope(router, db, scope);
  }
  return uploadScope(router, (uploads) => {
    for (const scope of SCOPES) registerUploads(uploads, db, scope);
  });
}

/** Rate tables' part of the child routes both kinds share (own-row-routes.ts). */
function routesOf({ base, params }: Scope): OwnRowRoutes<Located, VisibleTable> {
  /** The table as written, read again from the definition. */
  const written = async (tx: Queryable, at: Located, tableId: number) =>
    detail(tx, await visibleTable(tx, await definitionOf(tx, at.versionId), tableId));
  return {
    kind,
    permissions: P,
    base,
    params: params as unknown as z.ZodObject<z.ZodRawShape>,
    idParam: 'table',
    summaries: {
      list: 'Lists the rate tables of a product version (with rowsCount and validityState).',
      create: 'Creates a rate table (key columns, interpolation, default and optionally its rows).',
      reorder: "Sets the tables' order: `order` lists table ids, first to last.",
      find: 'Reads a rate table with its rows.',
      update: {
        PUT: 'Changes a rate table; with `rows` its rows are replaced. Refused on a version that is not a draft.',
        PATCH: 'Changes some attributes of a rate table.',
      },
      delete: 'Deletes a rate table (it can be restored).',
      restore: 'Restores a deleted rate table.',
    },
    createBody,
    updateBody,
    locate,
    placeOf,
    find: tableInScope,
    async list(db, at, includeDeleted) {
      const visible: VisibleTable[] = at.definition.rateTables.filter((t) => inScope(t, at));
      if (includeDeleted) {
        const deleted = await db
          .select()
          .from(rateTable)
          .where(and(eq(rateTable.productVersionId, at.versionId), sql`${rateTable.deletedAt} is not null`));
        for (const row of deleted) {
          const table: VisibleTable = {
            row,
            inheritanceStatus: 'own',
            productId: at.definition.chain[0]!.productId,
            riskTypeName:
              row.riskTypeId === null ? null : (at.definition.riskTypeRowsById.get(row.riskTypeId)?.name ?? null),
          };
          if (inScope(table, at)) visible.push(table);
        }
      }
      const counts = await countRows(
        db,
        visible.map((t) => t.row.id),
      );
      const out = [];
      for (const table of visible) {
        const n = counts.get(table.row.id) ?? 0;
        // validityState needs the rows; tables are small next to a request, and this keeps it truthful.
        const validity = n === 0 ? null : validityOf(table.row, await readRows(db, table.row.id));
        out.push(tableOut(table, null, n, validity));
      }
      return out;
    },
    async reordered(tx, at) {
      const definition = await definitionOf(tx, at.versionId);
      const counts = await countRows(
        tx,
        definition.rateTables.map((t) => t.row.id),
      );
      return definition.rateTables
        .filter((t) => inScope(t, at))
        .map((t) => tableOut(t, null, counts.get(t.row.id) ?? 0, null));
    },
    show: (db, _at, table) => detail(db, table),
    async create(tx, at, b) {
      const body = b as z.infer<typeof createBody>;
      let riskTypeId = at.riskTypeRowId;
      if (riskTypeId === null && body.risk_type_id) riskTypeId = bodyRiskType(at, body.risk_type_id);
      const keyColumns = body.key_columns ?? [];
      const tableRows = normalizeRows(body.rows ?? []);
      const shape = {
        name: body.name,
        keys: keyColumns,
        interpolate: body.interpolate ?? null,
        default: decimalText(body.default) ?? null,
      };
      checkTable(shape, tableRows);
      const [inserted] = await insertOwnRow(tx, kind, placeOf(at), body, (order) =>
        tx
          .insert(rateTable)
          .values({
            productVersionId: at.versionId,
            riskTypeId,
            name: body.name,
            label: body.label?.trim() || body.name,
            keyColumns,
            interpolate: shape.interpolate,
            defaultValue: shape.default,
            order,
          })
          .returning(),
      );
      await replaceRows(tx, inserted!.id, tableRows);
      return written(tx, at, inserted!.id);
    },
    async update(tx, at, table, b) {
      const body = b as z.infer<typeof updateBody>;
      const name = body.name ?? table.row.name;
      const keyColumns = body.key_columns ?? table.row.keyColumns;
      const interpolate = body.interpolate === undefined ? table.row.interpolate : body.interpolate;
      const defaultValue = body.default === undefined ? table.row.defaultValue : decimalText(body.default)!;
      const tableRows = body.rows ? normalizeRows(body.rows) : await readRows(tx, table.row.id);
      checkTable({ name, keys: keyColumns, interpolate, default: defaultValue }, tableRows);
      if (
        name.toLowerCase() !== table.row.name.toLowerCase() &&
        (await nameTaken(tx, at.versionId, name, table.row.id))
      )
        throw duplicate(name);
      let riskTypeId = table.row.riskTypeId;
      if (body.risk_type_id !== undefined) {
        riskTypeId = body.risk_type_id === null ? null : bodyRiskType(at, body.risk_type_id);
      }
      await withUniqueCheck(
        () =>
          tx
            .update(rateTable)
            .set({
              name,
              label: body.label === undefined ? table.row.label : body.label || name,
              keyColumns,
              interpolate,
              defaultValue,
              riskTypeId,
              order: body.order ?? table.row.order,
              updatedAt: new Date(),
            })
            .where(eq(rateTable.id, table.row.id)),
        () => duplicate(name),
      );
      if (body.rows) await replaceRows(tx, table.row.id, tableRows);
      return written(tx, at, table.row.id);
    },
    restored: (tx, at, table) => written(tx, at, table.row.id),
  };
}

/** The rate-table routes beyond the shared child routes: rows, paste and export. */
function registerScope(router: AtriumRouter, db: Database, { base, params }: Scope) {
  const itemParams = withId(params);

  router.get(
    `${base}:table/rows/`,
    {
      config: { access: P.read },
      schema: { summary: "Reads a rate table's rows.", tags, security, params: itemParams, querystring: versionQuery },
    },
    async (request) => {
      const at = await locate(db, request.params, request.query.version_id);
      const table = await tableInScope(db, at, request.params.table, false);
      const tableRows = await readRows(db, table.row.id);
      return { rows: tableRows, rowsCount: tableRows.length };
    },
  );

  router.put(
    `${base}:table/rows/`,
    {
      config: { access: P.update },
      schema: {
        summary: "Replaces a rate table's rows (all or nothing; problems name row and column).",
        tags,
        security,
        params: itemParams,
        querystring: versionQuery,
        body: z.strictObject({ rows }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const at = await locate(tx, request.params, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const table = await tableInScope(tx, at, request.params.table, true);
        const tableRows = normalizeRows(request.body.rows);
        checkTable(shapeOf(table.row), tableRows);
        await replaceRows(tx, table.row.id, tableRows);
        return { rows: tableRows, rowsCount: tableRows.length };
      }),
  );

  router.post(
    `${base}:table/paste/`,
    {
      config: { access: P.update },
      schema: {
        summary: 'Replaces the rows with cells pasted from a spreadsheet (tab-separated, header first).',
        description:
          'The first line names the key columns and the value column; see docs/lines-rate-tables.md. A table without key columns takes them from the header.',
        tags,
        security,
        params: itemParams,
        querystring: versionQuery,
        body: z.strictObject({ text: z.string().min(1, 'Paste the cells, header first.').max(5_000_000) }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const at = await locate(tx, request.params, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const table = await tableInScope(tx, at, request.params.table, true);
        let grid: string[][];
        try {
          grid = parseDelimited(request.body.text, '\t');
        } catch (error) {
          throw fieldError('text', (error as Error).message);
        }
        return applyGrid(tx, at, table, grid, { pointer: '/text' });
      }),
  );

  router.get(
    `${base}:table/export/`,
    {
      config: { access: P.read },
      schema: {
        summary: 'Downloads a rate table as CSV (default), TSV or XLSX.',
        tags,
        security,
        params: itemParams,
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const at = await locate(db, request.params, request.query.version_id);
      const table = await tableInScope(db, at, request.params.table, false);
      const keys = table.row.keyColumns.map((k) => ({ name: k.name, match: k.match }));
      const grid = writeGrid(keys, await readRows(db, table.row.id));
      const format = request.query.format;
      reply.header('content-disposition', `attachment; filename="${table.row.name}.${format}"`);
      reply.header('cache-control', 'no-store');
      if (format === 'xlsx') {
        return reply
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .send(await writeXlsx(grid, table.row.name));
      }
      if (format === 'tsv')
        return reply.type('text/tab-separated-values; charset=utf-8').send(writeDelimited(grid, '\t'));
      return reply.type('text/csv; charset=utf-8').send(writeDelimited(grid, ','));
    },
  );
}

/** Reads a grid against the table's key columns (or takes them from the header) and replaces the rows. */
async function applyGrid(
  tx: Queryable,
  at: Located,
  table: VisibleTable,
  grid: string[][],
  source: { pointer: string } | { parameter: string },
) {
  const tableKeys = table.row.keyColumns.map((k) => ({ name: k.name, match: k.match }));
  const read = readGrid(grid, tableKeys);
  if (read.problems.length > 0) throw rateTableProblemsError(table.row.name, read.problems, () => source);
  const shape = { ...shapeOf(table.row), keys: read.keys };
  const problems = validateRateTable(shape, read.rows, read.rowNumbers);
  if (problems.length > 0) throw rateTableProblemsError(table.row.name, problems, () => source);
  if (tableKeys.length === 0) {
    await tx
      .update(rateTable)
      .set({ keyColumns: read.keys, updatedAt: new Date() })
      .where(eq(rateTable.id, table.row.id));
  }
  await replaceRows(tx, table.row.id, read.rows);
  const definition = await definitionOf(tx, at.versionId);
  return detail(tx, await visibleTable(tx, definition, table.row.id));
}

function registerUploads(router: AtriumRouter, db: Database, { base, params }: Scope) {
  router.post(
    `${base}:table/import/`,
    {
      config: { access: P.update },
      schema: {
        summary: "Replaces a rate table's rows from a CSV, TSV or XLSX file.",
        description:
          'multipart/form-data with the file in `file`, or the file as the body (text/csv, text/tab-separated-values, XLSX). Same header rules as a paste.',
        tags,
        security,
        params: withId(params),
        querystring: versionQuery,
      },
    },
    async (request) => {
      const contentType = String(request.headers['content-type'] ?? '');
      const body = request.body;
      if (!Buffer.isBuffer(body)) {
        throw new ApiError(415, 'Upload the rate table as multipart/form-data (field file), CSV, TSV or XLSX.');
      }
      let file: { data: Buffer; filename?: string; contentType?: string } | null;
      if (/^multipart\/form-data/i.test(contentType)) {
        file = await readUploadedFile(body, contentType);
        if (!file) {
          throw new ApiError(400, "Attach the rate table file in the form field 'file'.", {
            source: { parameter: 'file' },
            code: 'required',
          });
        }
      } else file = { data: body, contentType };
      let grid: string[][];
      try {
        grid = (await readGridFile(file.data, file)).grid;
      } catch (error) {
        if (error instanceof GridFileError) throw new ApiError(400, error.message, { source: { parameter: 'file' } });
        throw error;
      }
      const params = request.params as { product: number; riskType?: number; table: number };
      const query = request.query as { version_id?: number };
      return db.transaction(async (tx) => {
        const at = await locate(tx, params, query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const table = await tableInScope(tx, at, params.table, true);
        return applyGrid(tx, at, table, grid, { parameter: 'file' });
      });
    },
  );
}
