import {
  PALETTE_CONTRIBUTED_RESULTS,
  PALETTE_SEARCH_LIMIT_MS,
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_DEFAULT_MIN_LENGTH,
  type ContributedResult,
  type PaletteContribution,
} from '@atrium/sdk';
import { createDebouncedSearch, type DebouncedSearch, type SearchState } from '../quick-search/debounced-search.js';

/**
 * Results of the palette's run-time contributions (a third-party plugin's search, palette-source.ts)
 * for the typed text, on the same debounced store as the record search (quick-search/debounced-search.ts);
 * unlike it, each answer has a time limit and a late, failed or malformed answer
 * contributes nothing (no error row): a slow or broken plugin neither slows nor clutters the palette.
 */

export interface ContributedGroup {
  /** `<source id>:<contribution id>`. */
  key: string;
  heading: string;
  items: readonly ContributedResult[];
  pending: boolean;
}

export type ContributedSearchState = SearchState<ContributedGroup>;
export type ContributedSearch = DebouncedSearch<ContributedGroup>;

export interface KeyedContribution {
  key: string;
  contribution: PaletteContribution;
}

/** Plain, bounded results only: what a contribution answers is data the host renders as text. */
function cleanResults(raw: unknown): ContributedResult[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const out: ContributedResult[] = [];
  for (const item of raw as Partial<ContributedResult>[]) {
    if (out.length >= PALETTE_CONTRIBUTED_RESULTS) break;
    if (!item || typeof item.id !== 'string' || typeof item.title !== 'string' || typeof item.run !== 'function')
      continue;
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    const result: ContributedResult = { id: item.id, title: item.title, run: item.run };
    if (typeof item.subtitle === 'string' && item.subtitle) result.subtitle = item.subtitle;
    out.push(result);
  }
  return out;
}

/** A contribution's answer within the time limit, cleaned; null when late, failed or malformed. */
async function answerOf(contribution: PaletteContribution, term: string, signal: AbortSignal, limitMs: number) {
  let answer: Promise<unknown>;
  try {
    answer = Promise.resolve(contribution.search!({ query: term, signal }));
  } catch {
    return null;
  }
  const limit = new Promise<null>((resolve) => setTimeout(() => resolve(null), limitMs));
  return Promise.race([answer.then(cleanResults, () => null), limit]);
}

export function createContributedSearch(
  contributions: readonly KeyedContribution[],
  options: { debounceMs?: number; limitMs?: number } = {},
): ContributedSearch {
  const limitMs = options.limitMs ?? PALETTE_SEARCH_LIMIT_MS;
  const searching = contributions.filter((c) => c.contribution.search);
  return createDebouncedSearch<KeyedContribution, ContributedGroup>({
    debounceMs: options.debounceMs ?? QUICK_SEARCH_DEBOUNCE_MS,
    sourcesFor: (term) => (term.length < QUICK_SEARCH_DEFAULT_MIN_LENGTH ? [] : searching),
    keyOf: (source) => source.key,
    groupKey: (group) => group.key,
    pendingGroup: ({ key, contribution }) => ({ key, heading: contribution.heading, items: [], pending: true }),
    // An answer with nothing in it drops the group: no empty heading, no error row.
    search: async ({ contribution }, term, signal) => {
      const items = await answerOf(contribution, term, signal, limitMs);
      return items && items.length > 0 ? { items, pending: false } : null;
    },
  });
}
