import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * Fields every log line written inside a traced request or job carries (pino's `mixin`), so that a
 * log line leads to its trace and back. Unsampled requests have a trace id too (it is what callers
 * and called services see in `traceparent`); `trace_flags` 01 marks the sampled ones. The same
 * names as OpenTelemetry's pino instrumentation, which adds them to Fastify's request logger.
 */
export function traceLogFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !isSpanContextValid(context)) return {};
  return {
    trace_id: context.traceId,
    span_id: context.spanId,
    trace_flags: `0${context.traceFlags.toString(16)}`,
  };
}
