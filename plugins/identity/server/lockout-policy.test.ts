import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.js';
import { afterFailure, afterSuccess, lockedUntil, lockSecondsAfter, type ThrottleState } from './lockout-policy.js';

describe('lockout policy', () => {
  it('locks for 2^(n−5) seconds from the fifth failure, at most 15 minutes', () => {
    expect([1, 2, 3, 4].map(lockSecondsAfter)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 14].map(lockSecondsAfter)).toEqual([1, 2, 4, 8, 512]);
    expect(lockSecondsAfter(15)).toBe(900);
    expect(lockSecondsAfter(5000)).toBe(900);
  });

  it('keeps the account locked until the lock ends, on a fake clock', () => {
    const clock = new ManualClock();
    let state: ThrottleState | undefined;
    for (let i = 0; i < 4; i++) state = afterFailure(state, clock.now());
    expect(lockedUntil(state, clock.now())).toBeNull();
    state = afterFailure(state, clock.now());
    expect(lockedUntil(state, clock.now())?.getTime()).toBe(clock.now().getTime() + 1000);
    clock.advance(999);
    expect(lockedUntil(state, clock.now())).not.toBeNull();
    clock.advance(1);
    expect(lockedUntil(state, clock.now())).toBeNull();
    state = afterFailure(state, clock.now());
    expect(lockedUntil(state, clock.now())?.getTime()).toBe(clock.now().getTime() + 2000);
  });

  it('a success clears the consecutive count and the lock', () => {
    const clock = new ManualClock();
    let state: ThrottleState | undefined;
    for (let i = 0; i < 7; i++) state = afterFailure(state, clock.now());
    state = afterSuccess(state, clock.now());
    expect(lockedUntil(state, clock.now())).toBeNull();
    state = afterFailure(state, clock.now());
    expect(state.consecutiveFailures).toBe(1);
    expect(lockedUntil(state, clock.now())).toBeNull();
  });

  it('allows at most 100 failures an hour, even when successes come between them', () => {
    const clock = new ManualClock();
    let state: ThrottleState | undefined;
    for (let round = 0; round < 25; round++) {
      for (let i = 0; i < 4; i++) {
        expect(lockedUntil(state, clock.now())).toBeNull();
        state = afterFailure(state, clock.now());
        clock.advanceSeconds(1);
      }
      state = afterSuccess(state, clock.now());
    }
    expect(state!.windowFailures).toBe(100);
    const until = lockedUntil(state, clock.now());
    expect(until?.getTime()).toBe(state!.windowStartedAt.getTime() + 60 * 60 * 1000);
    clock.set(until!);
    expect(lockedUntil(state, clock.now())).toBeNull();
    state = afterFailure(state, clock.now());
    expect(state.windowFailures).toBe(1);
  });
});
