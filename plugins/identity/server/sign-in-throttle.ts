import { eq, inArray } from 'drizzle-orm';
import type { Database, Queryable } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import {
  afterFailure,
  afterSuccess,
  hourlyCapUntil,
  lockedUntil,
  latest,
  type ThrottleState,
} from './lockout-policy.js';
import { signInThrottle } from './tables.js';

/**
 * Failed passwords and codes, stored so that every server process sees the same count. Keyed by
 * the normalised username whether or not the user exists, twice:
 *
 * - per account and source (the caller's IP address): the consecutive-failure lock
 *   (lockout-policy.ts) applies to that source only, so a stranger guessing the administrator's
 *   password locks out himself, not the administrator signing in from elsewhere;
 * - per account: the hourly cap (MAXIMUM_FAILURES_PER_HOUR) counts failures from every source, so
 *   guessing spread over many addresses still stops.
 *
 * Guessing across many usernames from one source is the per-IP rate limit's business
 * (sign-in-rate-limits.ts).
 */
export const accountKey = (username: string) => `account|${username}`;
/** The source (an IP address) never holds a '|', so keys of different accounts cannot collide. */
export const sourceKey = (username: string, source: string) => `source|${source.replace(/\|/g, '')}|${username}`;

export class SignInThrottle {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The instant this account may try again from this source, or null when it may now. */
  async lockedUntil(username: string, source: string): Promise<Date | null> {
    const keys = [accountKey(username), sourceKey(username, source)];
    const rows = await this.db.select().from(signInThrottle).where(inArray(signInThrottle.username, keys));
    const byKey = new Map(rows.map((row) => [row.username, row]));
    const now = this.clock.now();
    return latest([lockedUntil(byKey.get(keys[1]!), now), hourlyCapUntil(byKey.get(keys[0]!), now)]);
  }

  async recordFailure(username: string, source: string): Promise<ThrottleState> {
    return this.db.transaction(async (tx) => {
      await this.update(tx, accountKey(username), afterFailure);
      return this.update(tx, sourceKey(username, source), afterFailure);
    });
  }

  async recordSuccess(username: string, source: string): Promise<void> {
    await this.update(this.db, sourceKey(username, source), afterSuccess);
  }

  private async update(
    db: Queryable,
    key: string,
    next: (state: ThrottleState | undefined, now: Date) => ThrottleState,
  ): Promise<ThrottleState> {
    const now = this.clock.now();
    // Create the row first so that concurrent failures serialise on its lock.
    await db
      .insert(signInThrottle)
      .values({ username: key, consecutiveFailures: 0, windowStartedAt: now, windowFailures: 0 })
      .onConflictDoNothing();
    const [current] = await db.select().from(signInThrottle).where(eq(signInThrottle.username, key)).for('update');
    const state = next(current, now);
    await db.update(signInThrottle).set(state).where(eq(signInThrottle.username, key));
    return state;
  }
}
