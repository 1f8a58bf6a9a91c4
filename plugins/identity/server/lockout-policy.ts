/**
 * Account lockout (NIST SP 800-63B §5.2.2, the identity provider's behaviour): the first five
 * failures are free; from the fifth on, the account is locked for 2^(n−5) seconds, at most 15
 * minutes; and no account takes more than 100 failures in an hour.
 */
export const FREE_FAILURES = 5;
export const MAXIMUM_LOCK_SECONDS = 15 * 60;
export const MAXIMUM_FAILURES_PER_HOUR = 100;
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;

/** Seconds an account stays locked after its n-th consecutive failure. */
export function lockSecondsAfter(consecutiveFailures: number): number {
  if (consecutiveFailures < FREE_FAILURES) return 0;
  return Math.min(2 ** (consecutiveFailures - FREE_FAILURES), MAXIMUM_LOCK_SECONDS);
}

export interface ThrottleState {
  consecutiveFailures: number;
  lockedUntil: Date | null;
  windowStartedAt: Date;
  windowFailures: number;
}

/** The latest of some instants, null when there are none. */
export function latest(instants: (Date | null)[]): Date | null {
  const present = instants.filter((instant): instant is Date => instant !== null);
  if (present.length === 0) return null;
  return new Date(Math.max(...present.map((date) => date.getTime())));
}

/** When the hourly cap (MAXIMUM_FAILURES_PER_HOUR) lets the account try again, or null. */
export function hourlyCapUntil(state: ThrottleState | undefined, now: Date): Date | null {
  if (!state) return null;
  const windowEnds = new Date(state.windowStartedAt.getTime() + FAILURE_WINDOW_MS);
  return state.windowFailures >= MAXIMUM_FAILURES_PER_HOUR && windowEnds > now ? windowEnds : null;
}

/** When the account may try again, or null when it may now. */
export function lockedUntil(state: ThrottleState | undefined, now: Date): Date | null {
  if (!state) return null;
  return latest([state.lockedUntil && state.lockedUntil > now ? state.lockedUntil : null, hourlyCapUntil(state, now)]);
}

/** The state after one more failure at `now`. */
export function afterFailure(state: ThrottleState | undefined, now: Date): ThrottleState {
  const windowExpired = !state || now.getTime() - state.windowStartedAt.getTime() >= FAILURE_WINDOW_MS;
  const consecutiveFailures = (state?.consecutiveFailures ?? 0) + 1;
  const lockSeconds = lockSecondsAfter(consecutiveFailures);
  return {
    consecutiveFailures,
    lockedUntil: lockSeconds > 0 ? new Date(now.getTime() + lockSeconds * 1000) : null,
    windowStartedAt: windowExpired ? now : state.windowStartedAt,
    windowFailures: windowExpired ? 1 : state.windowFailures + 1,
  };
}

/** A success clears the consecutive count and the lock, but not the hourly tally. */
export function afterSuccess(state: ThrottleState | undefined, now: Date): ThrottleState {
  return {
    consecutiveFailures: 0,
    lockedUntil: null,
    windowStartedAt: state?.windowStartedAt ?? now,
    windowFailures: state?.windowFailures ?? 0,
  };
}
