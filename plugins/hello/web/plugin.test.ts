import { createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import hello from './plugin.js';

describe('hello plugin (web)', () => {
  it('registers one public page, one nav entry and one command; the Policy quick search is the policies module’s', () => {
    const registry = createPluginRegistry();
    registry.register(hello);
    expect(registry.routes()).toMatchObject([
      { name: 'hello:page', path: '/hello', meta: { layout: 'default', requiresAuth: false } },
    ]);
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Hello']);
    expect(registry.commands().map((c) => c.item.id)).toEqual(['hello.greet']);
    expect(registry.quickSearchProvider('hello.example-policy-search')).toBeUndefined();
    expect(registry.danglingNav()).toEqual([]);
  });
});
