import { createPluginRegistry } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_POLICIES, examplePolicyQuickSearch } from './example-policy-quick-search.js';
import hello from './plugin.js';
import { helloPageRoute } from './routes.js';

describe('hello plugin (web)', () => {
  it('registers one public page, one nav entry, one command and the example provider', () => {
    const registry = createPluginRegistry();
    registry.register(hello);
    expect(registry.routes()).toMatchObject([
      { name: 'hello:page', path: '/hello', meta: { layout: 'default', requiresAuth: false } },
    ]);
    expect(registry.nav('main').map((n) => n.title)).toEqual(['Hello']);
    expect(registry.commands().map((c) => c.item.id)).toEqual(['hello.greet']);
    expect(registry.quickSearchProvider('hello.example-policy-search')?.type).toBe('Policy');
    expect(registry.danglingNav()).toEqual([]);
  });

  it('searches the example list by number or insured name and links to the hello page', async () => {
    const signal = new AbortController().signal;
    const byNumber = await examplePolicyQuickSearch.search({ query: 'ex-100', signal });
    expect(byNumber.map((p) => p.number)).toEqual(['EX-1001', 'EX-1002', 'EX-1003', 'EX-1004', 'EX-1005', 'EX-1006']);
    const byName = await examplePolicyQuickSearch.search({ query: 'marina', signal });
    expect(byName.map((p) => examplePolicyQuickSearch.toItem(p))).toEqual([
      { id: 'EX-2001', title: 'EX-2001', subtitle: 'Example Marina', to: '/hello?examplePolicy=EX-2001' },
    ]);
    expect(EXAMPLE_POLICIES.every((p) => p.number.startsWith(examplePolicyQuickSearch.prefix!))).toBe(true);
    expect(helloPageRoute.link({})).toBe('/hello');
  });
});
