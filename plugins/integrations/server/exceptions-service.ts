import { and, eq, inArray, sql } from 'drizzle-orm';
import { provideService, EXCEPTIONS_QUEUE, type ExceptionsQueue } from '@atrium/sdk/server';
import { exception } from './tables.js';

/** The exceptions queue as other plugins call it (`EXCEPTIONS_QUEUE` from @atrium/sdk/server). */
export const exceptionsQueue: ExceptionsQueue = {
  async report(tx, report) {
    // The same failure reported again (a retry that failed too) reopens its exception, one per thing.
    if (report.reference) {
      const [reopened] = await tx
        .update(exception)
        .set({
          status: 'open',
          reason: report.reason.slice(0, 2000),
          payload: report.payload,
          attempts: sql`${exception.attempts} + ${report.attempts}`,
          updatedAt: new Date(),
        })
        .where(
          and(
            eq(exception.module, report.module),
            eq(exception.kind, report.kind),
            eq(exception.reference, report.reference),
            inArray(exception.status, ['open', 'retrying']),
          ),
        )
        .returning({ id: exception.id });
      if (reopened) return reopened.id;
    }
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
  async dismissByReference(tx, match, reason, by) {
    await tx
      .update(exception)
      .set({ status: 'dismissed', dismissReason: reason.slice(0, 1000), resolvedBy: by, updatedAt: new Date() })
      .where(
        and(
          eq(exception.module, match.module),
          eq(exception.reference, match.reference),
          inArray(exception.status, ['open', 'retrying']),
        ),
      );
  },
};

export const exceptionsQueueProvision = provideService(EXCEPTIONS_QUEUE, () => exceptionsQueue);
