import { eq } from 'drizzle-orm';
import { EXCEPTIONS_QUEUE, type Queryable, type ServerPluginContext } from '@atrium/sdk/server';
import { policy, policyTransaction } from './tables.js';

/** The job Retry in the exceptions queue enqueues for a failed transaction (transaction-retry-job.ts). */
export const TRANSACTION_RETRY_JOB = 'policies-transaction-retry';

type TransactionRow = typeof policyTransaction.$inferSelect;

/** How the exceptions queue names a failed transaction (one exception per transaction). */
const transactionReference = (id: number | string) => `transaction ${id}`;

/** A failed transaction dismissed in Policies is dismissed in the exceptions queue too, with its reason. */
export async function dismissTransactionException(
  context: Pick<ServerPluginContext, 'optionalService'>,
  tx: Queryable,
  transactionId: number | string,
  reason: string,
  by: string,
): Promise<void> {
  await context
    .optionalService(EXCEPTIONS_QUEUE)
    ?.dismissByReference(tx, { module: 'policies', reference: transactionReference(transactionId) }, reason, by);
}

/**
 * Marks a transaction failed with the reason and, when the integrations module is installed, reports
 * it into the one exceptions queue (docs/integrations.md) in the same database transaction: a failed
 * renewal as `renewal`, any other as `policy-transaction`. Retry there re-runs the transaction. The
 * queue is optional: without integrations a failure is listed by the policies module alone.
 */
export async function recordTransactionFailure(
  context: Pick<ServerPluginContext, 'db' | 'optionalService'>,
  row: TransactionRow,
  reason: string,
): Promise<void> {
  const exceptions = context.optionalService(EXCEPTIONS_QUEUE);
  await context.db.transaction(async (tx) => {
    await tx
      .update(policyTransaction)
      .set({ status: 'failed', error: reason, updatedAt: new Date() })
      .where(eq(policyTransaction.id, row.id));
    if (!exceptions) return;
    const [owner] = await tx.select({ number: policy.number }).from(policy).where(eq(policy.id, row.policyId));
    const what = row.type === 'renewal' ? 'The renewal' : `The ${row.type}`;
    await exceptions.report(tx, {
      module: 'policies',
      kind: row.type === 'renewal' ? 'renewal' : 'policy-transaction',
      reason: `${what} of policy ${owner?.number ?? row.policyId} effective ${row.effectiveDate} failed: ${reason}`,
      payload: {
        transaction_id: row.id,
        policy_number: owner?.number ?? null,
        type: row.type,
        effective_date: row.effectiveDate,
        description: row.description,
      },
      attempts: 1,
      // One exception per transaction: a retry that fails again reopens it (the queue's rule).
      reference: transactionReference(row.id),
      retryJob: TRANSACTION_RETRY_JOB,
    });
  });
}
