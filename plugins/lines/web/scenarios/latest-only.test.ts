import { describe, expect, it } from 'vitest';
import { createLatestOnly, runLatest } from './latest-only.js';

/** A promise settled by the test, to decide the order in which responses arrive. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('latest-only rating responses', () => {
  it('applies the later response and ignores an earlier one that arrives after it', async () => {
    const gate = createLatestOnly();
    const applied: string[] = [];
    const first = deferred<string>();
    const second = deferred<string>();
    const signals: AbortSignal[] = [];
    const one = runLatest(
      gate,
      (signal) => (signals.push(signal), first.promise),
      (v) => applied.push(v),
      () => applied.push('error'),
    );
    const two = runLatest(
      gate,
      (signal) => (signals.push(signal), second.promise),
      (v) => applied.push(v),
      () => applied.push('error'),
    );
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    second.resolve('premium 1789.60');
    first.resolve('premium 1500.00');
    expect(await two).toBe(true);
    expect(await one).toBe(false);
    expect(applied).toEqual(['premium 1789.60']);
  });

  it('ignores a stale failure too, and applies the latest failure', async () => {
    const gate = createLatestOnly();
    const seen: string[] = [];
    const first = deferred<string>();
    const second = deferred<string>();
    const one = runLatest(
      gate,
      () => first.promise,
      (v) => seen.push(v),
      (e) => seen.push(`failed: ${String(e)}`),
    );
    const two = runLatest(
      gate,
      () => second.promise,
      (v) => seen.push(v),
      (e) => seen.push(`failed: ${String(e)}`),
    );
    first.reject('AbortError');
    second.reject('no rate row');
    await Promise.all([one, two]);
    expect(seen).toEqual(['failed: no rate row']);
  });

  it('applies nothing after cancel (the scenario was closed)', async () => {
    const gate = createLatestOnly();
    const seen: string[] = [];
    const pending = deferred<string>();
    const run = runLatest(
      gate,
      () => pending.promise,
      (v) => seen.push(v),
      () => seen.push('error'),
    );
    gate.cancel();
    pending.resolve('late');
    expect(await run).toBe(false);
    expect(seen).toEqual([]);
  });

  it('applies each response when requests do not overlap', async () => {
    const gate = createLatestOnly();
    const seen: string[] = [];
    await runLatest(
      gate,
      async () => 'a',
      (v) => seen.push(v),
      () => undefined,
    );
    await runLatest(
      gate,
      async () => 'b',
      (v) => seen.push(v),
      () => undefined,
    );
    expect(seen).toEqual(['a', 'b']);
  });
});
