import type { Queryable } from './define-server-plugin.js';
import { createServiceRef } from './services.js';

/**
 * The one exceptions queue (docs/integrations.md): anything that failed for good after its own
 * retries — a webhook delivery, an integration step, a renewal — is reported here so that a person
 * sees it with its reason, payload and attempts, and retries or dismisses it. The integrations module
 * provides the service; a plugin lists `EXCEPTIONS_QUEUE` in its `deps` and calls
 * `context.service(EXCEPTIONS_QUEUE).report(tx, …)` in the transaction that records the failure.
 */
export interface ExceptionReport {
  /** The reporting module's id (`claims`, `lines` …); the queue filters by it. */
  module: string;
  /** What failed, e.g. `webhook-delivery`, `renewal`. */
  kind: string;
  /** Why, in a sentence a person can act on. */
  reason: string;
  /** What was being processed (shown as JSON and handed back on Retry). */
  payload: Record<string, unknown>;
  /** How many attempts were made before giving up. */
  attempts: number;
  /** The reporter's own reference (a message id, a policy number), shown and searchable. */
  reference?: string;
  /**
   * The job (the reporter's own `jobs` entry) that Retry enqueues with `{ exception_id, payload }`.
   * Without it the queue offers Dismiss only.
   */
  retryJob?: string;
}

export type ExceptionsQueue = {
  /**
   * Adds an open exception; returns its id. A report with the same module, kind and `reference` as
   * an open or retrying exception (a retry that failed again) reopens that one, adding `attempts`.
   */
  report(tx: Queryable, report: ExceptionReport): Promise<string>;
  /** Marks an exception resolved (e.g. the retried job succeeded). */
  resolve(tx: Queryable, id: string, by: string): Promise<void>;
  /**
   * Dismisses, with the reason, the open exception a module reported under `reference` — when the
   * thing failed was dismissed in the reporting module itself (a failed policy transaction dismissed
   * in Policies), so that the queue does not keep offering it.
   */
  dismissByReference(
    tx: Queryable,
    match: { module: string; reference: string },
    reason: string,
    by: string,
  ): Promise<void>;
};

export const EXCEPTIONS_QUEUE = createServiceRef<ExceptionsQueue>('integrations.exceptions');
