import { describe, expect, it } from 'vitest';
import { defineServerPlugin } from '@atrium/sdk/server';
import { orderPlugins } from './plugin-order.js';

const plugin = (id: string, deps: string[] = []) => defineServerPlugin({ id, deps });

describe('plugin order', () => {
  it('puts dependencies first and keeps the given order otherwise', () => {
    const ordered = orderPlugins([
      plugin('claims', ['identity', 'core']),
      plugin('core'),
      plugin('identity', ['core']),
      plugin('notes'),
    ]);
    expect(ordered.map((p) => p.id)).toEqual(['core', 'identity', 'claims', 'notes']);
  });

  it('names a missing dependency', () => {
    expect(() => orderPlugins([plugin('claims', ['policies'])])).toThrow(
      "Server plugin 'claims' depends on 'policies', which is not installed.",
    );
  });

  it('names a cycle', () => {
    expect(() => orderPlugins([plugin('a', ['b']), plugin('b', ['a'])])).toThrow('a → b → a');
  });

  it('refuses two plugins with one id', () => {
    expect(() => orderPlugins([plugin('a'), plugin('a')])).toThrow("share the id 'a'");
  });

  it('refuses a malformed id at definition', () => {
    expect(() => defineServerPlugin({ id: 'Claims Module' })).toThrow(/lowercase/);
  });
});
