import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@atrium/sdk/testing';
import { IDLE_POLL_SECONDS, Jobs } from './job-queue.js';

/**
 * Workers woken by this process's sends (Jobs.work with `wokenBySends`): a job starts at once, a
 * queue of several runs back to back, and idle polling is slow. Before, a job waited for the next
 * poll (1–2 s) and a queue ran one job per poll.
 */
let server: TestServer;
beforeAll(async () => {
  const { startTestServer } = await import('@atrium/sdk/testing');
  // As the database's owner: the test's own queues are new, and creating a queue makes a table,
  // which the least-privilege application role may not (installJobSchema does it at migration).
  server = await startTestServer({ appRole: false });
}, 600_000);
afterAll(async () => {
  await server?.close();
});

describe('job queue wake-ups', () => {
  it('runs a job sent from this process at once, and a queue of them back to back', async () => {
    const jobs = new Jobs(server.atrium.database, server.atrium.log);
    const ran: number[] = [];
    const definition = {
      name: 'wake-test-job',
      // Polling alone would take up to 3 s to find the first job and 3 s more for each next one.
      pollingIntervalSeconds: 3,
      handler: async () => {
        ran.push(performance.now());
      },
    };
    await jobs.start([definition]);
    try {
      await jobs.work([definition], {} as never, { wokenBySends: true });
      // Let the worker's first (empty) poll pass: it now sleeps IDLE_POLL_SECONDS.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const sent = performance.now();
      await Promise.all([1, 2, 3].map((n) => jobs.send(definition.name, { n })));
      const deadline = sent + (IDLE_POLL_SECONDS * 1000) / 2;
      while (ran.length < 3 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // All three before a poll every 3 s could have run even the second.
      expect(ran).toHaveLength(3);
      expect(ran[2]! - sent).toBeLessThan(2_500);
    } finally {
      await jobs.stop();
    }
  }, 120_000);

  it('leaves a job sent in a transaction to polling (no wake-up can follow the commit)', async () => {
    const jobs = new Jobs(server.atrium.database, server.atrium.log);
    let ran = 0;
    const definition = {
      name: 'wake-test-transactional',
      pollingIntervalSeconds: 1,
      sentInTransactions: true,
      handler: async () => {
        ran++;
      },
    };
    await jobs.start([definition]);
    try {
      await jobs.work([definition], {} as never, { wokenBySends: true });
      const client = await server.atrium.database.pool.connect();
      try {
        await client.query('begin');
        await jobs.send(
          definition.name,
          {},
          { db: { executeSql: (text, values) => client.query(text, values as unknown[]) } },
        );
        await client.query('commit');
      } finally {
        client.release();
      }
      // Its declared 1 s polling finds it, not the 10 s idle polling of woken queues.
      const started = performance.now();
      while (ran === 0 && performance.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ran).toBe(1);
    } finally {
      await jobs.stop();
    }
  }, 120_000);
});
