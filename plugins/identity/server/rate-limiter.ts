import { sql } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { rateCounter } from './tables.js';

const WINDOW_MS = 60 * 60 * 1000;

/** Counts events per key in fixed one-hour windows (forgot-password requests, code deliveries). */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts one event; false when the key already had `limitPerHour` in the current window. */
  async consume(key: string, limitPerHour: number): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const now = this.clock.now();
    const windowExpired = sql`${rateCounter.windowStartedAt} <= ${new Date(now.getTime() - WINDOW_MS).toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(rateCounter)
      .values({ key, windowStartedAt: now, count: 1 })
      .onConflictDoUpdate({
        target: rateCounter.key,
        set: {
          count: sql`CASE WHEN ${windowExpired} THEN 1 ELSE ${rateCounter.count} + 1 END`,
          windowStartedAt: sql`CASE WHEN ${windowExpired} THEN ${now.toISOString()}::timestamptz ELSE ${rateCounter.windowStartedAt} END`,
        },
      })
      .returning();
    const count = row?.count ?? 1;
    const windowStartedAt = row?.windowStartedAt ?? now;
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStartedAt.getTime() + WINDOW_MS - now.getTime()) / 1000));
    return { allowed: count <= limitPerHour, retryAfterSeconds };
  }
}
