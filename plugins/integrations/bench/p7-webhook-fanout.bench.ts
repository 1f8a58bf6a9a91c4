/* eslint-disable no-console -- a benchmark prints what it does. */
/**
 * P7 webhook fan-out: events committed to the outbox at a steady rate, fanned out to SUBSCRIPTIONS
 * subscriptions of a local receiver (127.0.0.1, in a child process), delivered signed by the
 * integrations dispatcher on PostgreSQL. Target: ≥ 1,100 deliveries per second, with the first
 * attempt's p95 ≤ 1 s after its event's commit.
 *
 * Two runs of the Atrium dispatcher: `steady` offers EVENTS_PER_SECOND × SUBSCRIPTIONS deliveries per
 * second for SECONDS (the latency figure), `burst` commits BURST_EVENTS at once and measures how fast
 * the backlog drains (the throughput ceiling). The baseline, in the same run beside them: the same
 * signed POSTs sent straight to the same receiver with the same concurrency and no database, what
 * this machine can push today.
 *
 * DATABASE_URL names the PostgreSQL server (default the local one); a fresh database is made and
 * dropped. Events are written as `emitEvent` writes them (core.event_outbox rows, one transaction per
 * batch); the commit time is taken when COMMIT returns.
 */
import { fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { loadSecrets } from '@atrium/sdk/server';
import { createAtrium, loadConfig } from '@atrium/server';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10);
const EVENTS_PER_SECOND = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 120);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST_EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 1000);
const BASELINE_CONCURRENCY = 800; // 8 senders × 100, the dispatcher's own
const TARGET_RATE = 1100;
const TARGET_P95_MS = 1000;

