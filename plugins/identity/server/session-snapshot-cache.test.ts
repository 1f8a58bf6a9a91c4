import { describe, expect, it } from 'vitest';
import { SessionSnapshotCache } from './session-snapshot-cache.js';

describe('session snapshot cache', () => {
  it('answers within the time to live and forgets afterwards', () => {
    let now = 1_000;
    const cache = new SessionSnapshotCache<string>(5_000, 10, () => now);
    cache.set('sid-1', 'alice');
    now += 4_999;
    expect(cache.get('sid-1')).toBe('alice');
    now += 1;
    expect(cache.get('sid-1')).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const cache = new SessionSnapshotCache<number>(60_000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    expect(cache.get('c')).toBe(3);
  });

  it('forgets everything on clear', () => {
    const cache = new SessionSnapshotCache<number>();
    cache.set('a', 1);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });
});
