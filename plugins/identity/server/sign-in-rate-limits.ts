import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { AtriumRouter } from '@atrium/sdk/server';
import { ATTEMPT_LIMIT, identityError } from './identity-errors.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * Throttling by source on the routes that take a password or a code from anybody: sign-in, its
 * challenges (new password, MFA, MFA resend) and forgot / reset password (issue 14, hole 7). Two
 * limits per minute, both answered 429 LimitExceededException with Retry-After:
 *
 * - per source (the caller's IP address; IPv6 by /64): password spraying with rotating usernames
 *   from one address stops after `perSourcePerMinute` attempts, whatever the usernames;
 * - over all sources: a distributed spray cannot exceed `allSourcesPerMinute`.
 *
 * The account lockout (sign-in-throttle.ts) works below these, per account and source.
 *
 * Counters: with PostgreSQL (DATABASE_URL) in identity's `rate_counter` table, so that every
 * server process counts together; on the embedded database in this process's memory
 * (@fastify/rate-limit's LRU store), which is the only process.
 *
 * Behind a reverse proxy, every request comes from the proxy's address unless the server trusts
 * its X-Forwarded-For (docs/identity.md, "Throttling").
 */
export interface SignInRateLimits {
  perSourcePerMinute: number;
  allSourcesPerMinute: number;
}

export type ThrottleHook = (request: FastifyRequest) => Promise<void>;

export const DEFAULT_SIGN_IN_RATE_LIMITS: SignInRateLimits = { perSourcePerMinute: 30, allSourcesPerMinute: 600 };
export const RATE_LIMIT_WINDOW_MS = 60_000;

interface StoreOptions {
  counterPrefix?: string;
}
type Increment = (
  key: string,
  callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
  timeWindow: number,
) => void;

/** @fastify/rate-limit's custom store over the identity rate counters (PostgreSQL). */
function databaseStore(limiter: RateLimiter) {
  class DatabaseStore {
    constructor(private readonly options: StoreOptions = {}) {}
    incr: Increment = (key, callback, timeWindow) => {
      limiter
        .hit(`rate-limit:${this.options.counterPrefix ?? 'default'}:${key}`, timeWindow)
        .then(({ count, resetsInMs }) => callback(null, { current: count, ttl: resetsInMs }))
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    };
    child(options: object) {
      return new DatabaseStore(options as StoreOptions);
    }
  }
  return DatabaseStore;
}

/**
 * Registers the rate-limit plugin in `scope` and answers the onRequest hook the throttled routes
 * carry. Both limits count every request (a request refused by one still counts for the other).
 */
export async function signInRateLimitHook(
  scope: AtriumRouter,
  options: { limits: SignInRateLimits; sharedCounters: RateLimiter | null },
): Promise<ThrottleHook> {
  await scope.register(rateLimit, {
    global: false,
    ...(options.sharedCounters ? { store: databaseStore(options.sharedCounters) } : {}),
  });
  const bySource = scope.createRateLimit({
    max: options.limits.perSourcePerMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    counterPrefix: 'sign-in-source',
  } as Parameters<AtriumRouter['createRateLimit']>[0]);
  const allSources = scope.createRateLimit({
    max: options.limits.allSourcesPerMinute,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    keyGenerator: () => 'all',
    counterPrefix: 'sign-in-all',
  } as Parameters<AtriumRouter['createRateLimit']>[0]);
  return async (request) => {
    const results = [await bySource(request), await allSources(request)];
    const exceeded = results
      .filter((result) => !result.isAllowed && result.isExceeded)
      .map((result) => (result.isAllowed ? 0 : result.ttlInSeconds));
    if (exceeded.length === 0) return;
    const retryAfter = Math.max(1, ...exceeded);
    throw identityError('LimitExceededException', ATTEMPT_LIMIT, {
      headers: { 'retry-after': String(retryAfter) },
      meta: { retry_after_seconds: retryAfter },
    });
  };
}
