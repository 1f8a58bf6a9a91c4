import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable, ServerPluginContext } from '@atrium/sdk/server';
import { integration, integrationRun, integrationRunStep } from '../tables.js';
import type { IntegrationRunner } from './runner.js';

/**
 * Runs started by events. An integration lists event prefixes in `events` (as a subscription does:
 * `*`, a module, or a longer topic prefix). The dispatcher's fan-out, in the transaction that moves
 * its cursor over the outbox, queues one run per matching integration and event (unique per
 * integration and event, so a fan-out repeated after a crash queues nothing twice); the input is the
 * event's envelope. Queued runs are claimed with a lease wherever the dispatcher runs (the SDK's
 * `background` hook: `atrium start`, `atrium worker`), so a run survives a restart: a process killed
 * mid-run leaves the run `running` with a lease that ends, and the next claim resumes it after its
 * last succeeded step.
 */

/** Queues the runs that outbox rows `from` < id ≤ `to` start; `envelope` is the envelope of `o`. */
export async function queueEventRuns(tx: Queryable, from: number, to: number, envelope: SQL): Promise<void> {
  await tx.execute(sql`
    insert into integrations.integration_run (integration_id, trigger, input, status, triggered_by, event_id)
    select i.id, 'event', (${envelope})::jsonb, 'queued', coalesce(o.triggering_user, 'system'), o.event_id
      from core.event_outbox o
      join integrations.integration i
        on o.id > i.start_outbox_id
       and exists (select 1 from jsonb_array_elements_text(i.events) p
                    where p = '*' or o.topic = p or o.topic like p || '.%')
     where o.id > ${from} and o.id <= ${to}
     order by o.id
    on conflict (integration_id, event_id) do nothing`);
}

/** Whether any integration listens to events or any event run waits: the dispatcher is not idle. */
export const eventRunWork = sql`
  exists (select 1 from integrations.integration where jsonb_array_length(events) > 0)
  or exists (select 1 from integrations.integration_run
              where status = 'queued' or (status = 'running' and lease_until < now()))`;

/** Runs claimed at once, and how long a claim holds (every step at its longest, and a margin). */
const CLAIM = 5;
const MAX_STEPS = 20;

/**
 * Claims up to CLAIM due event runs (queued, or running with an ended lease) and runs them one after
 * another, oldest first; answers how many it claimed.
 */
export async function runDueEventRuns(
  context: ServerPluginContext,
  runner: IntegrationRunner,
  stepTimeoutMs: number,
): Promise<number> {
  const leaseMs = MAX_STEPS * (stepTimeoutMs + 2_000) + 30_000;
  const claimed = (
    await context.db.execute<{ id: string }>(sql`
      update integrations.integration_run r
         set status = 'running', lease_until = now() + ${`${leaseMs} milliseconds`}::interval
       where r.id in (select id from integrations.integration_run
                       where trigger = 'event'
                         and (status = 'queued' or (status = 'running' and lease_until < now()))
                       order by started_at, id
                       limit ${CLAIM}
                       for update skip locked)
      returning r.id`)
  ).rows;
  for (const { id } of claimed) {
    try {
      await resume(context, runner, id);
    } catch (error) {
      // Left running: its lease ends and the next claim resumes it.
      context.log.error({ err: error, runId: id }, 'integration run failed to run');
    }
  }
  return claimed.length;
}

/** Runs a claimed run from the step after its last succeeded one (all of it when it is new). */
async function resume(context: ServerPluginContext, runner: IntegrationRunner, runId: string): Promise<void> {
  const { db } = context;
  const [row] = await db
    .select({ run: integrationRun, definition: integration.definition })
    .from(integrationRun)
    .innerJoin(integration, eq(integration.id, integrationRun.integrationId))
    .where(eq(integrationRun.id, runId));
  if (!row) return;
  const [last] = await db
    .select({ position: integrationRunStep.position, output: integrationRunStep.output })
    .from(integrationRunStep)
    .where(and(eq(integrationRunStep.runId, runId), eq(integrationRunStep.status, 'succeeded')))
    .orderBy(desc(integrationRunStep.position))
    .limit(1);
  const position = last ? last.position + 1 : 0;
  await runner.runFrom(row.run, row.definition, position, last ? last.output : row.run.input);
}
