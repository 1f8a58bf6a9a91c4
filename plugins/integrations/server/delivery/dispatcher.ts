import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { ExceptionsQueue, Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { attempt, message, subscription } from '../tables.js';
import { signatureHeader, sendWebhook } from './send.js';
import { retryDelay, type DeliverySettings } from './settings.js';

/**
 * The webhook dispatcher. Every `pollMs` (and at once when kicked) it
 *
 * 1. activates pending subscriptions (creation is asynchronous): each starts after the newest
 *    outbox row at that moment;
 * 2. fans new `core.event_outbox` rows out into messages, one per matching active subscription, in
 *    one transaction with its cursor. The insert is idempotent (one message per subscription and
 *    event) and the cursor trails the newest row by a minute, so an event whose transaction
 *    committed late (a lower id seen after a higher one) is still picked up;
 * 3. sends due messages, each claimed with a lease (`FOR UPDATE SKIP LOCKED`), so two processes
 *    never send the same attempt, and a process killed mid-send leaves a lease that expires and the
 *    message is sent again after restart (at-least-once; receivers deduplicate by `webhook-id`).
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
      await this.context.db.execute<{ subscriptions: boolean; due: boolean }>(sql`
        select exists (select 1 from integrations.subscription where status in ('pending', 'active')) as subscriptions,
               exists (select 1 from integrations.message where status in ('pending', 'retrying')) as due`)
    ).rows;
    this.idle = !work?.subscriptions && !work?.due;
    if (this.idle) return;
    await this.activate();
    await this.fanOut();
    // Send until nothing is due (a burst of events drains in one tick).
    for (let round = 0; round < 50 && !this.stopped; round++) {
      if ((await this.sendDue()) === 0) break;
    }
  }

  private async activate(): Promise<void> {
    await this.context.db.execute(sql`
      update integrations.subscription
         set status = 'active', updated_at = now(),
             start_outbox_id = (select coalesce(max(id), 0) from core.event_outbox)
       where status = 'pending'`);
  }

  private async fanOut(): Promise<void> {
    await this.context.db.transaction(async (tx) => {
      await tx.execute(
        sql`insert into integrations.dispatch_cursor (id, outbox_id) values (1, 0) on conflict do nothing`,
      );
      const cursor = (
        await tx.execute<{ outbox_id: string }>(
          sql`select outbox_id from integrations.dispatch_cursor where id = 1 for update`,
        )
      ).rows[0]!;
      const from = Number(cursor.outbox_id);
      await tx.execute(sql`
        insert into integrations.message (subscription_id, event_id, topic, body, status, next_attempt_at)
        select s.id, o.event_id, o.topic,
               json_build_object(
                 'event_id', o.event_id,
                 'event_date', to_char(o.event_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'schema_id', o.schema_id,
                 'version', o.version,
                 'topic', o.topic,
                 'triggering_user', o.triggering_user,
                 'data', o.data)::text,
               'pending', now()
          from core.event_outbox o
          join integrations.subscription s
            on s.status = 'active' and o.id > coalesce(s.start_outbox_id, 0)
           and exists (select 1 from jsonb_array_elements_text(s.events) p
                        where p = '*' or o.topic = p or o.topic like p || '.%')
         where o.id > ${from}
           and o.id > (select coalesce(min(start_outbox_id), 0) from integrations.subscription where status = 'active')
         order by o.id
        on conflict (subscription_id, event_id) do nothing`);
      await tx.execute(sql`
        update integrations.dispatch_cursor
           set outbox_id = greatest(outbox_id, coalesce((select max(id) from core.event_outbox
                                                          where id > ${from} and event_date < now() - interval '60 seconds'), 0)),
               updated_at = now()
         where id = 1`);
    });
  }

  /** Claims up to 20 due messages and sends them; answers how many were sent. */
  private async sendDue(): Promise<number> {
    const leaseMs = this.settings.timeoutMs + 30_000;
    const claimed = (
      await this.context.db.execute<{ id: string }>(sql`
        update integrations.message m
           set lease_until = now() + ${`${leaseMs} milliseconds`}::interval
         where m.id in (select id from integrations.message
                         where status in ('pending', 'retrying') and next_attempt_at <= now()
                           and (lease_until is null or lease_until < now())
                         order by next_attempt_at
                         limit 20
                         for update skip locked)
        returning m.id`)
    ).rows.map((row) => row.id);
    if (claimed.length === 0) return 0;
    await Promise.all(claimed.map((id) => this.deliver(id, 'schedule')));
    return claimed.length;
  }

  /** One attempt of one message (claimed by the caller); records it and decides what comes next. */
  async deliver(messageId: string, trigger: string): Promise<void> {
    const { db, secrets } = this.context;
    const [row] = await db
      .select({ message, subscription })
      .from(message)
      .innerJoin(subscription, eq(subscription.id, message.subscriptionId))
      .where(eq(message.id, messageId));
    if (!row) return;
    const { message: msg, subscription: sub } = row;
    if (sub.status !== 'active') {
      await db
        .update(message)
        .set({ status: 'skipped', leaseUntil: null, nextAttemptAt: null, updatedAt: new Date() })
        .where(eq(message.id, msg.id));
      return;
    }
    const keys = [secrets.open(sub.secretSealed, secretContext(sub.id))];
    if (sub.previousSecretSealed && sub.previousSecretExpiresAt && sub.previousSecretExpiresAt > new Date()) {
      keys.push(secrets.open(sub.previousSecretSealed, secretContext(sub.id)));
    }
    const timestamp = new Date();
    const result = await sendWebhook({
      url: sub.url,
      body: msg.body,
      headers: {
        'webhook-id': msg.id,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signatureHeader(keys, msg.id, timestamp, msg.body),
      },
      allowPrivate: this.settings.allowPrivate,
      timeoutMs: this.settings.timeoutMs,
    });
    const attempts = msg.attempts + 1;
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    const gone = result.statusCode === 410;
    const delay = succeeded || gone ? null : retryDelay(this.settings, attempts - msg.roundStart);
    const nextRetryAt = delay === null ? null : new Date(Date.now() + delay);
    const status = succeeded ? 'succeeded' : nextRetryAt ? 'retrying' : 'failed';
    await db.transaction(async (tx) => {
      await tx.insert(attempt).values({
        messageId: msg.id,
        subscriptionId: sub.id,
        attemptNumber: attempts,
        attemptedAt: timestamp,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        responseExcerpt: result.responseExcerpt,
        error: result.error,
        succeeded,
        nextRetryAt,
        trigger,
      });
      await tx
        .update(message)
        .set({
          status,
          attempts,
          lastStatusCode: result.statusCode,
          nextAttemptAt: nextRetryAt,
          leaseUntil: null,
          updatedAt: new Date(),
        })
        .where(eq(message.id, msg.id));
      if (succeeded) {
        await resolveDeliveryExceptions(tx, msg.id);
        return;
      }
      if (gone) {
        await tx
          .update(subscription)
          .set({
            status: 'disabled',
            disabledReason: 'The endpoint answered 410 Gone.',
            updatedAt: new Date(),
          })
          .where(eq(subscription.id, sub.id));
      }
      if (status === 'failed') {
        const reason = gone
          ? `${sub.url} answered 410 Gone; the subscription was disabled.`
          : result.statusCode !== null
            ? `${sub.url} answered ${result.statusCode} on all ${attempts - msg.roundStart} attempts.`
            : `${sub.url} could not be reached: ${result.error ?? 'no answer'}`;
        await this.exceptions().report(tx, {
          module: 'integrations',
          kind: 'webhook-delivery',
          reason,
          payload: {
            subscription_id: sub.id,
            url: sub.url,
            message_id: msg.id,
            topic: msg.topic,
            event: JSON.parse(msg.body) as unknown,
          },
          attempts: attempts - msg.roundStart,
          reference: msg.id,
        });
      }
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

export const secretContext = (subscriptionId: string) => `integrations:subscription:${subscriptionId}`;

async function resolveDeliveryExceptions(tx: Queryable, messageId: string): Promise<void> {
  await tx.execute(sql`
    update integrations.exception set status = 'resolved', resolved_by = 'system', updated_at = now()
     where module = 'integrations' and kind = 'webhook-delivery' and reference = ${messageId}
       and status in ('open', 'retrying')`);
}
