/**
 * Delivery settings, read from the environment when the server starts (docs/integrations.md):
 *
 * - `ATRIUM_WEBHOOKS_ALLOW_PRIVATE=true` lets subscriptions target loopback, link-local and private
 *   addresses (a carrier's own network, tests). Off by default.
 * - `ATRIUM_WEBHOOKS_RETRY_SCHEDULE` the delays between attempts, comma-separated seconds; the
 *   default, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, spans about a day (Standard Webhooks' own).
 * - `ATRIUM_WEBHOOKS_POLL_MS` how often the dispatcher looks for new events and due retries (250);
 *   with no pending or active subscription and nothing due it looks every 10 s instead.
 * - `ATRIUM_WEBHOOKS_TIMEOUT_MS` how long a receiver may take to answer (15000).
 */
export interface DeliverySettings {
  allowPrivate: boolean;
  retryScheduleMs: number[];
  pollMs: number;
  timeoutMs: number;
}

const DEFAULT_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export function deliverySettings(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  const schedule = (env.ATRIUM_WEBHOOKS_RETRY_SCHEDULE ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const valid = schedule.length > 0 && schedule.every((s) => Number.isFinite(s) && s >= 0);
  const positive = (value: string | undefined, fallback: number) => {
    const n = Number(value);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    allowPrivate: env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE === 'true',
    retryScheduleMs: (valid ? schedule : DEFAULT_SCHEDULE).map((s) => s * 1000),
    pollMs: positive(env.ATRIUM_WEBHOOKS_POLL_MS, 250),
    timeoutMs: positive(env.ATRIUM_WEBHOOKS_TIMEOUT_MS, 15_000),
  };
}

/** The delay before retry number `n` (1-based) with ±20 % jitter; null when the schedule is spent. */
export function retryDelay(settings: DeliverySettings, failedAttempts: number, random = Math.random): number | null {
  const base = settings.retryScheduleMs[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}
