/**
 * The identity module reads time only through a Clock, so that lockouts, code and challenge expiry
 * and token lifetimes can be tested by moving time instead of waiting.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until told to move; for tests. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.UTC(2026, 0, 15, 9, 0, 0)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }

  advanceSeconds(seconds: number): void {
    this.advance(seconds * 1000);
  }

  set(instant: Date | number): void {
    this.current = typeof instant === 'number' ? instant : instant.getTime();
  }
}
