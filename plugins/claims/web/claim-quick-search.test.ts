import type { ApiClient } from '@atrium/sdk';
import { describe, expect, it } from 'vitest';
import { claimQuickSearch } from './claim-quick-search.js';

describe('claim quick search', () => {
  it('asks the claims list for numbers containing the text, 5 at most, and opens the claim’s details', async () => {
    const asked: { path: string; query: unknown }[] = [];
    const api = {
      get: async (path: string, options: { query: unknown }) => {
        asked.push({ path, query: options.query });
        return {
          data: [
            {
              type: 'claim',
              id: '7',
              attributes: { number: 'CLM-000007', status: 'open', policy_number: 'PA-1', loss_description: 'Hail' },
            },
          ],
        };
      },
    } as unknown as ApiClient;
    const hits = await claimQuickSearch.search({ query: ' 0007 ', signal: new AbortController().signal, api });
    expect(asked).toEqual([
      { path: '/claims/claims/', query: { 'filter[number]': '0007', 'page[number]': 1, 'page[size]': 5 } },
    ]);
    expect(hits.map((hit) => claimQuickSearch.toItem(hit))).toEqual([
      { id: '7', title: 'CLM-000007', subtitle: 'open · PA-1 · Hail', to: '/claims/CLM-000007/details' },
    ]);
  });

  it('fails clearly without the host’s API client', () => {
    expect(() => claimQuickSearch.search({ query: 'CLM', signal: new AbortController().signal })).toThrow(
      'Claim search needs the API client.',
    );
  });
});
