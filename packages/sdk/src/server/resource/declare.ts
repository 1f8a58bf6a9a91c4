import type { SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Permission } from '../access.js';
import type { Database, Queryable, ServerPluginContext } from '../define-server-plugin.js';
import type { EventDefinition } from '../events.js';
import type { RecordColumns } from '../record-filter-sql.js';
import type { ResourceShape } from '../../shared/resource-shape.js';

/**
 * The server half of a resource declaration (docs/plugins.md, "A resource in one declaration"): the
 * shared shape plus the table, the permission, the record scope and hooks for what is not generic.
 * `registerResource` turns it into list, find, create, update, delete and relationship routes.
 */
export type ResourceAction = 'read' | 'create' | 'update' | 'delete';

/** A row as Drizzle returns it (column keys in camelCase). */
export type ResourceRow = Record<string, any>;

export interface ResourceCall {
  request: FastifyRequest;
  context: ServerPluginContext;
}

export interface ResourceAuditEntry {
  request: FastifyRequest;
  action: 'create' | 'update' | 'delete';
  type: string;
  /** The row's id as the URL names it. */
  id: string;
  before?: ResourceRow;
  after?: ResourceRow;
}

export interface ResourceHooks {
  /** Runs before every route (built-in rows seeded once, …). */
  prepare?(db: Database): Promise<void>;
  /**
   * Validation across fields and checks that read other tables, before the transaction opens (the
   * evaluator may read the database). `values` are column values; throw an ApiError to refuse.
   */
  validate?(
    values: ResourceRow,
    call: ResourceCall & { action: 'create' | 'update'; before: () => Promise<ResourceRow | undefined> },
  ): Promise<void> | void;
  /**
   * Adds to rows what they show from other tables (a count, the latest child), one query for a whole
   * page: every row shown — listed, found, written, included, compared with If-Match — passes through
   * it first (`db` is the write's transaction where there is one); `present` shows what it added.
   */
  expand?(rows: ResourceRow[], call: ResourceCall & { db: Queryable }): Promise<ResourceRow[]>;
  /** Refuses a delete (409 in use, built in …), before the transaction. */
  beforeDelete?(row: ResourceRow, call: ResourceCall): Promise<void> | void;
  /**
   * Writes a create's row in place of the plain insert, in the write's transaction: a create that may
   * find its row instead of making it (a claim party's one payee) answers `created: false` — 200, not
   * audited, no event, no `afterWrite`.
   */
  insert?(tx: Queryable, values: ResourceRow, call: ResourceCall): Promise<{ row: ResourceRow; created: boolean }>;
  /** Side effects in the write's own transaction, after the row is written and audited. */
  afterWrite?(
    tx: Queryable,
    change: { action: 'create' | 'update' | 'delete'; before?: ResourceRow; after?: ResourceRow } & ResourceCall,
  ): Promise<void>;
}

export interface ResourceMessages {
  /** 404 detail; defaults to `<type> <id> not found.` */
  notFound?: (id: string) => string;
  /** 409 detail when a PATCH document's id is not the URL's; defaults to the claims wording. */
  idMismatch?: (bodyId: string | undefined) => string;
  /** A unique violation: reported on `attribute` (400 unless `status`), else a 409 on the document. */
  unique?: { attribute: string; detail?: (values: ResourceRow) => string; status?: number; code?: string };
  /** The `code` of a create's 'This field is required.' errors (routes that always sent one). */
  requiredCode?: string;
  /**
   * A foreign key violation on a write: 400 with `detail`, pointing at `attribute` (at the attributes
   * when none is named) — for ids written as attributes, not relationships; defaults to 'A related
   * record does not exist.' at the relationships.
   */
  foreignKey?: { detail: string; attribute?: string };
}

