import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ExceptionsQueue, Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { eventRunWork, queueEventRuns, runDueEventRuns } from '../integration/event-runs.js';
import type { IntegrationRunner } from '../integration/runner.js';
import { message, subscription } from '../tables.js';
import { signatureHeader, sendWebhook, type SendResult } from './send.js';
import { retryDelay, type DeliverySettings } from './settings.js';

/**
 * The webhook dispatcher. Every `pollMs` (and at once when kicked) it
 *
 * 1. activates pending subscriptions (creation is asynchronous): each starts after the newest
 *    outbox row at that moment;
 * 2. fans new `core.event_outbox` rows out into messages, one per matching active subscription, in
 *    one transaction with its cursor. The insert is idempotent (one message per subscription and
 *    event) and the cursor stops at a gap in the outbox ids (a transaction still in flight) for up
 *    to a minute, so an event whose transaction committed late (a lower id seen after a higher one)
 *    is still picked up;
 * 3. sends due messages in batches, several side by side, each claimed with a lease
 *    (`FOR UPDATE SKIP LOCKED`), so two processes never send the same attempt, and a process killed
 *    mid-send leaves a lease that expires and the message is sent again after restart
 *    (at-least-once; receivers deduplicate by `webhook-id`); a batch's attempts are recorded in one
 *    transaction;
 * 4. in the fan-out's transaction, queues the integration runs the new events start, and runs the
 *    queued ones (integration/event-runs.ts).
 *
 * The outbox row is the source of truth: nothing is kept in memory between ticks.
 */
