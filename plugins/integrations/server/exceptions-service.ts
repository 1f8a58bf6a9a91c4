import { and, eq, inArray } from 'drizzle-orm';
import { provideService, EXCEPTIONS_QUEUE, type ExceptionsQueue } from '@atrium/sdk/server';
import { exception } from './tables.js';

/** The exceptions queue as other plugins call it (`EXCEPTIONS_QUEUE` from @atrium/sdk/server). */
export const exceptionsQueue: ExceptionsQueue = {
  async report(tx, report) {
    const [row] = await tx
      .insert(exception)
      .values({
        module: report.module,
        kind: report.kind,
        reason: report.reason.slice(0, 2000),
        payload: report.payload,
        attempts: report.attempts,
        reference: report.reference ?? null,
        retryJob: report.retryJob ?? null,
      })
      .returning({ id: exception.id });
    return row!.id;
  },
  async resolve(tx, id, by) {
    await tx
      .update(exception)
      .set({ status: 'resolved', resolvedBy: by, updatedAt: new Date() })
      .where(and(eq(exception.id, id), inArray(exception.status, ['open', 'retrying'])));
  },
};

export const exceptionsQueueProvision = provideService(EXCEPTIONS_QUEUE, () => exceptionsQueue);
