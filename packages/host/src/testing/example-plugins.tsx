import {
  createRouteRef,
  defineCommand,
  definePlugin,
  defineQuickSearchProvider,
  type QuickSearchProvider,
} from '@atrium/sdk';
import { vi } from 'vitest';

/** Small plugins for the shell's tests: a policy-like module with a provider, and a contacts one. */
export const policyPageRoute = createRouteRef({ name: 'policies-test:policy', path: '/policies-test/:number' });

export const POLICIES = ['P-1001', 'P-1002', 'P-1003', 'P-1004', 'P-1005', 'P-1006', 'P-2001'].map((number, i) => ({
  number,
  insured: `Insured ${i + 1}`,
}));

export function policyProvider(overrides: Partial<QuickSearchProvider<(typeof POLICIES)[number]>> = {}) {
  return defineQuickSearchProvider({
    id: 'policies-test.search',
    type: 'Policy',
    typePlural: 'Policies',
    prefix: 'P-',
    search: vi.fn(async ({ query }: { query: string }) =>
      POLICIES.filter((p) => p.number.toLowerCase().includes(query.toLowerCase())),
    ),
    toItem: (p) => ({
      id: p.number,
      title: p.number,
      subtitle: p.insured,
      to: policyPageRoute.link({ number: p.number }),
    }),
    ...overrides,
  });
}

export function policiesPlugin(provider = policyProvider(), run = vi.fn()) {
  return definePlugin({
    id: 'policies-test',
    title: 'Policies',
    routes: [
      {
        name: policyPageRoute.name,
        path: policyPageRoute.path,
        meta: { layout: 'default', requiresAuth: false },
        loader: async () => ({
          default: () => (
            <div>
              <p>policy page</p>
              <label>
                Note
                <input aria-label="Note" />
              </label>
            </div>
          ),
        }),
      },
    ],
    commands: [
      defineCommand({
        id: 'policies-test.renew',
        title: 'Renew Policy',
        group: 'Policies',
        keywords: ['renewal'],
        run,
      }),
    ],
    quickSearch: [provider],
  });
}

export const contactProvider = defineQuickSearchProvider<{ id: string; name: string }>({
  id: 'contacts-test.search',
  type: 'Contact',
  typePlural: 'Contacts',
  search: async ({ query }) => [{ id: 'c1', name: `Contact ${query}` }],
  toItem: (c) => ({ id: c.id, title: c.name, to: `/contacts-test/${c.id}` }),
});

export const contactsPlugin = definePlugin({ id: 'contacts-test', title: 'Contacts', quickSearch: [contactProvider] });
