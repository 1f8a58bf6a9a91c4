import { describe, expect, it } from 'vitest';
import { RevisionWatch } from './revision-watch.js';

describe('revision watch', () => {
  it('reads the revision at most once per interval and reports a change', async () => {
    let now = 10_000;
    let revision = 7;
    let reads = 0;
    let changes = 0;
    const watch = new RevisionWatch(
      async () => {
        reads++;
        return revision;
      },
      1_000,
      () => now,
    );
    watch.onChange(() => changes++);
    await watch.check();
    expect(watch.check()).toBeUndefined();
    revision = 8;
    now += 999;
    expect(watch.check()).toBeUndefined();
    expect(changes).toBe(0);
    now += 1;
    await Promise.all([watch.check(), watch.check()]);
    expect([reads, changes]).toEqual([2, 1]);
  });

  it('reports a change made through this process at once', () => {
    const watch = new RevisionWatch(async () => 1);
    let changes = 0;
    watch.onChange(() => changes++);
    watch.changed();
    expect(changes).toBe(1);
  });
});
