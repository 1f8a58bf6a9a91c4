import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SpanKind, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from './start-tracing.js';
import { traced } from './traced.js';
import { shutdownTracing } from './tracing-state.js';

/**
 * Tracing as `atrium start` runs it with OTEL_* set (main.ts), with an in-memory exporter in place
 * of OTLP and every trace sampled (OTEL_TRACES_SAMPLER=always_on; the default 5 % is tested in
 * tracing-sampling.api.test.ts). The SDK starts before the server's modules load, as in the built
 * server: each test file runs in its own process.
 */
const exporter = new tracing.InMemorySpanExporter();
// Spans are exported once the resource's attributes are detected: flushed before each look.
const processor = new tracing.SimpleSpanProcessor(exporter);
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    callback();
  },
});
const spans = () => exporter.getFinishedSpans();
const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await processor.forceFlush();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

let server: import('@atrium/sdk/testing').TestServer;
beforeAll(async () => {
  process.env.OTEL_TRACES_SAMPLER = 'always_on';
  await startTracing({ spanProcessors: [processor] });
  process.env.TEST_LOG_LEVEL = 'info';
  const { startTestServer } = await import('@atrium/sdk/testing');
  server = await startTestServer({ logStream });
}, 600_000);
afterAll(async () => {
  await server?.close();
  await shutdownTracing();
});

describe('tracing', () => {
  it('traces a request and its SQL as part of the caller’s trace, and names the trace in its log lines', async () => {
    // The caller is traced too: its fetch sends `traceparent`, which the server continues.
    const { traceId, status } = await traced('caller', {}, async () => ({
      traceId: trace.getActiveSpan()!.spanContext().traceId,
      status: (await server.fetch('/api/identity/.well-known/jwks.json')).status,
    }));
    expect(status).toBe(200);
    const inTrace = () => spans().filter((span) => span.spanContext().traceId === traceId);
    await until(() => inTrace().some((span) => span.kind === SpanKind.SERVER), 'the request span');
    const request = inTrace().find((span) => span.kind === SpanKind.SERVER)!;
    const call = inTrace().find((span) => span.spanContext().spanId === request.parentSpanContext?.spanId);
    expect(call?.kind).toBe(SpanKind.CLIENT);
    expect(request.attributes['http.status_code'] ?? request.attributes['http.response.status_code']).toBe(200);
    // The signing keys are read from the database inside the request.
    await until(
      () =>
        inTrace().some(
          (span) =>
            span.kind === SpanKind.CLIENT &&
            (span.attributes['db.system'] ?? span.attributes['db.system.name']) === 'postgresql',
        ),
      'a SQL span in the request’s trace',
    );
    await until(
      () => logLines.some((line) => line.trace_id === traceId && line.msg === 'request completed'),
      'the request’s log line with its trace id',
    );
    const completed = logLines.find((line) => line.trace_id === traceId && line.msg === 'request completed')!;
    expect(completed.span_id).toBe(request.spanContext().spanId);
  });

  it('sends traceparent on outgoing calls', async () => {
    let received: IncomingHttpHeaders | undefined;
    const downstream = createServer((request, response) => {
      received = request.headers;
      response.end('ok');
    });
    await new Promise<void>((resolve) => downstream.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = downstream.address() as AddressInfo;
      const traceId = await traced('outgoing call', {}, async () => {
        await (await fetch(`http://127.0.0.1:${port}/`)).text();
        return trace.getActiveSpan()!.spanContext().traceId;
      });
      expect(received?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
    } finally {
      downstream.close();
    }
  });

  it('traces a job run with its SQL', async () => {
    const { Jobs } = await import('../jobs/job-queue.js');
    const { database } = server.atrium;
    const jobs = new Jobs(database, server.atrium.log);
    const definition = {
      name: 'tracing-test-job',
      pollingIntervalSeconds: 0.5,
      handler: async () => {
        await database.pool.query('select 1');
      },
    };
    await jobs.start([definition]);
    try {
      await jobs.work([definition], {} as never);
      await jobs.send(definition.name, {});
      await until(() => spans().some((span) => span.name === 'job tracing-test-job'), 'the job span');
      const job = spans().find((span) => span.name === 'job tracing-test-job')!;
      expect(job.kind).toBe(SpanKind.CONSUMER);
      await until(
        () => spans().some((span) => span.parentSpanContext?.spanId === job.spanContext().spanId),
        'the job’s SQL span',
      );
    } finally {
      await jobs.stop();
    }
  }, 120_000);
});
