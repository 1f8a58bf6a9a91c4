import { boolean, integer, pgSchema, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
