import { sql } from 'drizzle-orm';
import { index, integer, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Notes on records of any module (docs/notes.md). A note names its record by type and id, never by
 * a foreign key: the record belongs to its own module (claims, policies, quote, contacts).
 */
export const notesSchema = pgSchema('notes');

export const note = notesSchema.table(
  'note',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    recordType: text('record_type').notNull(),
    recordId: text('record_id').notNull(),
    recordLabel: text('record_label'),
    body: text('body').notNull(),
    /** Username of the author, lower-cased. */
    author: text('author').notNull(),
    authorName: text('author_name').notNull(),
    /** Usernames named on the note (lower-cased); they see it in their notes list. */
    mentions: text('mentions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Display names of the users named, by position in `mentions`. */
    mentionNames: text('mention_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('note_record_idx').on(table.recordType, table.recordId, table.createdAt),
    index('note_author_idx').on(table.author, table.createdAt),
    index('note_mentions_idx').using('gin', table.mentions),
  ],
);
