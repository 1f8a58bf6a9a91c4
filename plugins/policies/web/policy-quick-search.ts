import { defineQuickSearchProvider } from '@atrium/sdk';
import { searchPolicies, type PolicyListItem } from './policies-api.js';
import { policyPageRoute } from './routes.js';

/**
 * `g p` (the shell binds it to the Policy provider): the policies module's own policies, newest
 * first (ordering -date_added), 5 at most. Search type Number when the text holds a digit (policy
 * numbers do, names do not), Primary Insured otherwise.
 */
export const policyQuickSearch = defineQuickSearchProvider<PolicyListItem>({
  id: 'policies.search',
  type: 'Policy',
  typePlural: 'Policies',
  minLength: 2,
  search: async ({ query, signal, api }) => {
    if (!api) throw new Error('Policy search needs the API client.');
    const searchType = /\d/.test(query) ? 'number' : 'primary_insured';
    return (await searchPolicies(api, { search: query.trim(), searchType, pageSize: 5 }, signal)).results;
  },
  toItem: (policy) => ({
    id: String(policy.id),
    title: policy.policy_number,
    subtitle: `${policy.primary_insured} · ${policy.product_name}`,
    to: policyPageRoute.link({ policyId: policy.id }),
  }),
});
