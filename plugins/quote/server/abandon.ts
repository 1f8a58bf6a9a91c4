import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database, JobDefinition, JobQueue, ServerPluginContext } from '@atrium/sdk/server';
import { alert, quote, setting, statusHistory } from './tables.js';

/** The setting (days without activity after which an open quote is abandoned) and its default. */
export const ABANDON_SETTING = 'quote/abandon-after-days';
export const ABANDON_DEFAULT_DAYS = 30;
export const ABANDON_JOB = 'quote.abandon-stale';
/** The statuses the `abandon` trigger leaves (docs/quote.md, "Statuses and triggers"). */
export const ABANDONABLE = ['In Progress', 'In Review', 'Approved'] as const;
/** The nightly run's hour (UTC). */
const NIGHT_HOUR_UTC = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function abandonAfterDays(db: Pick<Database, 'select'>): Promise<number> {
  const [row] = await db.select().from(setting).where(eq(setting.key, ABANDON_SETTING)).limit(1);
  const value = Number(row?.value);
  return Number.isInteger(value) && value >= 1 ? value : ABANDON_DEFAULT_DAYS;
}

/**
 * Abandons every open, unbound quote with no change for `days` days (its `updated_at`), as the
 * `abandon` trigger would: status Abandoned, a history entry by `system`, the status alerts
 * removed; set-based, so a large book is a few statements. Quotes being changed right now (locked)
 * are left for the next night. Answers the quote numbers abandoned.
 */
export async function abandonStaleQuotes(db: Database, now: Date, days?: number): Promise<string[]> {
  const after = days ?? (await abandonAfterDays(db));
  const cutoff = new Date(now.getTime() - after * DAY_MS);
  return db.transaction(async (tx) => {
    const open = and(
      inArray(quote.status, [...ABANDONABLE]),
      eq(quote.isBound, false),
      eq(quote.isBinding, false),
      lt(quote.updatedAt, cutoff),
    );
    const stale = await tx
      .select({ id: quote.id, number: quote.number, from: quote.status })
      .from(quote)
      .where(open)
      .for('update', { skipLocked: true });
    if (stale.length === 0) return [];
    await tx
      .update(quote)
      .set({ status: 'Abandoned', updatedAt: now })
      .where(
        inArray(
          quote.id,
          stale.map((q) => q.id),
        ),
      );
    await tx.insert(statusHistory).values(
      stale.map((q) => ({
        quoteId: q.id,
        fromStatus: q.from,
        toStatus: 'Abandoned',
        trigger: 'abandon',
        reason: `No activity for ${after} days.`,
        changedBy: 'system',
      })),
    );
    await tx.delete(alert).where(
      and(
        inArray(
          alert.quoteId,
          stale.map((q) => q.id),
        ),
        inArray(alert.kind, ['review', 'approved', 'declined']),
      ),
    );
    return stale.map((q) => q.number);
  });
}

/** The next nightly run after `now` (03:00 UTC). */
export function nextNight(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), NIGHT_HOUR_UTC));
  return next.getTime() <= now.getTime() ? new Date(next.getTime() + DAY_MS) : next;
}

/** The last night asked for, per queue (one request per process and night). */
const scheduledFor = new WeakMap<object, number>();

/**
 * Asks the queue for the next nightly sweep, once per process and night (a singleton per night in
 * the queue, so several processes ask for one run). Called when quotes change: a book with no
 * activity has nothing new to abandon after the sweep that follows its last change.
 */
export async function scheduleAbandonSweep(
  context: Pick<ServerPluginContext, 'jobs' | 'log'>,
  now: Date = new Date(),
): Promise<void> {
  const night = nextNight(now);
  if (scheduledFor.get(context.jobs) === night.getTime()) return;
  scheduledFor.set(context.jobs, night.getTime());
  const send = context.jobs.send as (
    name: string,
    data: object,
    options: Parameters<JobQueue['send']>[2] & { singletonSeconds: number },
  ) => Promise<string | null>;
  try {
    await send.call(
      context.jobs,
      ABANDON_JOB,
      {},
      { singletonKey: `night-${night.toISOString().slice(0, 10)}`, singletonSeconds: 43_200, startAfter: night },
    );
  } catch (error) {
    scheduledFor.delete(context.jobs);
    context.log.warn({ err: error }, 'quote abandon sweep not scheduled');
  }
}

export const abandonJob: JobDefinition = {
  name: ABANDON_JOB,
  pollingIntervalSeconds: 60,
  retryLimit: 3,
  handler: async (_data, context) => {
    const now = new Date();
    const abandoned = await abandonStaleQuotes(context.db, now);
    if (abandoned.length > 0) context.log.info({ count: abandoned.length }, 'stale quotes abandoned');
    // Open quotes left: they may go stale later, so the next night runs too.
    const [open] = await context.db
      .select({ n: sql<number>`count(*)::int` })
      .from(quote)
      .where(and(inArray(quote.status, [...ABANDONABLE]), eq(quote.isBound, false)));
    if ((open?.n ?? 0) > 0) await scheduleAbandonSweep(context, new Date(now.getTime() + 60_000));
  },
};
