/**
 * Whether the tracing SDK runs in this process, and how to stop it. Kept apart from the SDK itself,
 * which is loaded only when tracing is configured (start-tracing.ts).
 */
let active = false;
let stop: (() => Promise<void>) | null = null;

export function tracingActive(): boolean {
  return active;
}

export function tracingStarted(shutdown: () => Promise<void>): void {
  active = true;
  stop = shutdown;
}

/** Sends the spans still buffered and stops tracing; called on shutdown before the process exits. */
export async function shutdownTracing(): Promise<void> {
  const current = stop;
  stop = null;
  active = false;
  await current?.();
}
