import { index, integer, jsonb, numeric, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';
import type { Principal } from '@atrium/sdk/server';
import type { ReportResult } from '../shared/report-definitions.js';

/**
 * Reports owns no insurance data: only its runs (docs/reports.md). A run keeps who asked (their
 * principal, so the job computes the figures in their scope), the filters, the job's progress and
 * the result it computed (rows as the services answered them), which the page shows and the
 * exports are written from.
 */
export const reportsSchema = pgSchema('reports');

export const reportRun = reportsSchema.table(
  'report_run',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    report: text('report').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    /** The caller as the job acts: its scope is theirs. */
    principal: jsonb('principal').$type<Principal>().notNull(),
    username: text('username').notNull(),
    /** NEW, IN_PROGRESS, SUCCESS, FAILED (the SDK's job runner polls until neither NEW nor IN_PROGRESS). */
    status: text('status').notNull().default('NEW'),
    progress: numeric('progress', { precision: 5, scale: 2 }).notNull().default('0'),
    error: text('error'),
    result: jsonb('result').$type<ReportResult>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the job took the run (the queue's wait is createdAt → startedAt). */
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('report_run_user_idx').on(table.username, table.id)],
);
