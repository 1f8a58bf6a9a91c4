import { and, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '@atrium/sdk/server';
import type { Clock } from './clock.js';
import {
  messageOutbox,
  oidcAuthorization,
  rateCounter,
  refreshTokenFamily,
  signInChallenge,
  signInThrottle,
  verificationCode,
} from './tables.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const HOUSEKEEPING_INTERVAL_MS = HOUR_MS;

/**
 * Deletes what can no longer matter: ended sessions, spent challenges, codes and authorization
 * states, idle throttles (a username spray must not grow the tables without bound) and old outbox
 * messages. Everything is kept a day past its end, for investigations.
 */
export async function purgeExpiredIdentityRecords(db: Database, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  await db.delete(signInChallenge).where(lt(signInChallenge.expiresAt, dayAgo));
  await db.delete(verificationCode).where(lt(verificationCode.expiresAt, dayAgo));
  await db.delete(oidcAuthorization).where(lt(oidcAuthorization.expiresAt, dayAgo));
  await db
    .delete(refreshTokenFamily)
    .where(
      or(
        lt(refreshTokenFamily.expiresAt, dayAgo),
        and(isNotNull(refreshTokenFamily.revokedAt), lt(refreshTokenFamily.revokedAt, dayAgo)),
      ),
    );
  await db
    .delete(signInThrottle)
    .where(
      and(
        lt(signInThrottle.windowStartedAt, dayAgo),
        or(isNull(signInThrottle.lockedUntil), lt(signInThrottle.lockedUntil, dayAgo)),
      ),
    );
  await db.delete(rateCounter).where(lt(rateCounter.windowStartedAt, dayAgo));
  await db.delete(messageOutbox).where(lt(messageOutbox.createdAt, new Date(now.getTime() - 7 * DAY_MS)));
}

/** Runs the purge at most once an hour per process, in the background of ordinary requests. */
export class Housekeeping {
  private lastRun = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    /** More chores of the same rhythm (sealing secrets still stored in plaintext). */
    private readonly chores: (() => Promise<unknown>)[] = [],
  ) {}

  /** Starts a purge when one is due; never throws, never makes the caller wait. */
  nudge(): Promise<void> | null {
    const now = this.clock.now();
    if (this.running || now.getTime() - this.lastRun < HOUSEKEEPING_INTERVAL_MS) return null;
    this.lastRun = now.getTime();
    this.running = (async () => {
      await purgeExpiredIdentityRecords(this.db, now);
      for (const chore of this.chores) await chore();
    })()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
