import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { claim, claimsSchema } from '../core/tables.js';

/**
 * Historical claims imports (docs/claims-import.md). An import run is one confirmed upload: who,
 * when, which file (its rows are kept, so the job reads them and a run can be inspected later),
 * its status and counts. Every claim of the file gets one outcome row per run; the `imported`
 * outcomes are the mark on an imported claim (`source: import`, the run id), and the partial unique
 * indexes make a claim number importable once, whatever runs race for it.
 */
const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export interface ImportProblem {
  /** The file's row number (the header is row 1); null for a problem of the whole file. */
  row: number | null;
  /** The column's header name; null when the problem is not one column's. */
  column: string | null;
  claim_number: string | null;
  message: string;
}

export const importRun = claimsSchema.table(
  'import_run',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fileName: text('file_name').notNull(),
    /** sha256 of the uploaded bytes: the screen shows when the same file is run again. */
    fileSha256: text('file_sha256').notNull(),
    format: text('format').notNull(),
    /** The file's cells as text, header first. */
    rows: jsonb('rows').$type<string[][]>().notNull(),
    status: text('status').notNull().default('queued'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
    claimsTotal: integer('claims_total').notNull().default(0),
    claimsProcessed: integer('claims_processed').notNull().default(0),
    claimsImported: integer('claims_imported').notNull().default(0),
    claimsSkipped: integer('claims_skipped').notNull().default(0),
    claimsFailed: integer('claims_failed').notNull().default(0),
    exposuresImported: integer('exposures_imported').notNull().default(0),
    entriesImported: integer('entries_imported').notNull().default(0),
    problems: jsonb('problems').$type<ImportProblem[]>().notNull().default([]),
    /** Why the run failed as a whole (the job crashed); claims that failed on their own are in problems. */
    error: text('error'),
    /**
     * Set by the job when it takes the run and after every claim: a `running` run without progress
     * for a while was interrupted (its process died) and may be resumed (import-resume.ts).
     */
    heartbeatAt: timestamptz('heartbeat_at'),
    /**
     * Which execution owns the run: a resume adds one and its job writes only while the number is
     * its own, so an execution that was thought dead but was only slow stops at its next claim.
     */
    attempt: integer('attempt').notNull().default(1),
  },
  (table) => [
    index('import_run_created_idx').on(table.createdAt),
    check('import_run_status_check', sql`${table.status} in ('queued', 'running', 'completed', 'failed')`),
  ],
);

export const importRunClaim = claimsSchema.table(
  'import_run_claim',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    runId: integer('run_id')
      .notNull()
      .references(() => importRun.id),
    claimNumber: text('claim_number').notNull(),
    outcome: text('outcome').notNull(),
    claimId: integer('claim_id').references(() => claim.id),
    /** The first file row of the claim. */
    firstRow: integer('first_row').notNull(),
    exposures: integer('exposures').notNull().default(0),
    entries: integer('entries').notNull().default(0),
    detail: text('detail'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (table) => [
    index('import_run_claim_run_idx').on(table.runId, table.id),
    // One outcome per claim and run: a resumed run never records (or counts) a claim twice.
    uniqueIndex('import_run_claim_run_number_key').on(table.runId, table.claimNumber),
    uniqueIndex('import_run_claim_imported_number_key')
      .on(table.claimNumber)
      .where(sql`${table.outcome} = 'imported'`),
    uniqueIndex('import_run_claim_imported_claim_key')
      .on(table.claimId)
      .where(sql`${table.outcome} = 'imported'`),
    check('import_run_claim_outcome_check', sql`${table.outcome} in ('imported', 'skipped', 'failed')`),
  ],
);
