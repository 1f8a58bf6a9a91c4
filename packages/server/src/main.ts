import { tracingEnabled } from './tracing/tracing-settings.js';

/**
 * The built server's entry point (dist/server/server.js, scripts/build-server.mjs). Tracing, when
 * configured, starts before anything else loads, so that its instrumentations see `http` and `pg`
 * load; then the command line runs.
 */
if (tracingEnabled()) {
  const { startTracing } = await import('./tracing/start-tracing.js');
  await startTracing();
}
await import('./cli.js');
