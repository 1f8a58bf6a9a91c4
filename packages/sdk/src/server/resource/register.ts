import { createHash } from 'node:crypto';
import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { databaseErrorCode as pgCode } from '../database-error-code.js';
import { emitEvent } from '../events.js';
import { ApiError } from '../http-problem.js';
import type { AtriumRouter, Database, Queryable, ServerPluginContext } from '../define-server-plugin.js';
import { paginationLinks } from '../jsonapi/pagination.js';
import { resourceDocument, toOneRelationship } from '../jsonapi/request-body.js';
import {
  defineResource,
  parseInclude,
  serializeDocument,
  toResourceObject,
  type ResourceDefinition,
} from '../jsonapi/resource.js';
import { recordFilterToSql } from '../record-filter-sql.js';
import { camelCase, snakeCase, type ResourceShape } from '../../shared/resource-shape.js';
import { resourcePermission, type ResourceAction, type ResourceDeclaration, type ResourceRow } from './declare.js';
import { includeAccess } from './include-access.js';
import {
  fieldsetsOf,
  filterColumn,
  filterValue,
  listQuerySchema,
  orderOf,
  pageOf,
  plainPageLink,
} from './list-query.js';

/**
 * Registers a declared resource's routes on a plugin's router: list (paged in both forms, filters,
 * one ordering, include, sparse fieldsets), find, create, update (PATCH, If-Match against the ETag
 * every read answers, 412 when stale), delete and a relationship route per to-one relationship —
 * each behind the declaration's permission and record scope (a written row must stay inside it),
 * each write audited in its transaction.
 * JSON:API resources answer JSON:API documents; plain ones `{ count, next, previous, results }` and
 * bare objects. Included resources are checked with their own type's read permission and scope.
 */
const INT_ID = /^[1-9][0-9]{0,9}$/;
const DEFAULT_SECURITY = [{ bearer: [] as string[] }];

/** A registered declaration: what `include` from another resource needs to load and show it. */
interface Compiled {
  declaration: ResourceDeclaration<any>;
  definition: ResourceDefinition<ResourceRow>;
}

/** Per server (a process may run several in tests) and declaration. */
const compiledBy = new WeakMap<ServerPluginContext, WeakMap<ResourceDeclaration<any>, Compiled>>();

const columnsOf = (declaration: ResourceDeclaration<any>) =>
  getTableColumns(declaration.table) as Record<string, PgColumn>;
const idColumnKey = (declaration: ResourceDeclaration<any>) => declaration.id?.column ?? 'id';
const relationshipColumn = (name: string, column: string | undefined) => column ?? camelCase(`${name}_id`);

/** The record scope of a declaration for a caller and action (undefined: every row; asked before a transaction). */
export async function scopeFor(
  declaration: ResourceDeclaration<any>,
  context: ServerPluginContext,
  request: FastifyRequest,
  action: ResourceAction,
): Promise<SQL | undefined> {
  if (declaration.scope) return declaration.scope({ request, context }, action);
  if (!declaration.record) return undefined;
  const evaluator = context.services.evaluator;
  if (!evaluator || !request.principal) return sql`false`;
  if (!evaluator.recordFilter) return undefined;
  const filter = await evaluator.recordFilter(request.principal, resourcePermission(declaration, action));
  if (filter === true) return undefined;
  return recordFilterToSql(filter, declaration.record.columns);
}

