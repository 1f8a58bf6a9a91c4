import { defineQuickSearchProvider } from '@atrium/sdk';
import { helloPageRoute } from './routes.js';

/**
 * EXAMPLE ONLY: a quick-search provider over a static, made-up list, so that `g p` has something
 * to open and the provider contract is exercised end to end before the policies module exists. It
 * searches no real policies. The policies module registers the real 'Policy' provider; the host
 * then uses that one (the last registered provider of a type wins) and this file can be deleted.
 */
export interface ExamplePolicy {
  number: string;
  insured: string;
}

export const EXAMPLE_POLICIES: readonly ExamplePolicy[] = [
  { number: 'EX-1001', insured: 'Example Bakery LLC' },
  { number: 'EX-1002', insured: 'Sample Hardware Co.' },
  { number: 'EX-1003', insured: 'Demo Family Farm' },
  { number: 'EX-1004', insured: 'Placeholder Dental Group' },
  { number: 'EX-1005', insured: 'Specimen Auto Repair' },
  { number: 'EX-1006', insured: 'Illustrative Books Inc.' },
  { number: 'EX-2001', insured: 'Example Marina' },
];

export const examplePolicyQuickSearch = defineQuickSearchProvider<ExamplePolicy>({
  id: 'hello.example-policy-search',
  type: 'Policy',
  typePlural: 'Policies',
  prefix: 'EX-',
  async search({ query }) {
    const needle = query.trim().toLowerCase();
    return EXAMPLE_POLICIES.filter(
      (p) => p.number.toLowerCase().includes(needle) || p.insured.toLowerCase().includes(needle),
    );
  },
  toItem: (policy) => ({
    id: policy.number,
    title: policy.number,
    subtitle: policy.insured,
    to: helloPageRoute.link({}, { examplePolicy: policy.number }),
  }),
});
