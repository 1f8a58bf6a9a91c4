import {
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_DEFAULT_MIN_LENGTH,
  QUICK_SEARCH_MAX_RESULTS,
  type AnyQuickSearchProvider,
  type ApiClient,
  type QuickSearchItem,
} from '@atrium/sdk';
import { createDebouncedSearch, type DebouncedSearch, type SearchState } from './debounced-search.js';

/**
 * Records for the command palette: what the user types is sent to every quick-search provider at
 * once (claims, policies, contacts, lines …), so a claim number typed in the palette finds the claim
 * without choosing "Claim Quick Search" first. The waiting, aborting and answering on its own are the
 * shared store's (debounced-search.ts); this keeps the first few hits of each provider and shows a
 * failing provider's error in its own group.
 */

export interface RecordGroup {
  providerId: string;
  /** Singular, e.g. 'Claim' (what the recent-items store files an opened item under). */
  type: string;
  typePlural: string;
  items: readonly QuickSearchItem[];
  /** Still searching for the current text. */
  pending: boolean;
  /** Why this provider's search failed; null otherwise. */
  error: string | null;
}

/** Groups in provider order; only providers that search text this long. */
export type RecordSearchState = SearchState<RecordGroup>;

export type RecordSearch = DebouncedSearch<RecordGroup>;

export interface RecordSearchOptions {
  providers: readonly AnyQuickSearchProvider[];
  api?: ApiClient;
  debounceMs?: number;
  /** Hits kept per provider. */
  perProvider?: number;
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The search failed.';
}

const isAbort = (error: unknown) => (error as { name?: string } | null)?.name === 'AbortError';

/** A provider's search, never rejecting: its error becomes its group's error. */
async function searchOne(
  provider: AnyQuickSearchProvider,
  term: string,
  signal: AbortSignal,
  options: RecordSearchOptions,
  perProvider: number,
): Promise<Partial<RecordGroup> | undefined> {
  try {
    const raw = await provider.search({ query: term, signal, api: options.api });
    return { items: raw.slice(0, perProvider).map((hit) => provider.toItem(hit)), pending: false };
  } catch (error) {
    if (isAbort(error)) return undefined;
    return { items: [], pending: false, error: errorText(error) };
  }
}

export function createRecordSearch(options: RecordSearchOptions): RecordSearch {
  const perProvider = options.perProvider ?? QUICK_SEARCH_MAX_RESULTS;
  return createDebouncedSearch<AnyQuickSearchProvider, RecordGroup>({
    debounceMs: options.debounceMs ?? QUICK_SEARCH_DEBOUNCE_MS,
    sourcesFor: (term) =>
      options.providers.filter((p) => term.length >= (p.minLength ?? QUICK_SEARCH_DEFAULT_MIN_LENGTH)),
    keyOf: (provider) => provider.id,
    groupKey: (group) => group.providerId,
    // The previous text's hits stay on screen until this text's arrive (less flicker while typing).
    pendingGroup: (p, previous) => ({
      providerId: p.id,
      type: p.type,
      typePlural: p.typePlural,
      items: previous?.items ?? [],
      pending: true,
      error: null,
    }),
    search: (provider, term, signal) => searchOne(provider, term, signal, options, perProvider),
  });
}
