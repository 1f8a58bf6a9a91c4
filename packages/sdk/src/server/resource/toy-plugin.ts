import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import { integer, pgSchema, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { defineAuditLog } from '../audit.js';
import { defineServerPlugin } from '../define-server-plugin.js';
import { defineEvent } from '../events.js';
import { ApiError, attributeError } from '../http-problem.js';
import { pageQuerySchema, toPageRequest } from '../jsonapi/pagination.js';
import { pageOfRows } from '../page-of-rows.js';
import { defineResourceShape } from '../../shared/resource-shape.js';
import { declareResource } from './declare.js';
import { registerResources } from './register.js';

/**
 * A toy module for the resource declaration's own tests (resource.api.test.ts): notes (JSON:API, a
 * record scope on their owner, a tag relationship, a hook across fields and a side effect in the
 * write's transaction), tags (plain style) and the audit entries both write (plain, read-only).
 */
const toy = pgSchema('toy');
export const toyTag = toy.table('tag', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  uses: integer('uses').notNull().default(0),
});
export const toyNote = toy.table('note', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  body: text('body'),
  secret: text('secret'),
  owner: text('owner').notNull(),
  rank: integer('rank').notNull().default(0),
  tagId: integer('tag_id').references(() => toyTag.id),
});
export const toyAudit = toy.table('audit', {
  id: serial('id').primaryKey(),
  action: text('action').notNull(),
  entityType: text('entity_type').notNull(),
  entityId: text('entity_id').notNull(),
  username: text('username').notNull(),
  at: timestamp('at').notNull().defaultNow(),
});

export const noteShape = defineResourceShape({
  type: 'note',
  path: '/toy/notes/',
  style: 'jsonapi',
  attributes: {
    title: z.string().trim().min(1).max(100),
    body: z.string().max(2000).nullable().optional(),
    secret: z.string().max(100).optional(),
    owner: z.string().max(200),
    rank: z.number().int().min(0).max(1000).optional(),
  },
  writeOnly: ['secret'],
  relationships: { tag: { type: 'tag' } },
  filters: { owner: { kind: 'text' }, tag_id: { kind: 'integer', aliases: ['filter[tag]'] } },
  orderings: ['id', 'rank'],
  pageSize: 2,
});

export const tagShape = defineResourceShape({
  type: 'tag',
  path: '/toy/tags/',
  style: 'plain',
  attributes: { name: z.string().trim().min(1, 'Name is required.').max(50) },
  readOnly: ['uses'],
  filters: { name: { kind: 'text' } },
  orderings: ['name', 'id'],
});

export const auditShape = defineResourceShape({
  type: 'audit-entry',
  path: '/toy/audit/',
  style: 'plain',
  attributes: {},
  filters: { entity_type: { kind: 'text' } },
  readOnlyResource: true,
});

const audit = declareResource({
  shape: auditShape,
  table: toyAudit,
  permission: { resource: 'toy:audit' },
});

/** The toy module's audit log (who, what, which record; no before/after columns). */
const writeAudit = defineAuditLog(toyAudit).forResource();

export const tags = declareResource({
  shape: tagShape,
  table: toyTag,
  permission: { resource: 'toy:tag' },
  audit: writeAudit,
  messages: { unique: { attribute: 'name', detail: (v) => `A tag named ${String(v.name)} already exists.` } },
});

/** A note as its events carry it: the record as a plain client reads it (the declaration's default). */
const noteEventData = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string().nullable(),
  owner: z.string(),
  rank: z.number().int(),
});
const noteEvent = (action: 'created' | 'updated' | 'deleted') =>
  defineEvent({
    topic: `toy.note.${action}`,
    schemaId: 'toy.note',
    version: '1.0.0',
    description: `A note was ${action}.`,
    data: noteEventData,
  });
export const noteEvents = {
  created: noteEvent('created'),
  updated: noteEvent('updated'),
  deleted: noteEvent('deleted'),
};

export const notes = declareResource({
  shape: noteShape,
  table: toyNote,
  permission: { resource: 'toy:note' },
  record: { columns: { owner: toyNote.owner, rank: toyNote.rank } },
  related: { tag: () => tags },
  audit: writeAudit,
  events: noteEvents,
  hooks: {
    validate(values) {
      if (values.body !== undefined && values.body === values.title) {
        throw attributeError('body', 'The body must say more than the title.');
      }
    },
    async afterWrite(tx, change) {
      // A side effect that refuses after the row, its audit entry and its event are written: the
      // test checks that none of the three survives (one transaction).
      if (change.after?.title === 'Rolled back') throw new ApiError(409, 'This note may not be kept.');
      const tagId = change.after?.tagId as number | null | undefined;
      if (change.action === 'create' && tagId) {
        await tx
          .update(toyTag)
          .set({ uses: sql`${toyTag.uses} + 1` })
          .where(eq(toyTag.id, tagId));
      }
    },
  },
});

/**
 * The same tags as a small plain collection (lines' `lines/lines/` form): every row at once, a search
 * over the name, a tag named in URLs by id or name (`:tag`, spaces around it ignored), each with how many notes it has (a
 * page's counts in one query), no delete, and a taken name answered by the router's own handler.
 */
