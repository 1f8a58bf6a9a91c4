import { and, eq, sql } from 'drizzle-orm';
import { EXCEPTIONS_QUEUE, type JobDefinition } from '@atrium/sdk/server';
import { policyTransaction } from './tables.js';
import { TRANSACTION_RETRY_JOB } from './transaction-failure.js';
import { runTransaction } from './transactions.js';

/**
 * Retry from the exceptions queue: the failed transaction is queued again as it was (same type,
 * date and input) and run; completed, it resolves its exception; failed again, the failure reopens
 * the same exception with one more attempt. A transaction no longer failed (dismissed in Policies,
 * or already retried) has nothing to retry, and its exception is resolved.
 */
export const transactionRetryJob: JobDefinition<{ exception_id: string; payload: { transaction_id?: unknown } }> = {
  name: TRANSACTION_RETRY_JOB,
  pollingIntervalSeconds: 1,
  retryLimit: 0,
  async handler(data, context) {
    const exceptions = context.optionalService(EXCEPTIONS_QUEUE);
    const transactionId = Number(data.payload?.transaction_id);
    const requeued = Number.isInteger(transactionId)
      ? await context.db
          .update(policyTransaction)
          .set({ status: 'initiated', error: sql`null`, updatedAt: new Date() })
          .where(and(eq(policyTransaction.id, transactionId), eq(policyTransaction.status, 'failed')))
          .returning({ id: policyTransaction.id })
      : [];
    if (requeued.length > 0) await runTransaction(context, transactionId);
    const [after] = Number.isInteger(transactionId)
      ? await context.db
          .select({ status: policyTransaction.status })
          .from(policyTransaction)
          .where(eq(policyTransaction.id, transactionId))
      : [];
    if (after?.status === 'failed' && requeued.length > 0) return;
    await context.db.transaction((tx) => exceptions?.resolve(tx, data.exception_id, 'system') ?? Promise.resolve());
  },
};
