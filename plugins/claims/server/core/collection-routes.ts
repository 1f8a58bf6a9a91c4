import { and, asc, count, desc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  ApiError,
  attributeError,
  defineResource,
  pageQuerySchema,
  paginationLinks,
  resourceDocument,
  serializeDocument,
  toOneRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type Database,
  type ResourceDefinition,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import type { FastifyRequest } from 'fastify';
import { claimsPermission } from '../permissions.js';
import { claimAccessFilter } from './claim-access.js';
import { claimScope } from './claim-scope.js';
import { claim } from './tables.js';
import { filterShape as withFilterAliases, filterValue, idSort } from './query-filters.js';
import {
  CLAIMS_BASE,
  JSONAPI_PAGE_SIZE,
  callerOf,
  isForeignKeyViolation,
  isUniqueViolation,
  numericId,
  relationshipId,
  requireMatchingId,
  security,
  tags,
  writeAudit,
} from './http-kit.js';

/**
 * A generic JSON:API collection over one table: list (paged, filters), create, find, update, delete,
 * each write audited in its transaction. Attributes are the table's columns in snake_case; to-one
 * relationships are the `<name>Id` columns named in `relationships`. The many small claim kinds
 * (risks, locations, damages, lookups …) are all declared with it; claims and exposures have their
 * own routes because they carry statuses, numbers and ETags.
 *
 * A table with a `claimId` column holds rows of claims (parties, risks, events …): the list and every
 * route on one row see only the rows of claims the caller may read (claimScope), a hidden one is a
 * 404 like a missing one, and a row cannot be put on a claim the caller cannot read. Such tables need
 * the plugin context (for the evaluator), so registering one without it is a programming error.
 */
type Thing = Parameters<typeof claimsPermission>[0];
type AnyTable = PgTable & { id: PgColumn };

export interface CollectionOptions {
  /** Collection path below /api/claims, e.g. `risks` or `risk-types`. */
  path: string;
  /** JSON:API type, e.g. `risk`. */
  type: string;
  table: AnyTable;
  thing: Thing;
  summary: string;
  /** Writable attributes (snake_case) as they must be on create; update takes any subset. */
  attributes: Record<string, z.ZodType>;
  /** To-one relationships: name → related type and the column key holding its id. */
  relationships?: Record<string, { type: string; column: string; required?: boolean }>;
  /** Column values every row of this collection has (a lookup's kind); hidden from clients. */
  fixed?: Record<string, unknown>;
  /** Column keys never shown (file bytes, secrets). */
  hidden?: string[];
  /** Query parameters that filter the list, each naming an integer or text column key. */
  filters?: Record<string, { column: string; kind: 'integer' | 'text' | 'boolean' }>;
  /** An attribute whose uniqueness violation is reported on its pointer. */
  uniqueAttribute?: string;
  readOnly?: boolean;
  /** Also answer PUT on one record (the contacts integration's clients replace with PUT). */
  allowPut?: boolean;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A resource definition that only names a type (for relationship identifiers). */
export const typeOnly = (type: string): ResourceDefinition<any> => ({
  type,
  id: (row: { id: number }) => String(row.id),
  attributes: () => ({}),
});

export function collectionResource(options: CollectionOptions): ResourceDefinition<Record<string, any>> {
  const relationColumns = new Set(Object.values(options.relationships ?? {}).map((r) => r.column));
  const skip = new Set(['id', ...Object.keys(options.fixed ?? {}), ...(options.hidden ?? []), ...relationColumns]);
  const keys = Object.keys(getTableColumns(options.table)).filter((key) => !skip.has(key));
  return defineResource<Record<string, any>>({
    type: options.type,
    id: (row) => String(row.id),
    basePath: `${CLAIMS_BASE}/${options.path}/`,
    attributes: (row) => Object.fromEntries(keys.map((key) => [snake(key), row[key] ?? null])),
    relationships: Object.fromEntries(
      Object.entries(options.relationships ?? {}).map(([name, rel]) => [
        name,
        {
          resource: () => typeOnly(rel.type),
          ids: (row: Record<string, any>) => (row[rel.column] == null ? null : String(row[rel.column])),
        },
      ]),
    ),
  });
}

function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

export function registerCollection(
  router: AtriumRouter,
  db: Database,
  options: CollectionOptions,
  context?: ServerPluginContext,
): void {
  const { table, type, thing } = options;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const claimColumn = columns.claimId;
  if (claimColumn && !context) {
    throw new Error(`Collection ${options.path} holds rows of claims: register it with the plugin context.`);
  }
  const claimRelationship = Object.entries(options.relationships ?? {}).find(([, rel]) => rel.column === 'claimId');
  /** The condition keeping rows of claims the caller may read (undefined: no claim column or no record condition). */
  const scopeOf = async (request: FastifyRequest) =>
    claimColumn ? claimScope(context!, request, claimColumn) : undefined;
  /**
   * A claim named on a write must be one the caller may read. Asked before the transaction (the
   * evaluator may read the database); a hidden claim and a missing one get the same answer.
   */
  const requireReadableClaim = async (request: FastifyRequest, claimId: unknown) => {
    if (!claimColumn || typeof claimId !== 'number') return;
    const readable = await claimAccessFilter(context!, request, 'read');
    if (!readable) return;
    const [found] = await db
      .select({ id: claim.id })
      .from(claim)
      .where(and(eq(claim.id, claimId), readable))
      .limit(1);
    if (found) return;
    const pointer = claimRelationship
      ? `/data/relationships/${claimRelationship[0]}/data/id`
      : '/data/attributes/claim_id';
    throw new ApiError(400, `Claim ${claimId} not found.`, { source: { pointer } });
  };
  const resource = collectionResource(options);
  const base = `/${options.path}/`;
  const notFound = (id: string) => new ApiError(404, `${type} ${id} not found.`);
  const fixedWhere = Object.entries(options.fixed ?? {}).map(([key, value]) => eq(columns[key]!, value));
  const relationshipShape = Object.fromEntries(
    Object.entries(options.relationships ?? {}).map(([name, rel]) => [name, toOneRelationship(rel.type).optional()]),
  );
  const updateShape = Object.fromEntries(Object.entries(options.attributes).map(([k, v]) => [k, v.optional()]));
  const idParams = z.strictObject({ id: z.string().max(20) });
  const filterShape = withFilterAliases(
    Object.fromEntries(
      Object.entries(options.filters ?? {}).map(([name, filter]) => [
        name,
        filter.kind === 'integer'
          ? z.coerce.number().int().min(1).max(2147483647).optional()
          : filter.kind === 'boolean'
            ? z.enum(['true', 'false']).optional()
            : z.string().max(200).optional(),
      ]),
    ),
  );

  /** One row; `scope` (scopeOf, asked before any transaction) hides rows of claims the caller cannot read. */
  const load = async (tx: Pick<Database, 'select'>, rawId: string, scope: SQL | undefined) => {
    const id = numericId(rawId, `${type} ${rawId} not found.`);
    const [row] = await tx
      .select()
      .from(table as PgTable)
      .where(and(eq(table.id, id), ...fixedWhere, scope))
      .limit(1);
    if (!row) throw notFound(rawId);
    return row as Record<string, any>;
  };

  /** Attribute and relationship values of a document as column values. */
  const toValues = (data: { attributes?: Record<string, unknown>; relationships?: Record<string, unknown> }) => {
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data.attributes ?? {}))
      if (value !== undefined) values[camel(key)] = value;
    for (const [name, rel] of Object.entries(options.relationships ?? {})) {
      const doc = data.relationships?.[name] as { data: { id: string } | null } | undefined;
      if (doc) values[rel.column] = relationshipId(doc.data?.id ?? null, name);
    }
    return values;
  };

  const translate = (error: unknown): never => {
    if (isUniqueViolation(error)) {
      throw options.uniqueAttribute
        ? attributeError(options.uniqueAttribute, `A ${type} with this ${options.uniqueAttribute} already exists.`)
        : new ApiError(409, `A ${type} with these values already exists.`);
    }
    if (isForeignKeyViolation(error)) {
      throw new ApiError(400, 'A related record does not exist.', { source: { pointer: '/data/relationships' } });
    }
    throw error;
  };

  router.get(
    base,
    {
      config: { jsonapi: true, access: claimsPermission(thing, 'read') },
      schema: {
        summary: `Lists ${options.summary}, 250 a page.`,
        tags,
        security,
        querystring: z.strictObject({ ...pageQuerySchema(JSONAPI_PAGE_SIZE), ...filterShape, sort: idSort }),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown> & { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const conditions: SQL[] = [...fixedWhere];
      for (const [name, filter] of Object.entries(options.filters ?? {})) {
        const value = filterValue(query, name);
        if (value === undefined) continue;
        conditions.push(eq(columns[filter.column]!, filter.kind === 'boolean' ? value === 'true' : value));
      }
      const scope = await scopeOf(request);
      if (scope) conditions.push(scope);
      const where = conditions.length ? and(...conditions) : undefined;
      const [total] = await db
        .select({ n: count() })
        .from(table as PgTable)
        .where(where);
      const rows = await db
        .select()
        .from(table as PgTable)
        .where(where)
        .orderBy(query.sort === '-id' ? desc(table.id) : asc(table.id))
        .limit(page.size)
        .offset(page.offset);
      const { links, meta } = paginationLinks(`${CLAIMS_BASE}${base}`, query, page, total?.n ?? 0);
      return serializeDocument(resource, rows as Record<string, any>[], { links, meta });
    },
  );

  router.get(
    `${base}:id/`,
    {
      config: { jsonapi: true, access: claimsPermission(thing, 'read') },
      schema: { summary: `One ${type}.`, tags, security, params: idParams },
    },
    async (request) => serializeDocument(resource, await load(db, request.params.id, await scopeOf(request))),
  );

  if (options.readOnly) return;

  router.post(
    base,
    {
      config: { jsonapi: true, access: claimsPermission(thing, 'create') },
      schema: {
        summary: `Creates a ${type}.`,
        tags,
        security,
        body: resourceDocument(type, options.attributes, { relationships: relationshipShape }),
      },
    },
    async (request, reply) => {
      const data = request.body.data as {
        attributes?: Record<string, unknown>;
        relationships?: Record<string, unknown>;
      };
      for (const [key, schema] of Object.entries(options.attributes)) {
        if (data.attributes?.[key] === undefined && !isOptional(schema as z.ZodType)) {
          throw attributeError(key, 'This field is required.');
        }
      }
      for (const [name, rel] of Object.entries(options.relationships ?? {})) {
        if (rel.required && !(data.relationships?.[name] as { data?: unknown } | undefined)?.data) {
          throw new ApiError(400, 'This field is required.', { source: { pointer: `/data/relationships/${name}` } });
        }
      }
      const values = { ...toValues(data), ...(options.fixed ?? {}) };
      await requireReadableClaim(request, values.claimId);
      const created = await db
        .transaction(async (tx) => {
          const [row] = (await tx.insert(table).values(values).returning()) as Record<string, any>[];
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'create',
            entityType: type,
            entityId: row!.id,
            claimId: row!.claimId ?? null,
            after: row,
          });
          return row!;
        })
        .catch(translate);
      reply.status(201);
      return serializeDocument(resource, created);
    },
  );

  const patchRoute = (method: 'patch' | 'put') =>
    router[method](
      `${base}:id/`,
      {
        config: { jsonapi: true, access: claimsPermission(thing, 'update') },
        schema: {
          summary: `Changes a ${type}.`,
          tags,
          security,
          params: idParams,
          body: resourceDocument(type, updateShape, { id: 'required', relationships: relationshipShape }),
        },
      },
      async (request) => {
        requireMatchingId(request.body.data.id, request.params.id);
        const values = toValues(request.body.data as never);
        const scope = await scopeOf(request);
        await requireReadableClaim(request, values.claimId);
        const updated = await db
          .transaction(async (tx) => {
            const before = await load(tx, request.params.id, scope);
            if (Object.keys(values).length === 0) return before;
            const [row] = (await tx
              .update(table)
              .set(values)
              .where(eq(table.id, before.id as number))
              .returning()) as Record<string, any>[];
            await writeAudit(tx, {
              username: callerOf(request),
              action: 'update',
              entityType: type,
              entityId: before.id,
              claimId: before.claimId ?? null,
              before,
              after: row,
            });
            return row!;
          })
          .catch(translate);
        return serializeDocument(resource, updated);
      },
    );
  patchRoute('patch');
  if (options.allowPut) patchRoute('put');

  router.delete(
    `${base}:id/`,
    {
      config: { jsonapi: true, access: claimsPermission(thing, 'delete') },
      schema: { summary: `Deletes a ${type}.`, tags, security, params: idParams },
    },
    async (request, reply) => {
      const scope = await scopeOf(request);
      await db
        .transaction(async (tx) => {
          const before = await load(tx, request.params.id, scope);
          await tx.delete(table).where(eq(table.id, before.id as number));
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'delete',
            entityType: type,
            entityId: before.id,
            claimId: before.claimId ?? null,
            before,
          });
        })
        .catch((error: unknown) => {
          if (isForeignKeyViolation(error)) throw new ApiError(409, `The ${type} is in use and cannot be deleted.`);
          throw error;
        });
      return reply.status(204).send();
    },
  );
}