export class Dispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private idle = false;

  constructor(
    private readonly context: ServerPluginContext,
    readonly settings: DeliverySettings,
    private readonly exceptions: () => ExceptionsQueue,
    private readonly runner: IntegrationRunner,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(50);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Runs a tick soon (after a subscription or a resend), without waiting for the poll. A no-op in an
   * API process that does not deliver (ATRIUM_WORKERS=false): the worker's poll finds the work.
   */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) => this.context.log.error({ err: error }, 'webhook dispatcher tick failed'))
        .finally(() => {
          this.running = null;
          // With no subscription to serve, poll ten times less often: a POST kicks the dispatcher.
          const next = this.again ? 0 : this.idle ? Math.max(this.settings.pollMs, 10_000) : this.settings.pollMs;
          this.again = false;
          this.schedule(next);
        });
    }, ms);
    this.timer.unref?.();
  }

  async tick(): Promise<void> {
    const [work] = (
      await this.context.db.execute<{ subscriptions: boolean; due: boolean; runs: boolean }>(sql`
        select exists (select 1 from integrations.subscription where status in ('pending', 'active')) as subscriptions,
               exists (select 1 from integrations.message where status in ('pending', 'retrying')) as due,
               (${eventRunWork}) as runs`)
    ).rows;
    this.idle = !work?.subscriptions && !work?.due && !work?.runs;
    if (this.idle) return;
    await this.activate();
    // One loop fans new outbox rows out (again at once while rows keep coming, else every
    // FAN_OUT_EVERY_MS); senders claim and send batches side by side. The tick ends when a fan-out
    // found nothing and no sender found anything due.
    const until = Date.now() + TICK_MS;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let fanned = 1;
    let sending = SENDERS;
    const fanOutLoop = async () => {
      while (!this.stopped && Date.now() < until && sending > 0) {
        fanned = await this.fanOut();
        if (fanned === 0) await sleep(FAN_OUT_EVERY_MS);
      }
    };
    const sender = async () => {
      while (!this.stopped && Date.now() < until) {
        if ((await this.sendDue()) > 0) continue;
        if (fanned === 0) break;
        await sleep(IDLE_SENDER_MS);
      }
      sending--;
    };
    // Integration runs started by events, one after another beside the senders.
    const runs = async () => {
      sending++;
      while (!this.stopped && Date.now() < until) {
        if ((await runDueEventRuns(this.context, this.runner, this.settings.timeoutMs)) > 0) continue;
        if (fanned === 0) break;
        await sleep(FAN_OUT_EVERY_MS);
      }
      sending--;
    };
    await Promise.all([fanOutLoop(), runs(), ...Array.from({ length: SENDERS }, () => sender())]);
  }

  private async activate(): Promise<void> {
    await this.context.db.execute(sql`
      update integrations.subscription
         set status = 'active', updated_at = now(),
             start_outbox_id = (select coalesce(max(id), 0) from core.event_outbox)
       where status = 'pending'`);
  }

  /**
   * Fans the outbox rows after the cursor out into messages and moves the cursor, in one
   * transaction (the cursor row locked, so dispatchers in several processes take turns). Outbox ids
   * come from a sequence: a gap is a transaction still in flight (or rolled back), so the cursor
   * stops before it and the rows after it wait, unless the row after the gap is more than a minute
   * old (the gap's transaction is then taken for rolled back). Answers how many rows it passed.
   */
  private async fanOut(): Promise<number> {
    return this.context.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into integrations.dispatch_cursor (id, outbox_id) values (1, 0) on conflict do nothing`,
      );
      const cursor = (
        await tx.execute<{ outbox_id: string }>(
          sql`select outbox_id from integrations.dispatch_cursor where id = 1 for update`,
        )
      ).rows[0]!;
      const from = Number(cursor.outbox_id);
      const rows = (
        await tx.execute<{ id: string; old: boolean }>(sql`
          select id, event_date < now() - interval '60 seconds' as old
            from core.event_outbox where id > ${from} order by id limit ${FAN_OUT_ROWS}`)
      ).rows;
      // With no other transaction in flight (always so on the embedded database's one connection),
      // nothing can still fill a gap: it is a rolled-back insert or sequence values skipped when the
      // database restarted or was restored from a snapshot (PostgreSQL logs sequences 32 ahead).
      const quiet =
        rows.length > 0 &&
        (
          await tx.execute<{ quiet: boolean }>(
            sql`select not exists (select 1 from pg_snapshot_xip(pg_current_snapshot())) as quiet`,
          )
        ).rows[0]!.quiet;
      let to = from;
      for (const row of rows) {
        const id = Number(row.id);
        if (id !== to + 1 && !row.old && !quiet) break;
        to = id;
      }
      if (to === from) return 0;
      await tx.execute(sql`
        insert into integrations.message (subscription_id, event_id, topic, body, status, next_attempt_at)
        select s.id, o.event_id, o.topic,
               (${ENVELOPE})::text,
               'pending', now()
          from core.event_outbox o
          join integrations.subscription s
            on s.status = 'active' and o.id > coalesce(s.start_outbox_id, 0)
           and exists (select 1 from jsonb_array_elements_text(s.events) p
                        where p = '*' or o.topic = p or o.topic like p || '.%')
         where o.id > ${from} and o.id <= ${to}
         order by o.id
        on conflict (subscription_id, event_id) do nothing`);
      await queueEventRuns(tx, from, to, ENVELOPE);
      await tx.execute(sql`update integrations.dispatch_cursor set outbox_id = ${to}, updated_at = now() where id = 1`);
      return to - from;
    });
  }

  /**
   * Claims up to BATCH due messages with a lease, sends them side by side, and records every attempt
   * in one transaction; answers how many were claimed.
   */
  private async sendDue(): Promise<number> {
    const { db, secrets } = this.context;
    const leaseMs = this.settings.timeoutMs + 30_000;
    const claimed = (
      await db.execute<ClaimedRow>(sql`
        with claimed as (
          update integrations.message m
             set lease_until = now() + ${`${leaseMs} milliseconds`}::interval
           where m.id in (select id from integrations.message
                           where status in ('pending', 'retrying') and next_attempt_at <= now()
                             and (lease_until is null or lease_until < now())
                           order by next_attempt_at
                           limit ${BATCH}
                           for update skip locked)
          returning m.id, m.subscription_id, m.topic, m.body, m.attempts, m.round_start)
        select c.id, c.subscription_id, c.topic, c.body, c.attempts, c.round_start,
               s.url, s.status as subscription_status, s.secret_sealed, s.previous_secret_sealed,
               s.previous_secret_expires_at
          from claimed c join integrations.subscription s on s.id = c.subscription_id`)
    ).rows;
    if (claimed.length === 0) return 0;
    const inactive = claimed.filter((row) => row.subscription_status !== 'active').map((row) => row.id);
    if (inactive.length > 0) {
      await db.execute(sql`
        update integrations.message set status = 'skipped', lease_until = null, next_attempt_at = null, updated_at = now()
         where id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(inactive)}::jsonb))`);
    }
    const keysOf = new Map<string, string[]>();
    const keys = (row: ClaimedRow) => {
      let found = keysOf.get(row.subscription_id);
      if (!found) {
        found = [secrets.open(row.secret_sealed, secretContext(row.subscription_id))];
        const expires = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null;
        if (row.previous_secret_sealed && expires && expires > new Date()) {
          found.push(secrets.open(row.previous_secret_sealed, secretContext(row.subscription_id)));
        }
        keysOf.set(row.subscription_id, found);
      }
      return found;
    };
    const outcomes = await Promise.all(
      claimed
        .filter((row) => row.subscription_status === 'active')
        .map(async (row): Promise<Outcome> => {
          const timestamp = new Date();
          const result = await sendWebhook({
            url: row.url,
            body: row.body,
            headers: {
              'webhook-id': row.id,
              'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
              'webhook-signature': signatureHeader(keys(row), row.id, timestamp, row.body),
            },
            allowPrivate: this.settings.allowPrivate,
            timeoutMs: this.settings.timeoutMs,
          });
          const attempts = row.attempts + 1;
          const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
          const gone = result.statusCode === 410;
          const delay = succeeded || gone ? null : retryDelay(this.settings, attempts - row.round_start);
          const nextRetryAt = delay === null ? null : new Date(Date.now() + delay);
          const status = succeeded ? 'succeeded' : nextRetryAt ? 'retrying' : 'failed';
          return { row, timestamp, result, attempts, succeeded, gone, nextRetryAt, status };
        }),
    );
    if (outcomes.length > 0) await this.record(outcomes);
    return claimed.length;
  }

  /** Records a batch of attempts and what comes next for each message, in one transaction. */
  private async record(outcomes: Outcome[]): Promise<void> {
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    await this.context.db.transaction(async (tx) => {
      const attempts = outcomes.map((o) => ({
        message_id: o.row.id,
        subscription_id: o.row.subscription_id,
        attempt_number: o.attempts,
        attempted_at: iso(o.timestamp),
        status_code: o.result.statusCode,
        latency_ms: o.result.latencyMs,
        response_excerpt: o.result.responseExcerpt,
        error: o.result.error,
        succeeded: o.succeeded,
        next_retry_at: iso(o.nextRetryAt),
      }));
      await tx.execute(sql`
        insert into integrations.attempt (message_id, subscription_id, attempt_number, attempted_at, status_code,
                                          latency_ms, response_excerpt, error, succeeded, next_retry_at, trigger)
        select message_id, subscription_id, attempt_number, attempted_at, status_code,
               latency_ms, response_excerpt, error, succeeded, next_retry_at, 'schedule'
          from jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
            as v(message_id uuid, subscription_id uuid, attempt_number int, attempted_at timestamptz,
                 status_code int, latency_ms int, response_excerpt text, error text, succeeded boolean,
                 next_retry_at timestamptz)`);
      const updates = outcomes.map((o) => ({
        id: o.row.id,
        status: o.status,
        attempts: o.attempts,
        code: o.result.statusCode,
        next: iso(o.nextRetryAt),
      }));
      await tx.execute(sql`
        update integrations.message m
           set status = v.status, attempts = v.attempts, last_status_code = v.code, next_attempt_at = v.next,
               lease_until = null, updated_at = now()
          from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb)
            as v(id uuid, status text, attempts int, code int, next timestamptz)
         where m.id = v.id`);
      // A delivery that had failed before may have an exception to resolve (a first attempt cannot).
      const resolved = outcomes.filter((o) => o.succeeded && o.row.attempts > 0).map((o) => o.row.id);
      if (resolved.length > 0) await resolveDeliveryExceptions(tx, resolved);
      for (const o of outcomes) if (!o.succeeded) await this.failed(tx, o);
    });
  }

  /** A failed attempt: 410 disables the subscription; a spent schedule files an exception. */
  private async failed(tx: Queryable, o: Outcome): Promise<void> {
    const { row, result, attempts, gone, status } = o;
    if (gone) {
      await tx
        .update(subscription)
        .set({ status: 'disabled', disabledReason: 'The endpoint answered 410 Gone.', updatedAt: new Date() })
        .where(eq(subscription.id, row.subscription_id));
    }
    if (status !== 'failed') return;
    const reason = gone
      ? `${row.url} answered 410 Gone; the subscription was disabled.`
      : result.statusCode !== null
        ? `${row.url} answered ${result.statusCode} on all ${attempts - row.round_start} attempts.`
        : `${row.url} could not be reached: ${result.error ?? 'no answer'}`;
    await this.exceptions().report(tx, {
      module: 'integrations',
      kind: 'webhook-delivery',
      reason,
      payload: {
        subscription_id: row.subscription_id,
        url: row.url,
        message_id: row.id,
        topic: row.topic,
        event: JSON.parse(row.body) as unknown,
      },
      attempts: attempts - row.round_start,
      reference: row.id,
    });
  }

  /** Queues a message again now with a fresh retry schedule (Resend, or Retry in the exceptions queue). */
  async resend(tx: Queryable, messageId: string): Promise<void> {
    await tx
      .update(message)
      .set({
        status: 'pending',
        nextAttemptAt: new Date(),
        leaseUntil: null,
        roundStart: sql`${message.attempts}`,
        updatedAt: new Date(),
      })
      .where(eq(message.id, messageId));
  }

  /** A test event for one subscription, outside the outbox (it reports nothing that happened). */
  async queueTest(tx: Queryable, subscriptionId: string, username: string): Promise<string> {
    const envelope = {
      event_id: randomUUID(),
      event_date: new Date().toISOString(),
      schema_id: 'integrations.webhook-test',
      version: '1.0.0',
      topic: 'integrations.webhook.tested',
      triggering_user: username,
      data: { subscription_id: subscriptionId, message: 'This is a test event from Atrium.' },
    };
    const [row] = await tx
      .insert(message)
      .values({
        subscriptionId,
        eventId: envelope.event_id,
        topic: envelope.topic,
        body: JSON.stringify(envelope),
        test: true,
        status: 'pending',
        nextAttemptAt: new Date(),
      })
      .returning({ id: message.id });
    return row!.id;
  }
}

/** The previous portal's envelope of outbox row `o`, verbatim (docs/integrations.md, "Events"). */
const ENVELOPE = sql`json_build_object(
  'event_id', o.event_id,
  'event_date', to_char(o.event_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'schema_id', o.schema_id,
  'version', o.version,
  'topic', o.topic,
  'triggering_user', o.triggering_user,
  'data', o.data)`;

export const secretContext = (subscriptionId: string) => `integrations:subscription:${subscriptionId}`;

async function resolveDeliveryExceptions(tx: Queryable, messageIds: string[]): Promise<void> {
  await tx.execute(sql`
    update integrations.exception set status = 'resolved', resolved_by = 'system', updated_at = now()
     where module = 'integrations' and kind = 'webhook-delivery' and status in ('open', 'retrying')
       and reference in (select value from jsonb_array_elements_text(${JSON.stringify(messageIds)}::jsonb))`);
}

/**
 * Messages one claim takes, senders side by side, how often a sender fans out while nothing new
 * came, outbox rows one fan-out passes, a tick's length.
 */
const BATCH = 100;
const SENDERS = 8;
const FAN_OUT_EVERY_MS = 100;
const IDLE_SENDER_MS = 25;
const FAN_OUT_ROWS = 500;
const TICK_MS = 30_000;

interface ClaimedRow extends Record<string, unknown> {
  id: string;
  subscription_id: string;
  topic: string;
  body: string;
  attempts: number;
  round_start: number;
  url: string;
  subscription_status: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | Date | null;
}

interface Outcome {
  row: ClaimedRow;
  timestamp: Date;
  result: SendResult;
  attempts: number;
  succeeded: boolean;
  gone: boolean;
  nextRetryAt: Date | null;
  status: 'succeeded' | 'retrying' | 'failed';
}
