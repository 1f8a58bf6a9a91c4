import { integer, pgSchema, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The settings module's own tables (the carrier settings themselves are the core's). */
export const settingsSchema = pgSchema('settings');

/** How a deliverable is sent in a state (`*`: the carrier-wide default). shared/mass-deliverables.ts. */
export const massDeliverable = settingsSchema.table(
  'mass_deliverable',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    state: text('state').notNull(),
    deliverable: text('deliverable').notNull(),
    delivery: text('delivery').notNull(),
    daysBefore: integer('days_before'),
    updatedBy: text('updated_by').notNull().default('system'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('mass_deliverable_key').on(table.state, table.deliverable)],
);