/** The row → JSON:API resource mapping of a declaration (its relationships load with the related scope). */
function definitionOf(declaration: ResourceDeclaration<any>, context: ServerPluginContext): Compiled {
  let compiled = compiledBy.get(context);
  if (!compiled) compiledBy.set(context, (compiled = new WeakMap()));
  const known = compiled.get(declaration);
  if (known) return known;
  const shape: ResourceShape = declaration.shape;
  const columns = columnsOf(declaration);
  const idKey = idColumnKey(declaration);
  const relations = Object.entries(shape.relationships ?? {}).map(
    ([name, rel]) => [name, rel, relationshipColumn(name, rel.column)] as const,
  );
  const skip = new Set([
    idKey,
    'id',
    ...Object.keys(declaration.fixed ?? {}),
    ...(declaration.hidden ?? []),
    ...relations.map(([, , column]) => column),
    ...(shape.writeOnly ?? []).map(camelCase),
  ]);
  const keys = Object.keys(columns).filter((key) => !skip.has(key));
  const entry: Compiled = { declaration, definition: undefined as never };
  compiled.set(declaration, entry);
  entry.definition = defineResource<ResourceRow>({
    type: shape.type,
    id: (row) => String(row[idKey]),
    basePath: declaration.selfLinks === false ? undefined : `/api${shape.path}`,
    readPermission: resourcePermission(declaration, 'read'),
    attributes: declaration.present
      ? declaration.present
      : (row) => Object.fromEntries(keys.map((key) => [snakeCase(key), row[key] ?? null])),
    relationships:
      declaration.omitEmptyRelationships && relations.length === 0
        ? undefined
        : Object.fromEntries(
            relations.map(([name, rel, column]) => {
              const related = declaration.related?.[name];
              return [
                name,
                {
                  resource: () => (related ? definitionOf(related(), context).definition : typeOnly(rel.type)),
                  ids: (row: ResourceRow) => (row[column] == null ? null : String(row[column])),
                  load: related
                    ? (ids: string[], request?: FastifyRequest) => loadRelated(related(), context, ids, request)
                    : undefined,
                },
              ];
            }),
          ),
  });
  return entry;
}

/** Rows of a related declaration by id, within its fixed values and the caller's record scope. */
async function loadRelated(
  declaration: ResourceDeclaration<any>,
  context: ServerPluginContext,
  ids: string[],
  request: FastifyRequest | undefined,
): Promise<ResourceRow[]> {
  if (!request) return [];
  const columns = columnsOf(declaration);
  const idColumn = columns[idColumnKey(declaration)]!;
  const integer = (declaration.id?.kind ?? 'integer') === 'integer';
  const wanted = integer ? ids.filter((id) => INT_ID.test(id)).map(Number) : ids;
  if (wanted.length === 0) return [];
  const fixed = Object.entries(declaration.fixed ?? {}).map(([key, value]) => eq(columns[key]!, value));
  const scope = await scopeFor(declaration, context, request, 'read');
  const rows = await context.db
    .select()
    .from(declaration.table)
    .where(and(inArray(idColumn, wanted), ...fixed, scope));
  return expanded(declaration, rows, { request, context, db: context.db });
}

/** Rows with what the declaration's `expand` hook adds to them (as they are without one). */
async function expanded(
  declaration: ResourceDeclaration<any>,
  rows: ResourceRow[],
  call: { request: FastifyRequest; context: ServerPluginContext; db: Queryable },
): Promise<ResourceRow[]> {
  const expand = declaration.hooks?.expand;
  return expand && rows.length > 0 ? expand(rows, call) : rows;
}

/** `%text%` for ILIKE, with the pattern characters of the text escaped. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A resource definition that only names a type (relationship identifiers of undeclared types). */
export const typeOnly = (type: string): ResourceDefinition<any> => ({
  type,
  id: (row: { id: number }) => String(row.id),
  attributes: () => ({}),
});

/** The JSON:API resource definition of a declaration, e.g. for a hand-written route's relationship. */
export function resourceDefinitionOf(
  declaration: ResourceDeclaration<any>,
  context: ServerPluginContext,
): ResourceDefinition<ResourceRow> {
  return definitionOf(declaration, context).definition;
}

/** The strong ETag of what the caller was shown. */
const etagOf = (shown: unknown) =>
  `"${createHash('sha256').update(JSON.stringify(shown)).digest('base64url').slice(0, 27)}"`;

