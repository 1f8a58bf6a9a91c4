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

  async work(definitions: JobDefinition[], context: ServerPluginContext): Promise<void> {
    for (const definition of definitions) {
      await this.boss.work(
        definition.name,
        { pollingIntervalSeconds: definition.pollingIntervalSeconds ?? 2, batchSize: 1 },
        async (jobs) => {
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
        },
      );
    }
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
    return this.boss.send(name, data, options as PgBoss.SendOptions);
  }

  /** Waits for running handlers (up to `timeoutMs`) and stops polling. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
  }
}

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
