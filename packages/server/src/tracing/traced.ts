import { SpanStatusCode, trace, type Attributes, type SpanKind } from '@opentelemetry/api';

const tracer = trace.getTracer('atrium');

/**
 * Runs `work` inside a new span (a child of the active one, or the root of a new trace, sampled at
 * the configured ratio). Without the tracing SDK the span is a no-op and costs next to nothing.
 */
export function traced<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
