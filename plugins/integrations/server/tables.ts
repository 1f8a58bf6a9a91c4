import { bigint, boolean, index, integer, jsonb, pgSchema, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/** The integrations module's tables, all in its own Postgres schema (the plugin's `dbSchema`). */
export const integrationsSchema = pgSchema('integrations');

/**
 * A webhook subscription. `status` moves pending → active (the dispatcher activates it, so creation
 * is asynchronous as the spec says) → disabled (410 Gone or by hand). `start_outbox_id` is the last
 * outbox row at activation: the subscription receives the events after it. The secret is sealed with
 * the platform's secrets service; while it rotates the previous one signs too until it expires.
 */
export const subscription = integrationsSchema.table('subscription', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  description: text('description').notNull().default(''),
  status: text('status').notNull().default('pending'),
  disabledReason: text('disabled_reason'),
  secretSealed: text('secret_sealed').notNull(),
  previousSecretSealed: text('previous_secret_sealed'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  startOutboxId: bigint('start_outbox_id', { mode: 'number' }),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One event to deliver to one subscription (the Standard Webhooks "message"): its id is the
 * `webhook-id` header, the same on every attempt. `body` is the envelope exactly as signed.
 */
export const message = integrationsSchema.table(
  'message',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscription.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    topic: text('topic').notNull(),
    body: text('body').notNull(),
    test: boolean('test').notNull().default(false),
    /** pending | retrying | succeeded | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** `attempts` when the current retry schedule began (a Resend or Retry starts a new one). */
    roundStart: integer('round_start').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('message_subscription_event_uq').on(table.subscriptionId, table.eventId),
    index('message_due_idx').on(table.status, table.nextAttemptAt),
    index('message_subscription_idx').on(table.subscriptionId, table.createdAt),
  ],
);

/** One HTTP attempt of a message: what the receiver answered, how long it took, what comes next. */
export const attempt = integrationsSchema.table(
  'attempt',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => message.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').notNull(),
    attemptNumber: integer('attempt_number').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
    nextRetryAt: timestamp('next_retry_at', { withTimezone: true }),
    trigger: text('trigger').notNull().default('schedule'),
  },
  (table) => [index('attempt_message_idx').on(table.messageId, table.attemptNumber)],
);

/** The dispatcher's low-water mark over core.event_outbox (one row, id 1). */
export const dispatchCursor = integrationsSchema.table('dispatch_cursor', {
  id: integer('id').primaryKey(),
  outboxId: bigint('outbox_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The one exceptions queue: failures that outlived their retries, from any module. */
export const exception = integrationsSchema.table(
  'exception',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    module: text('module').notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    attempts: integer('attempts').notNull(),
    reference: text('reference'),
    retryJob: text('retry_job'),
    /** open | retrying | resolved | dismissed */
    status: text('status').notNull().default('open'),
    dismissReason: text('dismiss_reason'),
    resolvedBy: text('resolved_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('exception_status_idx').on(table.status, table.module, table.createdAt)],
);

/**
 * A data mapping version. The pair (from, to) names the mapping; each row is one version. A draft
 * may be edited; a published version never changes (a change to it makes the next version, a
 * draft). `mapping` is `{language: 'jsonata', expression, sample}`.
 */
export const dataMapping = integrationsSchema.table(
  'data_mapping',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    from: text('from').notNull(),
    to: text('to').notNull(),
    version: integer('version').notNull(),
    mapping: jsonb('mapping').$type<{ language: 'jsonata'; expression: string; sample?: unknown }>().notNull(),
    /** draft | published */
    status: text('status').notNull().default('draft'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (table) => [unique('data_mapping_version_uq').on(table.from, table.to, table.version)],
);

/**
 * An integration (spec: name, author, definition, category, events, status read-only, messages,
 * date_created): a definition of steps run one after another on an input. `definition` is
 * `{steps: [{name, type: 'map', from, to} | {name, type: 'http', url}]}`, validated at the boundary.
 */
export const integration = integrationsSchema.table('integration', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  author: text('author').notNull(),
  category: text('category').notNull().default(''),
  events: jsonb('events').$type<string[]>().notNull(),
  definition: jsonb('definition').$type<IntegrationDefinition>().notNull(),
  /** The last outbox row when `events` was last set: events after it start runs. */
  startOutboxId: bigint('start_outbox_id', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type IntegrationStep = { name: string } & (
  { type: 'map'; from: string; to: string } | { type: 'http'; url: string }
);
export interface IntegrationDefinition {
  steps: IntegrationStep[];
}

/**
 * One run of an integration on one input; `status` queued | running | succeeded | failed. A run
 * started by an event (`trigger` 'event') names it: one run per integration and event. It is queued
 * by the dispatcher's fan-out and claimed with a lease, so a process killed mid-run leaves it to be
 * resumed after its lease ends.
 */
export const integrationRun = integrationsSchema.table(
  'integration_run',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integration.id, { onDelete: 'cascade' }),
    trigger: text('trigger').notNull(),
    input: jsonb('input').notNull(),
    status: text('status').notNull().default('running'),
    triggeredBy: text('triggered_by').notNull(),
    eventId: uuid('event_id'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('integration_run_integration_idx').on(table.integrationId, table.startedAt),
    unique('integration_run_event_uq').on(table.integrationId, table.eventId),
    index('integration_run_due_idx').on(table.status, table.leaseUntil),
  ],
);

/** One step of one run: its input, output or error, and attempts (a failed step can be retried). */
export const integrationRunStep = integrationsSchema.table(
  'integration_run_step',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => integrationRun.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    /** succeeded | failed */
    status: text('status').notNull(),
    input: jsonb('input').notNull(),
    output: jsonb('output'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [unique('integration_run_step_uq').on(table.runId, table.position)],
);
