import { tracing } from '@opentelemetry/sdk-node';
import { afterAll, expect, it } from 'vitest';
import { startTracing } from './start-tracing.js';
import { traced } from './traced.js';
import { shutdownTracing } from './tracing-state.js';

/** Without OTEL_TRACES_SAMPLER, 5 % of the traces that start here are sampled (the spec's rate). */
afterAll(() => shutdownTracing());

it('samples 5 % of new traces by default', async () => {
  delete process.env.OTEL_TRACES_SAMPLER;
  const exporter = new tracing.InMemorySpanExporter();
  const processor = new tracing.SimpleSpanProcessor(exporter);
  await startTracing({ spanProcessors: [processor] });
  for (let i = 0; i < 4000; i++) await traced('sampling probe', {}, async () => {});
  await processor.forceFlush();
  const sampled = exporter.getFinishedSpans().filter((span) => span.name === 'sampling probe').length;
  // Binomial(4000, 0.05): mean 200, standard deviation 14; the bounds are 5 deviations out.
  expect(sampled).toBeGreaterThan(130);
  expect(sampled).toBeLessThan(270);
});
