import type { ApiClient } from './api-client.js';

/**
 * Quick-search provider contract. A plugin registers one provider per entity type (Policy, Claim,
 * Contact); the host's modal drives it through the QuickSearchController.
 */
export interface QuickSearchItem {
  id: string;
  title: string;
  subtitle?: string;
  /** Path to open, built with a RouteRef's `link`. */
  to: string;
}

export interface QuickSearchQuery {
  query: string;
  /** Aborted when the user types on or closes the modal; pass it to fetch. */
  signal: AbortSignal;
  /** The host's API client (bearer token, effective role), when the host gave the controller one. */
  api?: ApiClient;
}

export interface QuickSearchProvider<Raw = unknown> {
  /** Unique, e.g. `policies`. */
  id: string;
  /** Singular, e.g. 'Policy' → title 'Policy Quick Search'. */
  type: string;
  /** Plural, e.g. 'Policies' → 'Recently Viewed Policies', 'Matching Policies'. */
  typePlural: string;
  /** Placeholder that Tab fills in (e.g. a number prefix); contacts have none. */
  prefix?: string;
  /** Shortest query that searches. Default 2: the spec searches above 1 character. */
  minLength?: number;
  search(query: QuickSearchQuery): Promise<readonly Raw[]>;
  toItem(raw: Raw): QuickSearchItem;
}

// `search`/`toItem` are methods (bivariant), so any QuickSearchProvider<X> fits here.
export type AnyQuickSearchProvider = QuickSearchProvider<any>;

export const QUICK_SEARCH_DEFAULT_MIN_LENGTH = 2;
export const QUICK_SEARCH_DEBOUNCE_MS = 250;
export const QUICK_SEARCH_MAX_RESULTS = 5;

export function defineQuickSearchProvider<Raw>(provider: QuickSearchProvider<Raw>): QuickSearchProvider<Raw> {
  return provider;
}

export const quickSearchTitle = (type: string) => `${type} Quick Search`;
export const recentlyViewedHeader = (typePlural: string) => `Recently Viewed ${typePlural}`;
export const matchingHeader = (typePlural: string) => `Matching ${typePlural}`;
export const noMatchesMessage = (typePlural: string) => `No matching ${typePlural} found.`;