export interface ResourceDeclaration<S extends ResourceShape = ResourceShape> {
  shape: S;
  table: PgTable;
  /**
   * The column that names a row in URLs; defaults to `id`, a positive integer. `param` names the URL
   * parameter (`:id` by default); `alternate` is a second column that names a row too, matched in any
   * case when the URL's key is not all digits (a line by id or by name). `trim`: the URL's key is
   * taken without surrounding spaces, and one of spaces only is a 400 (lines' `{line}` always was).
   */
  id?: {
    column: string;
    kind: 'integer' | 'text';
    maxLength?: number;
    param?: string;
    alternate?: string;
    trim?: boolean;
    /** The URL parameter's schema in place of the default (a route that always answered 400 to a bad id). */
    schema?: z.ZodType<string>;
  };
  /**
   * `resource` with the actions read/create/update/delete; `actions` names another permission for
   * an action (payment methods are read with claims:transaction, written with claims:lookup).
   */
  permission: { resource: string; actions?: Partial<Record<ResourceAction, Permission>> };
  /**
   * Record scope: the rows the caller may `action`, as SQL, asked before any transaction (undefined:
   * every row). Either `record` (the access evaluator's record filter compiled over these columns)
   * or `scope` for a condition of the module's own (rows that follow their claim). With `record`, a
   * created or changed row must also meet the caller's create or update condition (else 403, rolled
   * back); a module's own `scope` checks its writes itself (claims: the claim named must be readable).
   */
  record?: { columns: RecordColumns };
  scope?: (call: ResourceCall, action: ResourceAction) => Promise<SQL | undefined>;
  /** Column values every row has (a lookup's kind); hidden and never written by clients. */
  fixed?: ResourceRow;
  /** Column keys never shown (file bytes, versions). */
  hidden?: readonly string[];
  /** Related declarations by relationship name, for `include=` (each checked with its own permission and scope). */
  related?: Record<string, () => ResourceDeclaration<any>>;
  /** A change accepts these attributes instead of the partial create attributes. */
  updateAttributes?: Record<string, z.ZodType>;
  /** The attributes shown for a row; defaults to its columns in snake_case. */
  present?: (row: ResourceRow) => Record<string, unknown>;
  /** Column values of written attributes; defaults to each attribute's camelCase column. */
  toColumns?: (attributes: Record<string, unknown>, action: 'create' | 'update') => ResourceRow;
  /** Audit entry in the write's transaction (the module's own audit log). */
  audit?: (tx: Queryable, entry: ResourceAuditEntry) => Promise<void>;
  /**
   * Domain events written to the outbox in the write's transaction, after the audit entry (so an
   * event exists exactly when its change committed). Each must be in the plugin's `events`. The data
   * defaults to the record as a plain client reads it (`{id, ...attributes}`; a delete's is the
   * record before); `data` shapes it otherwise. A row that fails the event's schema rolls the write
   * back: declare the schema to match what is written.
   */
  events?: {
    created?: EventDefinition<any>;
    updated?: EventDefinition<any>;
    deleted?: EventDefinition<any>;
    data?: (row: ResourceRow, action: 'create' | 'update' | 'delete') => unknown;
  };
  hooks?: ResourceHooks;
  messages?: ResourceMessages;
  /**
   * What the database refuses (a unique or foreign key violation): `translate` (the default) answers
   * with `messages.unique` or the generic 409/400; `router` leaves it to the router's error handler
   * (a module that answers such races in one place of its own).
   */
  databaseErrors?: 'translate' | 'router';
  openapi?: {
    summary: string;
    tags: string[];
    security?: Record<string, string[]>[];
    /** Per-route summaries instead of the generated ones. */
    summaries?: Partial<Record<'list' | 'find' | 'create' | 'update' | 'delete', string>>;
  };
  /**
   * An ordering by several columns: the ordering's name → column keys, compared in turn (authority
   * limits: subject type, subject, kind). Without it an ordering is its own column, then the id.
   */
  orderColumns?: Record<string, readonly string[]>;
  /** A resource without relationships leaves out the empty `relationships` member (one that never had it). */
  omitEmptyRelationships?: boolean;
  /** JSON:API resource objects carry `links.self`; off for resources that never had them. */
  selfLinks?: boolean;
  /**
   * Routes it does not have: writes (a collection whose rows are never deleted through the API), the
   * list (records read one at a time, listed only inside another resource) or find (a log that is
   * only listed; its relationship routes go with it).
   */
  without?: readonly ('list' | 'find' | 'create' | 'update' | 'delete')[];
  /** Also answer PUT on one record (clients that replace with PUT). */
  allowPut?: boolean;
}

/** Declares the server half; the shape is the shared half the web half imports too. */
export function declareResource<S extends ResourceShape>(declaration: ResourceDeclaration<S>): ResourceDeclaration<S> {
  for (const key of Object.keys(declaration.related ?? {})) {
    if (!declaration.shape.relationships?.[key]) {
      throw new Error(`Resource ${declaration.shape.type}: related '${key}' is not one of its relationships.`);
    }
  }
  return declaration;
}

export function resourcePermission(declaration: ResourceDeclaration<any>, action: ResourceAction): Permission {
  return declaration.permission.actions?.[action] ?? { resource: declaration.permission.resource, action };
}
