import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Support tickets users file from Help → Submit a Support Ticket (docs/support.md), their image
 * attachments (bytes in object storage, under support/tickets/) and the mail that carried them to
 * the support desk (core.mail_outbox, by id: the platform mail service owns that table).
 */
export const supportSchema = pgSchema('support');

export const ticket = supportSchema.table(
  'ticket',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    subject: text('subject').notNull(),
    description: text('description').notNull(),
    critical: boolean('critical').notNull().default(false),
    url: text('url'),
    includedEmails: text('included_emails')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').notNull().default('open'),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: text('closed_by'),
    mailId: integer('mail_id'),
  },
  (table) => [
    index('ticket_status_idx').on(table.status, table.createdAt),
    index('ticket_created_by_idx').on(table.createdBy, table.createdAt),
  ],
);

export const ticketAttachment = supportSchema.table(
  'ticket_attachment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull().unique(),
  },
  (table) => [index('ticket_attachment_ticket_idx').on(table.ticketId)],
);
