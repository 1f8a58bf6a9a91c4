import { SpanKind } from '@opentelemetry/api';
import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { JobDefinition, JobQueue, ServerPluginContext } from '@atrium/sdk/server';
import type { DatabaseHandle } from '../database/connect.js';
import { traced } from '../tracing/traced.js';

/**
 * Background jobs on pg-boss over the application's own pool, so the embedded database and a
 * PostgreSQL server take the same path (pg-boss accepts any `executeSql`). Queues are created for
 * every job a plugin declares; workers run in the API process by default, or in `atrium worker`.
 */
export class Jobs implements JobQueue {
  private readonly boss: PgBoss;
  private started = false;
  /** This process's pg-boss worker ids per queue, to wake them (`notifyWorker`). */
  private readonly workers = new Map<string, string[]>();

  constructor(
    database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values as unknown[]) },
      schema: 'pgboss',
      // The embedded database has one connection; maintenance every few minutes is plenty.
      maintenanceIntervalSeconds: 300,
      superviseIntervalSeconds: 300,
    } as PgBoss.ConstructorOptions);
    this.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
  }

  async start(definitions: JobDefinition[]): Promise<void> {
    await this.boss.start();
    this.started = true;
    await createQueues(this.boss, definitions);
  }

  /**
   * Works every queue in this process. A worker polls its queue when idle (the definition's
   * `pollingIntervalSeconds`); besides that it is woken: by a send from this process, and by itself
   * after each job, so that a queue of several jobs runs one after the other instead of one per poll
   * (pg-boss's worker otherwise sleeps its interval after every job). With `wokenBySends` (the API
   * process works its own queues) nearly every job is found by a wake-up, so idle polling, which
   * costs each live server several percent of a core, drops to every IDLE_POLL_SECONDS; it still
   * picks up retries and delayed jobs.
   */
  async work(
    definitions: JobDefinition[],
    context: ServerPluginContext,
    options: { wokenBySends?: boolean } = {},
  ): Promise<void> {
    for (const definition of definitions) {
      const declared = definition.pollingIntervalSeconds ?? 2;
      let workerId = '';
      workerId = await this.boss.work(
        definition.name,
        {
          pollingIntervalSeconds:
            options.wokenBySends && !definition.sentInTransactions ? Math.max(declared, IDLE_POLL_SECONDS) : declared,
          batchSize: 1,
        },
        async (jobs) => {
          try {
            for (const job of jobs) {
              // One span per job run (its SQL statements are children), the root of its own trace.
              await traced(
                `job ${definition.name}`,
                {
                  kind: SpanKind.CONSUMER,
                  attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': definition.name },
                },
                () => definition.handler(job.data as object, context),
              );
            }
          } finally {
            // A job was there: look for the next one at once.
            this.boss.notifyWorker(workerId);
          }
        },
      );
      this.workers.set(definition.name, [...(this.workers.get(definition.name) ?? []), workerId]);
    }
  }

  /** Wakes this process's workers of `name` to look for jobs now (after a transaction that sent one commits). */
  wake(name: string): void {
    for (const id of this.workers.get(name) ?? []) this.boss.notifyWorker(id);
  }

  /** `db`: pg-boss's executeSql over a transaction, so the job is created only if it commits. */
  async send(
    name: string,
    data: object,
    options: {
      singletonKey?: string;
      startAfter?: number | string | Date;
      db?: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
    } = {},
  ) {
    const id = await this.boss.send(name, data, options as PgBoss.SendOptions);
    // A job sent in the caller's transaction is invisible until it commits: that caller wakes the
    // worker after its commit (wake). A delayed one is found by polling when it is due.
    if (!options.db && options.startAfter === undefined) this.wake(name);
    return id;
  }

  /** Waits for running handlers (up to `timeoutMs`) and stops polling. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  }
}

/** Idle polling of a worker that sends from this process wake (see Jobs.work). */
export const IDLE_POLL_SECONDS = 10;

/**
 * Creates the queue of every job definition. A queue that exists is left as it is (pg-boss inserts
 * with ON CONFLICT DO NOTHING), so only a new queue needs the schema owner: it makes a table.
 */
async function createQueues(boss: PgBoss, definitions: JobDefinition[]): Promise<void> {
  for (const definition of definitions) {
    await boss.createQueue(definition.name, {
      name: definition.name,
      retryLimit: definition.retryLimit ?? 3,
    } as PgBoss.Queue);
  }
}

/**
 * Installs (or upgrades) pg-boss's schema and creates every queue, as the schema owner during
 * migration, so that the application's role never needs to create a table (least-privilege.ts).
 * No maintenance or workers run here.
 */
export async function installJobSchema(owner: DatabaseHandle, definitions: JobDefinition[]): Promise<void> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => owner.pool.query(text, values as unknown[]) },
    schema: 'pgboss',
    supervise: false,
    // Scheduling stays on: starting it creates pg-boss's own cron queue, which the application's
    // queue would otherwise try to create (a table) at its first start.
  } as PgBoss.ConstructorOptions);
  boss.on('error', () => {});
  await boss.start();
  try {
    await createQueues(boss, definitions);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}
