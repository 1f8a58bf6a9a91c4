import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setup } from 'xstate';
import { startMachine, stateValueToString } from './machine-harness.js';

describe('machine harness', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('flattens state values', () => {
    expect(stateValueToString('ready')).toBe('ready');
    expect(stateValueToString({ running: 'waiting' })).toBe('running.waiting');
    expect(stateValueToString({ a: { b: 'c' } })).toBe('a.b.c');
  });

  it('moves fake time for delayed transitions and records distinct states', async () => {
    const machine = setup({}).createMachine({
      initial: 'idle',
      states: { idle: { on: { GO: 'wait' } }, wait: { after: { 1000: 'done' } }, done: {} },
    });
    const harness = startMachine(machine);
    harness.send({ type: 'GO' });
    await harness.advance(999);
    expect(harness.state()).toBe('wait');
    await harness.advance(1);
    expect(harness.state()).toBe('done');
    expect(harness.history).toEqual(['idle', 'wait', 'done']);
    harness.stop();
  });
});
