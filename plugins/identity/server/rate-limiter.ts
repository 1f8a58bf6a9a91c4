import { sql } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { rateCounter } from './tables.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Counts events per key in fixed windows, in the database so that every server process shares the
 * counts: forgot-password requests and code deliveries (one hour), and on PostgreSQL the per-source
 * and global sign-in limits (sign-in-rate-limits.ts).
 */
export class RateLimiter {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts one event; false when the key already had `limitPerHour` in the current window. */
  async consume(key: string, limitPerHour: number): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const { count, resetsInMs } = await this.hit(key, HOUR_MS);
    return { allowed: count <= limitPerHour, retryAfterSeconds: Math.max(1, Math.ceil(resetsInMs / 1000)) };
  }

  /** Counts one event in the key's current window of `windowMs`; its count so far and when it ends. */
  async hit(key: string, windowMs: number): Promise<{ count: number; resetsInMs: number }> {
    const now = this.clock.now();
    const windowExpired = sql`${rateCounter.windowStartedAt} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
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
    return { count, resetsInMs: Math.max(0, windowStartedAt.getTime() + windowMs - now.getTime()) };
  }
}
