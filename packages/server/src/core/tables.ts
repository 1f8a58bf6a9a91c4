import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Tables of the platform core: the carrier running Atrium, its settings, and the seed record. */
export const core = pgSchema('core');

/** The carrier and the spec's metadata (live_status, claim_prefix, policy_prefix, analytics flags). */
export const carrier = core.table('carrier', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  website: text('website'),
  logoUrl: text('logo_url'),
  isPrimary: boolean('is_primary').notNull().default(false),
  liveStatus: boolean('live_status').notNull().default(false),
  liveStatusDescription: text('live_status_description').notNull().default(''),
  claimPrefix: text('claim_prefix').notNull(),
  policyPrefix: text('policy_prefix').notNull(),
  enableAnalytics: boolean('enable_analytics').notNull().default(false),
  trackAgentsInPendo: boolean('track_agents_in_pendo').notNull().default(false),
  whitelistedForPendo: boolean('whitelisted_for_pendo').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Settings by section and option, e.g. (login, session-timeout) in minutes. Values are JSON text. */
export const setting = core.table(
  'setting',
  {
    section: text('section').notNull(),
    option: text('option').notNull(),
    value: text('value').notNull(),
    description: text('description').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.section, table.option] })],
);

/** One row per seeding: the first start of an empty database seeds once, `seed --reset` again. */
export const seedRun = core.table('seed_run', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
  plugins: text('plugins').array().notNull(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Outgoing e-mail (packages/server/src/mail, docs/mail.md). A module enqueues a message in its own
 * transaction; a job sends it over SMTP. The row stays as the record of what was sent: status
 * queued → sending → sent, or failed (next_attempt_at set while a retry is planned). `plugin` and
 * `reference` (e.g. a claim id) let a module list its own mails.
 */
export const mailOutbox = core.table(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    plugin: text('plugin').notNull(),
    reference: text('reference'),
    /** MAIL_FROM at the time of sending. */
    fromAddress: text('from_address'),
    toAddresses: text('to_addresses').array().notNull(),
    ccAddresses: text('cc_addresses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    bccAddresses: text('bcc_addresses')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    providerMessageId: text('provider_message_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    index('mail_outbox_reference_idx').on(table.plugin, table.reference),
    index('mail_outbox_status_idx').on(table.status),
    check('mail_outbox_status_check', sql`${table.status} in ('queued', 'sending', 'sent', 'failed')`),
  ],
);

/** The bytes of a mail's attachments, copied at enqueue so the mail sends what the user chose then. */
export const mailAttachment = core.table(
  'mail_attachment',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    mailId: integer('mail_id')
      .notNull()
      .references(() => mailOutbox.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    /** Where the file came from in the calling module, e.g. `attachment:12`. */
    reference: text('reference'),
  },
  (table) => [index('mail_attachment_mail_idx').on(table.mailId, table.position)],
);

/**
 * Domain events (the SDK's `emitEvent`, docs/plugins.md "Events"): one row per event, written in
 * the transaction of the change it reports, in the previous portal's envelope. Delivery reads it in
 * `id` order; `event_id` is what subscribers deduplicate by.
 */
export const eventOutbox = core.table(
  'event_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: uuid('event_id').notNull().unique(),
    eventDate: timestamp('event_date', { withTimezone: true }).notNull(),
    schemaId: text('schema_id').notNull(),
    version: text('version').notNull(),
    topic: text('topic').notNull(),
    triggeringUser: text('triggering_user').notNull(),
    data: jsonb('data').notNull(),
  },
  (table) => [index('event_outbox_topic_idx').on(table.topic, table.id)],
);
