import {
  PALETTE_CONTRIBUTED_RESULTS,
  PALETTE_SEARCH_LIMIT_MS,
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_DEFAULT_MIN_LENGTH,
  type ContributedResult,
  type PaletteContribution,
} from '@atrium/sdk';

/**
 * Results of the palette's run-time contributions (a third-party plugin's search, palette-source.ts)
 * for the typed text. Like the record search it waits for a pause in typing and aborts the previous
 * text's searches; unlike it, each answer has a time limit and a late, failed or malformed answer
 * contributes nothing (no error row): a slow or broken plugin neither slows nor clutters the palette.
 */

export interface ContributedGroup {
  /** `<source id>:<contribution id>`. */
  key: string;
  heading: string;
  items: readonly ContributedResult[];
  pending: boolean;
}

export interface ContributedSearchState {
  query: string;
  groups: readonly ContributedGroup[];
}

export interface ContributedSearch {
  getState(): ContributedSearchState;
  subscribe(listener: () => void): () => void;
  setQuery(query: string): void;
  dispose(): void;
}

export interface KeyedContribution {
  key: string;
  contribution: PaletteContribution;
}

const EMPTY: ContributedSearchState = { query: '', groups: [] };

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

export function createContributedSearch(
  contributions: readonly KeyedContribution[],
  options: { debounceMs?: number; limitMs?: number } = {},
): ContributedSearch {
  const debounceMs = options.debounceMs ?? QUICK_SEARCH_DEBOUNCE_MS;
  const limitMs = options.limitMs ?? PALETTE_SEARCH_LIMIT_MS;
  const searching = contributions.filter((c) => c.contribution.search);
  const listeners = new Set<() => void>();
  let state = EMPTY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  let wanted = '';
  let disposed = false;

  const publish = (next: ContributedSearchState) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort();
    inFlight = null;
  };
  const settle = (controller: AbortController, key: string, items: ContributedResult[] | null) => {
    if (controller.signal.aborted || disposed) return;
    publish({
      ...state,
      groups: state.groups.flatMap((group) =>
        group.key !== key ? [group] : items && items.length > 0 ? [{ ...group, items, pending: false }] : [],
      ),
    });
  };

  const run = (term: string) => {
    timer = null;
    const controller = new AbortController();
    inFlight = controller;
    publish({
      query: term,
      groups: searching.map(({ key, contribution }) => ({
        key,
        heading: contribution.heading,
        items: [],
        pending: true,
      })),
    });
    for (const { key, contribution } of searching) {
      const limit = new Promise<null>((resolve) => setTimeout(() => resolve(null), limitMs));
      let answer: Promise<unknown>;
      try {
        answer = Promise.resolve(contribution.search!({ query: term, signal: controller.signal }));
      } catch {
        answer = Promise.resolve(null);
      }
      Promise.race([answer.then(cleanResults, () => null), limit]).then((items) => settle(controller, key, items));
    }
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setQuery(query) {
      if (disposed) return;
      const term = query.trim();
      if (term === wanted) return;
      wanted = term;
      cancel();
      if (searching.length === 0 || term.length < QUICK_SEARCH_DEFAULT_MIN_LENGTH) {
        if (state !== EMPTY) publish(EMPTY);
        return;
      }
      timer = setTimeout(() => run(term), debounceMs);
    },
    dispose() {
      disposed = true;
      cancel();
      listeners.clear();
    },
  };
}
