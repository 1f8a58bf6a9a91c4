import { createRequire } from 'node:module';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { tracingStarted } from './tracing-state.js';
import { DEFAULT_SAMPLING_RATIO } from './tracing-settings.js';

/**
 * Starts OpenTelemetry: a server span per HTTP request, a span per SQL statement inside it (and
 * inside jobs, see jobs/job-queue.ts), a client span with `traceparent` on every outgoing fetch.
 * Exporter, endpoint, headers, protocol, service name and sampler come from the standard OTEL_*
 * variables (read by the SDK); without OTEL_TRACES_SAMPLER, 5 % of new traces are sampled. Must run
 * before the server's modules load: the instrumentations patch `http` and `pg` as they are required.
 * `spanProcessors` replaces the exporter from the environment (tests use an in-memory one). Once per
 * process: OpenTelemetry's globals are registered once.
 */
export async function startTracing(options: { spanProcessors?: tracing.SpanProcessor[] } = {}): Promise<void> {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : 'atrium',
    sampler: process.env.OTEL_TRACES_SAMPLER
      ? undefined
      : new tracing.ParentBasedSampler({ root: new tracing.TraceIdRatioBasedSampler(DEFAULT_SAMPLING_RATIO) }),
    spanProcessors: options.spanProcessors,
    // Traces only: logs go to standard output (with trace ids), metrics are not exported.
    logRecordProcessors: [],
    metricReaders: [],
    instrumentations: [
      new HttpInstrumentation({
        // Load balancers poll health every few seconds; those requests are not worth a trace.
        ignoreIncomingRequestHook: (request) => request.url?.startsWith('/api/health') ?? false,
      }),
      // Statements outside a request or job (the job queue polling) would each start a trace.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
      // Fastify's request logger gets trace_id, span_id and trace_flags on every line; the
      // process's own logger adds them itself (atrium.ts). Log records stay on standard output.
      new PinoInstrumentation({ disableLogSending: true }),
    ],
  });
  sdk.start();
  // The server is an ES module; the instrumentations hook CommonJS `require`. Requiring the
  // instrumented modules once here lets them patch the shared module objects (pg's Client and
  // Pool, http's Server) that the server's imports then receive.
  const require = createRequire(import.meta.url);
  for (const name of ['node:http', 'node:https', 'pg', 'pino']) require(name);
  tracingStarted(() => sdk.shutdown());
}
