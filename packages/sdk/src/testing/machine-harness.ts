import { createActor, type AnyActorLogic, type ActorOptions, type SnapshotFrom, type EventFromLogic } from 'xstate';

/**
 * Runs an XState machine headless under fake timers. Call `vi.useFakeTimers()` first; `advance(ms)`
 * moves the clock and flushes the promises the machine's invoked actors resolve, so delayed
 * transitions and async calls interleave the way they would in a browser.
 */

/** `{ running: 'waiting' }` → `running.waiting`. */
export function stateValueToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => {
        const rest = stateValueToString(child);
        return rest ? `${key}.${rest}` : key;
      })
      .join(',');
  }
  return '';
}

export interface MachineHarness<Logic extends AnyActorLogic> {
  actor: ReturnType<typeof createActor<Logic>>;
  /** Every distinct state value seen, as strings, in order. */
  history: string[];
  state(): string;
  snapshot(): SnapshotFrom<Logic>;
  send(event: EventFromLogic<Logic>): void;
  /** Advances fake timers by `ms` and flushes pending promises. */
  advance(ms: number): Promise<void>;
  /** Flushes pending promises without moving the clock. */
  flush(): Promise<void>;
  stop(): void;
}

async function fakeTimers() {
  // Imported lazily so importing '@atrium/sdk/testing' outside a Vitest run stays harmless.
  const { vi } = await import('vitest');
  return vi;
}

export function startMachine<Logic extends AnyActorLogic>(
  logic: Logic,
  options?: ActorOptions<Logic>,
): MachineHarness<Logic> {
  const actor = createActor(logic, options);
  const history: string[] = [];
  actor.subscribe({
    next(snapshot) {
      const value = stateValueToString((snapshot as { value?: unknown }).value);
      if (history[history.length - 1] !== value) history.push(value);
    },
    error() {
      // Surface through snapshot().status; a harness must not crash the test with an unhandled error.
    },
  });
  actor.start();
  return {
    actor,
    history,
    state: () => stateValueToString((actor.getSnapshot() as { value?: unknown }).value),
    snapshot: () => actor.getSnapshot() as SnapshotFrom<Logic>,
    send: (event) => actor.send(event),
    async advance(ms) {
      const vi = await fakeTimers();
      await vi.advanceTimersByTimeAsync(ms);
    },
    async flush() {
      const vi = await fakeTimers();
      await vi.advanceTimersByTimeAsync(0);
    },
    stop: () => actor.stop(),
  };
}

/** A promise you resolve or reject from the test, for stubbing job calls step by step. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