// ---- the receiver: a child process, so that its work does not share the dispatcher's event loop.
if (process.argv[2] === 'receiver') {
  const arrivals: [string, number][] = [];
  const server = http.createServer({ keepAlive: true }, (request, response) => {
    let body = '';
    request.on('data', (c: Buffer) => (body += c.toString()));
    request.on('end', () => {
      // event_id is the first field of the envelope; the arrival time is the wall clock (ms).
      arrivals.push([/"event_id"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? '', Date.now()]);
      response.end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  process.on('message', (message: { take?: boolean }) => {
    if (message.take) process.send!({ arrivals: arrivals.splice(0) });
  });
  process.on('disconnect', () => process.exit(0));
} else {
  await main();
}

async function main() {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `atrium_bench_p7_${process.pid}`;
  const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();

  const receiver = fork(fileURLToPath(import.meta.url), ['receiver'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) =>
    receiver.once('message', (m: { port: number }) => resolve(m.port)),
  );
  const take = () =>
    new Promise<[string, number][]>((resolve) => {
      receiver.once('message', (m: { arrivals: [string, number][] }) => resolve(m.arrivals));
      receiver.send({ take: true });
    });

  const secretKey = randomBytes(32).toString('hex');
  const silent = { write: () => true } as unknown as NodeJS.WritableStream;
  const config = {
    ...loadConfig({ LOG_LEVEL: 'warn' }),
    databaseUrl: url,
    secretKey,
    databasePoolMax: 10,
    workers: true,
  };
  process.env.ATRIUM_WEBHOOKS_ALLOW_PRIVATE = 'true'; // the receiver is on 127.0.0.1
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  let atrium: Awaited<ReturnType<typeof createAtrium>> | undefined;
  try {
    // Migrated, not seeded: the outbox and the integrations tables are all this needs.
    const started = performance.now();
    atrium = await createAtrium({ config, http: false, seed: 'never', logStream: silent });
    console.log(`  database ${name} migrated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const secrets = await loadSecrets({ secretKey, dataDir: 'unused', databaseUrl: url });
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const id = randomUUID();
      await pool.query(
        `insert into integrations.subscription (id, url, events, status, secret_sealed, start_outbox_id, created_by)
         values ($1, $2, '["bench"]', 'active', $3, 0, 'bench')`,
        [id, `http://127.0.0.1:${port}/hooks/${i}`, secrets.seal(secret, `integrations:subscription:${id}`)],
      );
    }

    const commits = new Map<string, number>();
    const emit = async (count: number) => {
      const ids = Array.from({ length: count }, () => randomUUID());
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(
          `insert into core.event_outbox (event_id, event_date, schema_id, version, topic, triggering_user, data)
           select id::uuid, now(), 'bench.item', '1.0.0', 'bench.item.created', 'bench@atrium.test',
                  jsonb_build_object('n', ord, 'amount', '1250.10')
             from unnest($1::text[]) with ordinality as t(id, ord)`,
          [ids],
        );
        await client.query('commit');
      } finally {
        client.release();
      }
      const at = Date.now();
      for (const id of ids) commits.set(id, at);
    };

    const measure = async (label: string, expected: number, offer: () => Promise<void>) => {
      commits.clear();
      await take();
      const began = Date.now();
      await offer();
      const offeredFor = (Date.now() - began) / 1000;
      const latencies: number[] = [];
      let last = began;
      const deadline = Date.now() + 120_000;
      while (latencies.length < expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        for (const [eventId, at] of await take()) {
          const committed = commits.get(eventId);
          if (committed === undefined) continue;
          latencies.push(at - committed);
          last = Math.max(last, at);
        }
      }
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
      const rate = latencies.length / ((last - began) / 1000);
      return {
        label,
        delivered: latencies.length,
        expected,
        rate,
        offeredRate: expected / Math.max(offeredFor, 0.001),
        offeredFor,
        p50: pct(0.5),
        p95: pct(0.95),
        p99: pct(0.99),
      };
    };

    // Warm-up: connections, JIT.
    await measure('warm-up', 20 * SUBSCRIPTIONS, () => emit(20));

    const perTick = Math.max(1, Math.round(EVENTS_PER_SECOND / 20)); // a transaction every 50 ms
    const steady = await measure('steady', perTick * 20 * SECONDS * SUBSCRIPTIONS, async () => {
      const start = Date.now();
      for (let tick = 0; tick < 20 * SECONDS; tick++) {
        await emit(perTick);
        const wait = start + (tick + 1) * 50 - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    });
    const burst = await measure('burst', BURST_EVENTS * SUBSCRIPTIONS, () => emit(BURST_EVENTS));
    await atrium.close();
    atrium = undefined;

    // Baseline: the same signed bodies straight to the receiver, same concurrency, no database.
    const agent = new http.Agent({ keepAlive: true, maxSockets: BASELINE_CONCURRENCY });
    const webhook = new Webhook(secret);
    const total = BURST_EVENTS * SUBSCRIPTIONS;
    await take();
    let next = 0;
    const baselineStart = performance.now();
    const post = (i: number) =>
      new Promise<void>((resolve) => {
        const id = randomUUID();
        const body = JSON.stringify({ event_id: id, topic: 'bench.item.created', data: { n: i, amount: '1250.10' } });
        const now = new Date();
        const request = http.request(
          {
            host: '127.0.0.1',
            port,
            path: `/hooks/${i % SUBSCRIPTIONS}`,
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
              'webhook-signature': webhook.sign(id, now, body),
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve());
          },
        );
        request.on('error', () => resolve());
        request.end(body);
      });
    await Promise.all(
      Array.from({ length: BASELINE_CONCURRENCY }, async () => {
        while (next < total) await post(next++);
      }),
    );
    const baselineRate = total / ((performance.now() - baselineStart) / 1000);
    agent.destroy();

    const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
    console.log(
      `P7 webhook fan-out on PostgreSQL (${SUBSCRIPTIONS} subscriptions of one local receiver; load average ${(
        await import('node:os')
      )
        .loadavg()[0]!
        .toFixed(1)} on ${(await import('node:os')).cpus().length} cores)`,
    );
    console.log(
      `  baseline: ${fmt(total)} signed POSTs straight to the receiver, ${BASELINE_CONCURRENCY} in flight, no database: ${fmt(baselineRate)} per second`,
    );
    for (const run of [steady, burst]) {
      const offered =
        run.label === 'steady'
          ? `${fmt(perTick * 20 * SUBSCRIPTIONS)} deliveries/s asked, ${fmt(run.offeredRate)}/s committed (the emitter took ${fmt(run.offeredFor, 1)} s for ${SECONDS} s of events)`
          : `${fmt(BURST_EVENTS)} events committed at once (${fmt(run.expected)} deliveries)`;
      console.log(
        `  ${run.label.padEnd(6)}: ${offered}: ${fmt(run.delivered)}/${fmt(run.expected)} delivered, ${fmt(run.rate)} deliveries/s; ` +
          `first attempt after commit p50 ${fmt(run.p50)} ms, p95 ${fmt(run.p95)} ms, p99 ${fmt(run.p99)} ms`,
      );
    }
    const rate = Math.max(steady.rate, burst.rate);
    const pass = rate >= TARGET_RATE && steady.p95 <= TARGET_P95_MS && steady.delivered === steady.expected;
    console.log(
      `  target: ≥ ${fmt(TARGET_RATE)} deliveries/s and first-attempt p95 ≤ ${fmt(TARGET_P95_MS)} ms (steady): ` +
        `${pass ? 'MET' : 'NOT MET'} (best rate ${fmt(rate)}/s, steady p95 ${fmt(steady.p95)} ms)`,
    );
  } finally {
    await atrium?.close().catch(() => {});
    await pool.end();
    receiver.disconnect();
    const cleanup = new pg.Client({ connectionString: server });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}