export const tagListShape = defineResourceShape({
  type: 'tag-entry',
  path: '/toy/tag-list/',
  style: 'plain',
  unpaged: true,
  attributes: { name: z.string().trim().min(1).max(50) },
  filters: { search: { kind: 'search', aliases: ['q'], columns: ['name'] } },
  orderings: ['name'],
});

export const tagList = declareResource({
  shape: tagListShape,
  table: toyTag,
  id: { column: 'id', kind: 'integer', param: 'tag', alternate: 'name', maxLength: 100, trim: true },
  permission: { resource: 'toy:tag' },
  without: ['delete'],
  databaseErrors: 'router',
  present: (row) => ({ name: row.name, notes: row.notes }),
  hooks: {
    async expand(rows, call) {
      const counts = await call.db
        .select({ tagId: toyNote.tagId, n: count() })
        .from(toyNote)
        .where(
          inArray(
            toyNote.tagId,
            rows.map((row) => row.id as number),
          ),
        )
        .groupBy(toyNote.tagId);
      return rows.map((row) => ({ ...row, notes: counts.find((c) => c.tagId === row.id)?.n ?? 0 }));
    },
  },
  messages: { notFound: (ref) => (/^\d+$/.test(ref) ? `Tag ${ref} not found.` : `Tag '${ref}' not found.`) },
});

/**
 * A note's tag written as a plain id attribute, one note at a time: no list, create or delete (the
 * notes list them), and a tag that does not exist answered in the module's words at the attribute.
 */
export const noteTagShape = defineResourceShape({
  type: 'note-tag',
  path: '/toy/note-tags/',
  style: 'jsonapi',
  attributes: { tag_id: z.number().int().min(1).nullable() },
});

export const noteTags = declareResource({
  shape: noteTagShape,
  table: toyNote,
  permission: { resource: 'toy:note' },
  without: ['list', 'create', 'delete'],
  omitEmptyRelationships: true,
  present: (row) => ({ title: row.title, tag_id: row.tagId }),
  messages: { foreignKey: { detail: 'That tag does not exist.', attribute: 'tag_id' } },
});

/** The audit entries as a log: listed newest first, never found one by one. */
export const auditTrail = declareResource({
  shape: defineResourceShape({
    type: 'audit-trail-entry',
    path: '/toy/audit-trail/',
    style: 'jsonapi',
    attributes: {},
    readOnlyResource: true,
    orderings: ['-id'],
  }),
  table: toyAudit,
  permission: { resource: 'toy:audit' },
  without: ['find'],
  present: (row) => ({ action: row.action, entity_type: row.entityType }),
});

const PERMISSIONS = ['note', 'tag', 'audit'].flatMap((thing) =>
  ['read', 'create', 'update', 'delete'].map((action) => ({
    resource: `toy:${thing}`,
    action,
    description: `${action} toy ${thing}s`,
  })),
);

export const toyPlugin = defineServerPlugin({
  id: 'toy',
  permissions: PERMISSIONS,
  events: Object.values(noteEvents),
  async routes(router, context) {
    // A test module without a migrations folder: its tables are made here, once per fresh database.
    for (const statement of [
      sql`create schema if not exists toy`,
      sql`create table if not exists toy.tag (id serial primary key, name text not null unique, uses integer not null default 0)`,
      sql`create table if not exists toy.note (id serial primary key, title text not null, body text, secret text,
        owner text not null, rank integer not null default 0, tag_id integer references toy.tag(id))`,
      sql`create table if not exists toy.audit (id serial primary key, action text not null, entity_type text not null,
        entity_id text not null, username text not null, at timestamp not null default now())`,
    ]) {
      await context.db.execute(statement);
    }
    // The module's own answer to a name taken in a race (tag-list leaves database errors to it).
    router.setErrorHandler((error) => {
      if (
        (error as { cause?: { code?: string } }).cause?.code === '23505' ||
        (error as { code?: string }).code === '23505'
      ) {
        throw new ApiError(409, 'That name was just taken.', { code: 'unique_violation' });
      }
      throw error;
    });
    registerResources(router, context, [notes, tags, audit, tagList, noteTags, auditTrail]);
    // A hand-written paged list (what a route that is no declaration does with pageOfRows).
    router.get(
      '/tag-page/',
      {
        config: { jsonapi: true, access: { resource: 'toy:tag', action: 'read' } },
        schema: { querystring: z.strictObject(pageQuerySchema(2)) },
      },
      async (request) => {
        const query = request.query as { 'page[number]': number; 'page[size]': number };
        const { rows, links, meta } = await pageOfRows(context.db, toyTag, {
          orderBy: [asc(toyTag.id)],
          page: toPageRequest(query),
          path: '/api/toy/tag-page/',
          query,
        });
        return {
          data: rows.map((row) => ({ type: 'tag', id: String(row.id), attributes: { name: row.name } })),
          links,
          meta,
        };
      },
    );
  },
});