export function registerResource(
  router: AtriumRouter,
  context: ServerPluginContext,
  declaration: ResourceDeclaration<any>,
): void {
  const shape: ResourceShape = declaration.shape;
  const { type } = shape;
  const db: Database = context.db;
  const jsonapi = shape.style === 'jsonapi';
  const prefix = (router as { prefix?: string }).prefix ?? '';
  const fullPath = `/api${shape.path}`;
  if (!fullPath.startsWith(`${prefix}/`)) {
    throw new Error(`Resource ${type}: path ${fullPath} is not below the router's prefix ${prefix}.`);
  }
  const base = fullPath.slice(prefix.length);
  const param = declaration.id?.param ?? 'id';
  const one = `${base}:${param}/`;
  const columns = columnsOf(declaration);
  const idKey = idColumnKey(declaration);
  const idColumn = columns[idKey]!;
  const integerId = (declaration.id?.kind ?? 'integer') === 'integer';
  const { definition } = definitionOf(declaration, context);
  const relations = Object.entries(shape.relationships ?? {}).map(
    ([name, rel]) => [name, rel, relationshipColumn(name, rel.column)] as const,
  );
  const fixedWhere = Object.entries(declaration.fixed ?? {}).map(([key, value]) => eq(columns[key]!, value));
  const openapi = declaration.openapi ?? { summary: `${type} records`, tags: [] };
  const security = openapi.security ?? DEFAULT_SECURITY;
  const summaries = {
    list: `Lists ${openapi.summary}, ${shape.pageSize ?? (jsonapi ? 250 : 100)} a page.`,
    find: `One ${type}.`,
    create: `Creates a ${type}.`,
    update: `Changes a ${type}.`,
    delete: `Deletes a ${type}.`,
    ...openapi.summaries,
  };
  const routeSchema = (summary: string, more: Record<string, unknown> = {}) => ({
    summary,
    tags: openapi.tags,
    security,
    ...more,
  });
  const config = (action: ResourceAction) => ({ jsonapi, access: resourcePermission(declaration, action) });
  const notFoundDetail = (id: string) => declaration.messages?.notFound?.(id) ?? `${type} ${id} not found.`;
  const idMax = declaration.id?.maxLength ?? 20;
  const idParams = z.strictObject({
    [param]:
      declaration.id?.schema ?? (declaration.id?.trim ? z.string().trim().min(1).max(idMax) : z.string().max(idMax)),
  });
  const idOf = (request: FastifyRequest) => (request.params as Record<string, string>)[param]!;
  const alternate = declaration.id?.alternate ? columns[declaration.id.alternate]! : undefined;
  const without = new Set(declaration.without ?? []);
  const call = (request: FastifyRequest) => ({ request, context });
  const includable = relations.filter(([name]) => declaration.related?.[name]);
  const fieldTypes = [type, ...includable.map(([, rel]) => rel.type)];
  const listQuery = listQuerySchema(shape, { include: includable.length > 0, fieldTypes });
  const findQuery = jsonapi
    ? z.strictObject({
        ...(includable.length ? { include: z.string().max(300).optional() } : {}),
        ...Object.fromEntries(fieldTypes.map((t) => [`fields[${t}]`, z.string().max(1000).optional()])),
      })
    : undefined;
  let prepared: Promise<void> | undefined;
  const prepare = async () => {
    if (!declaration.hooks?.prepare) return;
    prepared ??= declaration.hooks.prepare(db).catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    await prepared;
  };

  /** The row the URL's key names; a key that cannot exist is simply not found. */
  const urlWhere = (raw: string): SQL => {
    if (alternate) {
      if (!/^\d+$/.test(raw)) return sql`lower(${alternate}) = lower(${raw})`;
      if (Number(raw) > 2147483647) throw new ApiError(404, notFoundDetail(raw));
      return eq(idColumn, Number(raw));
    }
    if (!integerId) return eq(idColumn, raw);
    if (!INT_ID.test(raw) || Number(raw) > 2147483647) throw new ApiError(404, notFoundDetail(raw));
    return eq(idColumn, Number(raw));
  };
  const expand = (rows: ResourceRow[], request: FastifyRequest, on: Queryable = db) =>
    expanded(declaration, rows, { request, context, db: on });

  const load = async (tx: Pick<Database, 'select'>, raw: string, scope: SQL | undefined, lock = false) => {
    const query = tx
      .select()
      .from(declaration.table as PgTable)
      .where(and(urlWhere(raw), ...fixedWhere, scope))
      .limit(1);
    const [row] = lock ? await query.for('update') : await query;
    if (!row) throw new ApiError(404, notFoundDetail(raw));
    return row as ResourceRow;
  };

  /**
   * A written row must stay inside the caller's record scope for the action (a note created for
   * another owner, or changed to one, by a caller who may only write their own): checked in the
   * write's transaction, after the hooks, so a refusal rolls everything back.
   */
  const assertWithin = async (tx: Pick<Database, 'select'>, row: ResourceRow, scope: SQL | undefined) => {
    // Only the evaluator's record conditions: a module's own `scope` decides its writes itself.
    if (!scope || !declaration.record) return;
    const [kept] = await tx
      .select({ id: idColumn })
      .from(declaration.table as PgTable)
      .where(and(eq(idColumn, row[idKey]), scope))
      .limit(1);
    if (!kept) throw new ApiError(403, `You may not write a ${type} with these values.`, { code: 'record_scope' });
  };

  /** What the caller is shown of one row (the ETag is computed over it). */
  const shown = (row: ResourceRow) =>
    jsonapi ? toResourceObject(definition, row) : { id: row[idKey], ...definition.attributes(row) };

  const answerOne = async (
    request: FastifyRequest,
    reply: { header(name: string, value: string): unknown },
    row: ResourceRow,
    query: Record<string, unknown> = {},
  ) => {
    row = (await expand([row], request))[0]!;
    reply.header('etag', etagOf(shown(row)));
    if (!jsonapi) return shown(row);
    return serializeDocument(definition, row, {
      include: query.include ? parseInclude(query.include as string, definition) : undefined,
      access: includeAccess(context, request),
      fields: fieldsetsOf(query),
    });
  };

  /** Attribute and relationship values of a request body as column values. */
  const toValues = (body: Record<string, any>, action: 'create' | 'update') => {
    const attributes: Record<string, unknown> = jsonapi ? (body.data.attributes ?? {}) : body;
    const given = Object.fromEntries(Object.entries(attributes).filter(([, value]) => value !== undefined));
    const values: ResourceRow = declaration.toColumns
      ? declaration.toColumns(given, action)
      : Object.fromEntries(Object.entries(given).map(([key, value]) => [camelCase(key), value]));
    if (jsonapi) {
      for (const [name, , column] of relations) {
        const doc = body.data.relationships?.[name] as { data: { id: string } | null } | undefined;
        // A related resource with text ids (contacts' `CON-1001`) takes the id as text.
        const related = declaration.related?.[name]?.();
        if (doc) values[column] = relationshipId(doc.data?.id ?? null, name, related?.id);
      }
    }
    return values;
  };

  const translate =
    (values: ResourceRow) =>
    (error: unknown): never => {
      const code = declaration.databaseErrors === 'router' ? undefined : pgCode(error);
      if (code === '23505') {
        const unique = declaration.messages?.unique;
        if (!unique) throw new ApiError(409, `A ${type} with these values already exists.`);
        const detail = unique.detail?.(values) ?? `A ${type} with this ${unique.attribute} already exists.`;
        const pointer = jsonapi ? `/data/attributes/${unique.attribute}` : `/${unique.attribute}`;
        throw new ApiError(unique.status ?? 400, detail, { source: { pointer }, code: unique.code });
      }
      if (code === '23503') {
        const foreignKey = declaration.messages?.foreignKey;
        if (foreignKey) {
          const attribute = foreignKey.attribute === undefined ? '' : `/${foreignKey.attribute}`;
          throw new ApiError(400, foreignKey.detail, {
            source: { pointer: jsonapi ? `/data/attributes${attribute}` : attribute },
          });
        }
        throw new ApiError(400, 'A related record does not exist.', {
          source: { pointer: jsonapi ? '/data/relationships' : '' },
        });
      }
      throw error;
    };

  const audit = async (
    tx: Queryable,
    request: FastifyRequest,
    action: 'create' | 'update' | 'delete',
    id: unknown,
    before?: ResourceRow,
    after?: ResourceRow,
  ) => {
    await declaration.audit?.(tx, { request, action, type, id: String(id), before, after });
    const events = declaration.events;
    const event = events && { create: events.created, update: events.updated, delete: events.deleted }[action];
    if (event) {
      const row = (after ?? before)!;
      const data = events.data ? events.data(row, action) : { id: row[idKey], ...definition.attributes(row) };
      await emitEvent(tx, event, data, { triggeringUser: request.principal?.username ?? 'system' });
    }
  };

  if (!without.has('list'))
    router.get(
      base,
      {
        config: config('read'),
        schema: routeSchema(summaries.list, { querystring: listQuery }),
      },
      async (request) => {
        await prepare();
        const query = { ...(request.query as Record<string, unknown>) };
        const page = shape.unpaged ? undefined : pageOf(shape, query);
        const conditions: SQL[] = [...fixedWhere];
        for (const name of Object.keys(shape.filters ?? {})) {
          const value = filterValue(shape, query, name);
          const filter = shape.filters![name]!;
          if (value === undefined || (filter.blankIsAbsent && value === '')) continue;
          if (filter.kind === 'search') {
            const text = String(value).trim();
            const searched = filter.columns ?? [filterColumn(shape, name)];
            if (text) conditions.push(or(...searched.map((key) => ilike(columns[key]!, containing(text))))!);
            continue;
          }
          const compared = filter.kind === 'boolean' ? (value === 'true') !== (filter.negate ?? false) : value;
          conditions.push(eq(columns[filterColumn(shape, name)]!, compared));
        }
        const scope = await scopeFor(declaration, context, request, 'read');
        if (scope) conditions.push(scope);
        const where = conditions.length ? and(...conditions) : undefined;
        const include = query.include ? parseInclude(query.include as string, definition) : undefined;
        const order = orderOf(shape, query);
        const orderColumns = (declaration.orderColumns?.[order.name] ?? [camelCase(order.name)])
          .map((key) => columns[key])
          .filter((column): column is PgColumn => column !== undefined);
        if (orderColumns.length === 0) orderColumns.push(idColumn);
        const ordered = [
          ...orderColumns.map((column) => (order.descending ? desc(column) : asc(column))),
          ...(orderColumns.includes(idColumn) ? [] : [asc(idColumn)]),
        ];
        if (!page) {
          const all = (await db
            .select()
            .from(declaration.table as PgTable)
            .where(where)
            .orderBy(...ordered)) as ResourceRow[];
          return { count: all.length, results: (await expand(all, request)).map(shown) };
        }
        const [total] = await db
          .select({ n: count() })
          .from(declaration.table as PgTable)
          .where(where);
        const rows = await expand(
          (await db
            .select()
            .from(declaration.table as PgTable)
            .where(where)
            .orderBy(...ordered)
            .limit(page.size)
            .offset(page.offset)) as ResourceRow[],
          request,
        );
        const n = total?.n ?? 0;
        if (!jsonapi) {
          return {
            count: n,
            next: page.number * page.size < n ? plainPageLink(request.url, page.number + 1) : null,
            previous:
              page.number > 1
                ? plainPageLink(request.url, Math.min(page.number - 1, Math.max(1, Math.ceil(n / page.size))))
                : null,
            results: rows.map(shown),
          };
        }
        const { links, meta } = paginationLinks(fullPath, query, page, n);
        return serializeDocument(definition, rows, {
          links,
          meta,
          include,
          access: includeAccess(context, request),
          fields: fieldsetsOf(query),
        });
      },
    );

  if (!without.has('find')) {
    router.get(
      one,
      {
        config: config('read'),
        schema: routeSchema(summaries.find, { params: idParams, ...(findQuery ? { querystring: findQuery } : {}) }),
      },
      async (request, reply) => {
        await prepare();
        const id = idOf(request);
        const row = await load(db, id, await scopeFor(declaration, context, request, 'read'));
        return answerOne(request, reply, row, request.query as Record<string, unknown>);
      },
    );

    for (const [name, rel, column] of relations) {
      router.get(
        `${one}relationships/${name}`,
        {
          config: config('read'),
          schema: routeSchema(`The ${name} of a ${type} (its identifier).`, { params: idParams }),
        },
        async (request) => {
          await prepare();
          const id = idOf(request);
          const row = await load(db, id, await scopeFor(declaration, context, request, 'read'));
          const related = row[column] == null ? null : { type: rel.type, id: String(row[column]) };
          if (!jsonapi) return { [`${name}_id`]: related?.id ?? null };
          return {
            jsonapi: { version: '1.1' },
            links: { self: `${fullPath}${id}/relationships/${name}` },
            data: related,
          };
        },
      );
    }
  }

  if (shape.readOnlyResource) return;

  const relationshipShape = Object.fromEntries(
    relations.map(([name, rel]) => [name, toOneRelationship(rel.type).optional()]),
  );
  const updateAttributes =
    declaration.updateAttributes ??
    Object.fromEntries(
      Object.entries(shape.attributes).map(([key, schema]) => [key, (schema as z.ZodType).optional()]),
    );
  const createBody = jsonapi
    ? resourceDocument(type, shape.attributes, { relationships: relationshipShape })
    : z.strictObject(shape.attributes);
  const updateBody = jsonapi
    ? resourceDocument(type, updateAttributes, { id: 'required', relationships: relationshipShape })
    : z.strictObject(updateAttributes);

  if (!without.has('create'))
    router.post(
      base,
      { config: config('create'), schema: routeSchema(summaries.create, { body: createBody }) },
      async (request, reply) => {
        await prepare();
        const body = request.body as Record<string, any>;
        if (jsonapi) {
          const data = body.data as { attributes?: Record<string, unknown>; relationships?: Record<string, any> };
          for (const [key, schema] of Object.entries(shape.attributes)) {
            if (data.attributes?.[key] === undefined && !(schema as z.ZodType).safeParse(undefined).success) {
              throw new ApiError(400, 'This field is required.', {
                source: { pointer: `/data/attributes/${key}` },
                code: declaration.messages?.requiredCode,
              });
            }
          }
          for (const [name, rel] of relations) {
            if (rel.required && !data.relationships?.[name]?.data) {
              throw new ApiError(400, 'This field is required.', {
                source: { pointer: `/data/relationships/${name}` },
              });
            }
          }
        }
        const values = { ...toValues(body, 'create'), ...(declaration.fixed ?? {}) };
        await declaration.hooks?.validate?.(values, {
          ...call(request),
          action: 'create',
          before: async () => undefined,
        });
        const scope = await scopeFor(declaration, context, request, 'create');
        const made = await db
          .transaction(async (tx) => {
            const insert = declaration.hooks?.insert;
            const written = insert
              ? await insert(tx, values, call(request))
              : {
                  row: ((await tx.insert(declaration.table).values(values).returning()) as ResourceRow[])[0]!,
                  created: true,
                };
            if (!written.created) return written;
            const row = written.row;
            await audit(tx, request, 'create', row[idKey], undefined, row);
            await declaration.hooks?.afterWrite?.(tx, { action: 'create', after: row, ...call(request) });
            await assertWithin(tx, row, scope);
            return written;
          })
          .catch(translate(values));
        reply.status(made.created ? 201 : 200);
        return answerOne(request, reply, made.row);
      },
    );

  const change = (method: 'patch' | 'put') =>
    router[method](
      one,
      { config: config('update'), schema: routeSchema(summaries.update, { params: idParams, body: updateBody }) },
      async (request, reply) => {
        await prepare();
        const id = idOf(request);
        const body = request.body as Record<string, any>;
        if (jsonapi && body.data.id !== id) {
          const bodyId = body.data.id as string | undefined;
          throw new ApiError(
            409,
            declaration.messages?.idMismatch?.(bodyId) ??
              `The id in the document ('${bodyId}') is not the id in the URL.`,
            { source: { pointer: '/data/id' } },
          );
        }
        const values = toValues(body, 'update');
        const scope = await scopeFor(declaration, context, request, 'update');
        await declaration.hooks?.validate?.(values, {
          ...call(request),
          action: 'update',
          before: () => load(db, id, scope),
        });
        const ifMatch = request.headers['if-match'];
        const updated = await db
          .transaction(async (tx) => {
            const before = await load(tx, id, scope, ifMatch !== undefined);
            if (ifMatch !== undefined) {
              const tags = ifMatch.split(',').map((t) => t.trim());
              const [seen] = await expand([before], request, tx);
              if (!tags.includes('*') && !tags.includes(etagOf(shown(seen!)))) {
                throw new ApiError(
                  412,
                  `The ${type} was changed by someone else since you read it. Reload it and try again.`,
                  {
                    source: { header: 'if-match' },
                    code: 'stale_etag',
                  },
                );
              }
            }
            if (Object.keys(values).length === 0) return before;
            const [row] = (await tx
              .update(declaration.table)
              .set(values)
              .where(eq(idColumn, before[idKey]))
              .returning()) as ResourceRow[];
            await audit(tx, request, 'update', before[idKey], before, row);
            await declaration.hooks?.afterWrite?.(tx, { action: 'update', before, after: row, ...call(request) });
            await assertWithin(tx, row!, scope);
            return row!;
          })
          .catch(translate(values));
        return answerOne(request, reply, updated);
      },
    );
  if (!without.has('update')) change('patch');
  if (declaration.allowPut && !without.has('update')) change('put');

  if (!without.has('delete'))
    router.delete(
      one,
      { config: config('delete'), schema: routeSchema(summaries.delete, { params: idParams }) },
      async (request, reply) => {
        await prepare();
        const id = idOf(request);
        const scope = await scopeFor(declaration, context, request, 'delete');
        if (declaration.hooks?.beforeDelete)
          await declaration.hooks.beforeDelete(await load(db, id, scope), call(request));
        await db
          .transaction(async (tx) => {
            const before = await load(tx, id, scope);
            await tx.delete(declaration.table).where(eq(idColumn, before[idKey]));
            await audit(tx, request, 'delete', before[idKey], before);
            await declaration.hooks?.afterWrite?.(tx, { action: 'delete', before, ...call(request) });
          })
          .catch((error: unknown) => {
            if (declaration.databaseErrors !== 'router' && pgCode(error) === '23503') {
              throw new ApiError(409, `The ${type} is in use and cannot be deleted.`);
            }
            throw error;
          });
        return reply.status(204).send();
      },
    );
}

/** An id in a relationship document; a bad one points at the relationship. */
function relationshipId(
  value: string | null,
  relationship: string,
  idOf?: { kind: 'integer' | 'text'; maxLength?: number },
): number | string | null {
  if (value == null) return null;
  if (idOf?.kind === 'text') {
    if (typeof value !== 'string' || value.length === 0 || value.length > (idOf.maxLength ?? 200)) {
      throw new ApiError(400, `'${String(value)}' is not a valid id.`, {
        source: { pointer: `/data/relationships/${relationship}/data/id` },
      });
    }
    return value;
  }
  if (!INT_ID.test(value) || Number(value) > 2147483647) {
    throw new ApiError(400, `'${value}' is not a valid id.`, {
      source: { pointer: `/data/relationships/${relationship}/data/id` },
    });
  }
  return Number(value);
}

/** Registers several declarations (a module's collections) in one call. */
export function registerResources(
  router: AtriumRouter,
  context: ServerPluginContext,
  declarations: ResourceDeclaration<any>[],
): void {
  for (const declaration of declarations) registerResource(router, context, declaration);
}
