import { and, desc, eq, sql } from 'drizzle-orm';
import { conflict, notFound, z, type AtriumRouter, type ServerPluginContext } from '@atrium/sdk/server';
import type { Dispatcher } from './delivery/dispatcher.js';
import type { IntegrationRunner } from './integration/runner.js';
import { can } from './permissions.js';
import { exception } from './tables.js';

/** The exceptions queue (plain JSON) and the dashboard's delivery counts. */
const tags = ['integrations'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.uuid({ error: 'Not an exception id.' }) });

type Row = typeof exception.$inferSelect;
const present = (row: Row) => ({
  id: row.id,
  module: row.module,
  kind: row.kind,
  reason: row.reason,
  payload: row.payload,
  attempts: row.attempts,
  reference: row.reference,
  retryable: row.kind === 'webhook-delivery' || row.retryJob !== null,
  status: row.status,
  dismiss_reason: row.dismissReason,
  resolved_by: row.resolvedBy,
  date_created: row.createdAt.toISOString(),
  date_updated: row.updatedAt.toISOString(),
});

export function exceptionRoutes(
  router: AtriumRouter,
  context: ServerPluginContext,
  dispatcher: Dispatcher,
  runner: IntegrationRunner,
): void {
  const { db } = context;
  const find = async (id: string) => {
    const [row] = await db.select().from(exception).where(eq(exception.id, id));
    if (!row) throw notFound(`exception ${id} not found.`);
    return row;
  };

  router.get(
    '/integrations/exceptions',
    {
      config: { access: can('exception', 'read') },
      schema: {
        summary: 'The exceptions queue, newest first; open ones by default.',
        tags,
        security,
        querystring: z.strictObject({
          module: z.string().max(60).optional(),
          status: z.enum(['open', 'retrying', 'resolved', 'dismissed', 'all']).default('open'),
          page: z.coerce.number().int().min(1).default(1),
          page_size: z.coerce.number().int().min(1).max(200).default(50),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const where = and(
        q.module ? eq(exception.module, q.module) : undefined,
        q.status !== 'all' ? eq(exception.status, q.status) : undefined,
      );
      const [{ count }] = (await db
        .select({ count: sql<number>`count(*)::int` })
        .from(exception)
        .where(where)) as [{ count: number }];
      const rows = await db
        .select()
        .from(exception)
        .where(where)
        .orderBy(desc(exception.createdAt))
        .limit(q.page_size)
        .offset((q.page - 1) * q.page_size);
      const modules = (
        await db.selectDistinct({ module: exception.module }).from(exception).orderBy(exception.module)
      ).map((r) => r.module);
      return { count, results: rows.map(present), modules };
    },
  );

  router.get(
    '/integrations/exceptions/:id',
    {
      config: { access: can('exception', 'read') },
      schema: { summary: 'One exception.', tags, security, params: idParams },
    },
    async (request) => present(await find(request.params.id)),
  );

  router.post(
    '/integrations/exceptions/:id/retry',
    {
      config: { access: can('exception', 'update') },
      schema: {
        summary: 'Retries: a webhook delivery is sent again now; another module’s job is enqueued with the payload.',
        tags,
        security,
        params: idParams,
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      if (row.status !== 'open') throw conflict(`Only an open exception can be retried; this one is ${row.status}.`);
      if (row.kind === 'webhook-delivery' && row.module === 'integrations') {
        await db.transaction(async (tx) => {
          await dispatcher.resend(tx, row.reference!);
          await tx.update(exception).set({ status: 'retrying', updatedAt: new Date() }).where(eq(exception.id, row.id));
        });
        dispatcher.kick();
      } else if (row.kind === 'integration-step' && row.module === 'integrations') {
        // The run goes on from the failed step; a success resolves this exception.
        await db.update(exception).set({ status: 'retrying', updatedAt: new Date() }).where(eq(exception.id, row.id));
        await runner.retry(String(row.payload.run_id));
      } else if (row.retryJob) {
        // Marked first: the job starts at once and may resolve the exception before this line would.
        await db.update(exception).set({ status: 'retrying', updatedAt: new Date() }).where(eq(exception.id, row.id));
        await context.jobs.send(row.retryJob, { exception_id: row.id, payload: row.payload });
      } else {
        throw conflict('This exception cannot be retried from here; dismiss it with a reason.');
      }
      return present(await find(row.id));
    },
  );

  router.post(
    '/integrations/exceptions/:id/dismiss',
    {
      config: { access: can('exception', 'update') },
      schema: {
        summary: 'Dismisses an exception with a reason.',
        tags,
        security,
        params: idParams,
        body: z.strictObject({
          reason: z.string().trim().min(1, 'Say why the exception is dismissed.').max(1000),
        }),
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      if (row.status === 'resolved' || row.status === 'dismissed') {
        throw conflict(`This exception is already ${row.status}.`);
      }
      const [updated] = await db
        .update(exception)
        .set({
          status: 'dismissed',
          dismissReason: request.body.reason,
          resolvedBy: request.principal.username,
          updatedAt: new Date(),
        })
        .where(eq(exception.id, row.id))
        .returning();
      return present(updated!);
    },
  );

  router.get(
    '/integrations/stats',
    {
      config: { access: can('subscription', 'read') },
      schema: {
        summary: 'Delivery attempts per day (succeeded, failed) over the last days, and open exceptions.',
        tags,
        security,
        querystring: z.strictObject({ days: z.coerce.number().int().min(1).max(90).default(14) }),
      },
    },
    async (request) => {
      const days = request.query.days;
      const rows = (
        await db.execute<{ day: string; succeeded: number; failed: number }>(sql`
          select to_char(date_trunc('day', attempted_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
                 count(*) filter (where succeeded)::int as succeeded,
                 count(*) filter (where not succeeded)::int as failed
            from integrations.attempt
           where attempted_at > now() - ${`${days} days`}::interval
           group by 1 order by 1`)
      ).rows;
      const [totals] = (
        await db.execute<{ subscriptions: number; active: number; open_exceptions: number; pending: number }>(sql`
          select (select count(*)::int from integrations.subscription) as subscriptions,
                 (select count(*)::int from integrations.subscription where status = 'active') as active,
                 (select count(*)::int from integrations.exception where status = 'open') as open_exceptions,
                 (select count(*)::int from integrations.message where status in ('pending', 'retrying')) as pending`)
      ).rows;
      return { days: rows, totals };
    },
  );
}
