import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seededPgliteDump } from './seeded-template.js';

describe('seededPgliteDump', () => {
  let cache: string;
  beforeEach(async () => {
    cache = await mkdtemp(path.join(tmpdir(), 'atrium-dump-'));
  });
  afterEach(async () => {
    await rm(cache, { recursive: true, force: true });
  });

  it('builds a template once while other servers wait for it, and leaves no lock behind', async () => {
    let builds = 0;
    let finish!: () => void;
    const building = new Promise<void>((resolve) => (finish = resolve));
    const build = async () => {
      builds++;
      await building;
      return new Blob(['seeded']);
    };
    const first = seededPgliteDump(cache, 'k1', build);
    const second = seededPgliteDump(cache, 'k1', build);
    // The first call holds the lock (and builds) before the build is let finish.
    while (builds === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    finish();
    const dumps = await Promise.all([first, second]);
    expect(await Promise.all(dumps.map((dump) => dump.text()))).toEqual(['seeded', 'seeded']);
    expect(builds).toBe(1);
    expect(await readdir(cache)).toEqual(['pglite-seeded-k1.tar']);
  });

  it('takes over the lock of a builder whose process is gone', async () => {
    // No process has pid 2^22 + 1 (above Linux's largest pid).
    await writeFile(path.join(cache, 'pglite-seeded-k2.tar.lock'), String(2 ** 22 + 1));
    const dump = await seededPgliteDump(cache, 'k2', async () => new Blob(['rebuilt']));
    expect(await dump.text()).toBe('rebuilt');
    expect(await readdir(cache)).toEqual(['pglite-seeded-k2.tar']);
  });
});
