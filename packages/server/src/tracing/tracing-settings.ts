/**
 * Tracing is off unless an operator turns it on with OpenTelemetry's own environment variables:
 * an exporter (`OTEL_TRACES_EXPORTER=otlp|console`) or an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); `OTEL_SDK_DISABLED=true`
 * keeps it off. Off, nothing of the SDK is loaded and no request pays for it (docs/operations.md).
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (exporters.length > 0) return !exporters.includes('none');
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The spec's sampling: 5 % of traces that start here; a caller's sampling decision is kept. */
export const DEFAULT_SAMPLING_RATIO = 0.05;
