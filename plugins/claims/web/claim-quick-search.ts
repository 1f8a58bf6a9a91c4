import { defineQuickSearchProvider, type ApiClient, type JsonApiDocument, type JsonApiResource } from '@atrium/sdk';
import { flattenAll, text } from './api/jsonapi.js';
import { PATHS } from './api/paths.js';
import { claimsLossDetailRoute } from './routes.js';

export interface ClaimHit {
  id: string;
  number: string;
  status: string;
  policy_number: string;
  loss_description: string;
}

/** Spec: quick search shows 5 results. */
const QUICK_SEARCH_SIZE = 5;

export async function searchClaims(api: ApiClient, query: string, signal: AbortSignal): Promise<ClaimHit[]> {
  const document = await api.get<JsonApiDocument<JsonApiResource[]>>(PATHS.claims, {
    jsonApi: true,
    signal,
    query: { 'filter[number]': query.trim(), 'page[number]': 1, 'page[size]': QUICK_SEARCH_SIZE },
  });
  return flattenAll(document).map((c) => ({
    id: c.id,
    number: text(c.number),
    status: text(c.status),
    policy_number: text(c.policy_number),
    loss_description: text(c.loss_description),
  }));
}

/** `g c` (bound by the shell to the Claim provider): claims whose number contains the text typed (any case). */
export const claimQuickSearch = defineQuickSearchProvider<ClaimHit>({
  id: 'claims.search',
  type: 'Claim',
  typePlural: 'Claims',
  minLength: 2,
  search: ({ query, signal, api }) => {
    if (!api) throw new Error('Claim search needs the API client.');
    return searchClaims(api, query, signal);
  },
  toItem: (claim) => ({
    id: claim.id,
    title: claim.number,
    subtitle: [claim.status, claim.policy_number, claim.loss_description].filter(Boolean).join(' · '),
    to: claimsLossDetailRoute.link({ claimNumber: claim.number }),
  }),
});
