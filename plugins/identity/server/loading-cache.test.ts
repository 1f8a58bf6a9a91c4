import { describe, expect, it } from 'vitest';
import { LoadingCache } from './loading-cache.js';

describe('loading cache', () => {
  it('loads a key once for every caller, and answers synchronously afterwards', async () => {
    const cache = new LoadingCache<string>();
    let loads = 0;
    const load = async () => `value ${++loads}`;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, loads]).toEqual(['value 1', 'value 1', 1]);
    expect(cache.get('k', load)).toBe('value 1');
  });

  it('keeps no failed load', async () => {
    const cache = new LoadingCache<string>();
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'up')).toBe('up');
  });

  it('drops the least recently used key when full', async () => {
    const cache = new LoadingCache<number>(2);
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    cache.get('a', async () => -1); // a is now the most recently used
    await cache.get('c', async () => 3);
    expect(cache.get('a', async () => -1)).toBe(1);
    expect(await cache.get('b', async () => 20)).toBe(20);
  });

  it('never stores what a load read before clear()', async () => {
    const cache = new LoadingCache<string>();
    let finish!: (value: string) => void;
    const pending = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish('read before the change');
    expect(await pending).toBe('read before the change');
    expect(await cache.get('k', async () => 'read after')).toBe('read after');
  });
});
