import { eq } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import { afterFailure, afterSuccess, lockedUntil, type ThrottleState } from './lockout-policy.js';
import { signInThrottle } from './tables.js';

/**
 * Failed passwords and codes per account, stored so that every server process sees the same count.
 * Keyed by the normalised username whether or not the user exists.
 */
export class SignInThrottle {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The instant the account may try again, or null when it is not locked. */
  async lockedUntil(username: string): Promise<Date | null> {
    const [row] = await this.db.select().from(signInThrottle).where(eq(signInThrottle.username, username)).limit(1);
    return lockedUntil(row, this.clock.now());
  }

  recordFailure(username: string): Promise<ThrottleState> {
    return this.update(username, afterFailure);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.update(username, afterSuccess);
  }

  private update(
    username: string,
    next: (state: ThrottleState | undefined, now: Date) => ThrottleState,
  ): Promise<ThrottleState> {
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      // Create the row first so that concurrent failures serialise on its lock.
      await tx
        .insert(signInThrottle)
        .values({ username, consecutiveFailures: 0, windowStartedAt: now, windowFailures: 0 })
        .onConflictDoNothing();
      const [current] = await tx
        .select()
        .from(signInThrottle)
        .where(eq(signInThrottle.username, username))
        .for('update');
      const state = next(current, now);
      await tx.update(signInThrottle).set(state).where(eq(signInThrottle.username, username));
      return state;
    });
  }
}
