import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  ApiError,
  emitEvent,
  fieldError,
  notFound,
  z,
  type AtriumRouter,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { USER_DIRECTORY } from '@atrium/plugin-identity/user-directory';
import {
  noteCreateSchema,
  noteListQuerySchema,
  noteUpdateSchema,
  type Note,
  type NoteRecordType,
} from '../shared/note-schemas.js';
import { noteCreated, noteDeleted, noteUpdated } from './events.js';
import { notesPermissions } from './permissions.js';
import { note } from './tables.js';

const tags = ['notes'];
const security = [{ bearer: [] as string[] }];
const can = notesPermissions.can;

type NoteRow = typeof note.$inferSelect;

const eventData = (row: NoteRow) => ({
  id: row.id,
  record_type: row.recordType,
  record_id: row.recordId,
  author: row.author,
  mentions: row.mentions,
});

export function noteView(row: NoteRow, caller: string): Note {
  return {
    id: row.id,
    record_type: row.recordType as NoteRecordType,
    record_id: row.recordId,
    record_label: row.recordLabel,
    body: row.body,
    author: { username: row.author, name: row.authorName },
    mentions: row.mentions.map((username, i) => ({ username, name: row.mentionNames[i] ?? username })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    editable: row.author === caller,
  };
}

const noteSchema = z.object({
  id: z.number(),
  record_type: z.string(),
  record_id: z.string(),
  record_label: z.string().nullable(),
  body: z.string(),
  author: z.object({ username: z.string(), name: z.string() }),
  mentions: z.array(z.object({ username: z.string(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
  editable: z.boolean(),
});

/**
 * Notes by record, and the caller's notes list (written by them or naming them). Every route is
 * behind `notes:note`; on top, only the author changes or deletes a note (403), and the users a
 * note names must exist (identity's user directory).
 */
export function notesRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const { db } = context;
  const directory = () => context.service(USER_DIRECTORY);
  const callerOf = (request: { principal: { username: string } }) => request.principal.username.trim().toLowerCase();

  /** Usernames → display names; unknown users are a 400 naming the position. */
  async function resolveMentions(usernames: string[]): Promise<{ mentions: string[]; names: string[] }> {
    const unique = [...new Set(usernames)];
    if (unique.length === 0) return { mentions: [], names: [] };
    const found = await directory().findUsers(db, unique);
    const byName = new Map(found.filter((u) => u.enabled).map((u) => [u.username.trim().toLowerCase(), u.name]));
    unique.forEach((username, i) => {
      if (!byName.has(username)) throw fieldError(`mentions/${i}`, `There is no user ${username}.`);
    });
    return { mentions: unique, names: unique.map((u) => byName.get(u)!) };
  }

  async function ownNote(id: number, caller: string): Promise<NoteRow> {
    const [row] = await db.select().from(note).where(eq(note.id, id)).limit(1);
    if (!row) throw notFound(`Note ${id} not found.`);
    if (row.author !== caller) throw new ApiError(403, 'Only the author may change or delete a note.');
    return row;
  }

  router.get(
    '/notes/',
    {
      config: { access: can('note', 'read') },
      schema: {
        summary:
          "A record's notes (record_type and record_id), or the caller's notes list (scope mine: written by or naming the caller; written; mentioned), newest first.",
        tags,
        security,
        querystring: noteListQuerySchema,
        response: { 200: z.object({ count: z.number(), results: z.array(noteSchema) }) },
      },
    },
    async (request) => {
      const q = request.query;
      const caller = callerOf(request);
      const named = sql`${note.mentions} @> array[${caller}]::text[]`;
      const conditions: (SQL | undefined)[] = [];
      if (q.record_type) conditions.push(eq(note.recordType, q.record_type));
      if (q.record_id) conditions.push(eq(note.recordId, q.record_id));
      if (q.scope === 'mine') conditions.push(or(eq(note.author, caller), named));
      if (q.scope === 'written') conditions.push(eq(note.author, caller));
      if (q.scope === 'mentioned') conditions.push(named);
      if (!q.scope && !(q.record_type && q.record_id)) {
        throw new ApiError(400, 'Name a record (record_type and record_id) or a scope.', {
          source: { parameter: 'record_id' },
        });
      }
      const where = and(...conditions);
      const [total] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(note)
        .where(where);
      const rows = await db
        .select()
        .from(note)
        .where(where)
        .orderBy(desc(note.createdAt), desc(note.id))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      return { count: total?.n ?? 0, results: rows.map((row) => noteView(row, caller)) };
    },
  );

  router.post(
    '/notes/',
    {
      config: { access: can('note', 'create') },
      schema: {
        summary: 'Writes a note on a record; the users it names see it in their notes list.',
        tags,
        security,
        body: noteCreateSchema,
        response: { 201: noteSchema },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const input = request.body;
      const { mentions, names } = await resolveMentions(input.mentions);
      const [me] = await directory().findUsers(db, [caller]);
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(note)
          .values({
            recordType: input.record_type,
            recordId: input.record_id,
            recordLabel: input.record_label || null,
            body: input.body,
            author: caller,
            authorName: me?.name ?? caller,
            mentions,
            mentionNames: names,
          })
          .returning();
        await emitEvent(tx, noteCreated, eventData(inserted!), { triggeringUser: caller });
        return inserted!;
      });
      return reply.status(201).send(noteView(row, caller));
    },
  );

  const idParams = z.strictObject({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

  router.patch(
    '/notes/:id/',
    {
      config: { access: can('note', 'update') },
      schema: {
        summary: 'Changes the text or the users named of a note the caller wrote.',
        tags,
        security,
        params: idParams,
        body: noteUpdateSchema,
        response: { 200: noteSchema },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await ownNote(request.params.id, caller);
      const changes: Partial<typeof note.$inferInsert> = { updatedAt: new Date() };
      if (request.body.body !== undefined) changes.body = request.body.body;
      if (request.body.mentions !== undefined) {
        const { mentions, names } = await resolveMentions(request.body.mentions);
        changes.mentions = mentions;
        changes.mentionNames = names;
      }
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx.update(note).set(changes).where(eq(note.id, request.params.id)).returning();
        await emitEvent(tx, noteUpdated, eventData(updated!), { triggeringUser: caller });
        return updated!;
      });
      return noteView(row, caller);
    },
  );

  router.delete(
    '/notes/:id/',
    {
      config: { access: can('note', 'delete') },
      schema: { summary: 'Deletes a note the caller wrote.', tags, security, params: idParams },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const row = await ownNote(request.params.id, caller);
      await db.transaction(async (tx) => {
        await tx.delete(note).where(eq(note.id, row.id));
        await emitEvent(tx, noteDeleted, eventData(row), { triggeringUser: caller });
      });
      return reply.status(204).send();
    },
  );

  router.get(
    '/notes/users/',
    {
      config: { access: can('note', 'create') },
      schema: {
        summary: 'Users a note may name, whose username or name contains the search (at most 10).',
        tags,
        security,
        querystring: z.strictObject({ search: z.string().trim().max(100).default('') }),
        response: { 200: z.array(z.object({ username: z.string(), name: z.string() })) },
      },
    },
    async (request) => {
      const users = await directory().searchUsers(db, { search: request.query.search || undefined, limit: 10 });
      return users.map((u) => ({ username: u.username.trim().toLowerCase(), name: u.name }));
    },
  );
}
