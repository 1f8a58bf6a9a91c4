import {
  matchingHeader,
  noMatchesMessage,
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_DEFAULT_MIN_LENGTH,
  QUICK_SEARCH_MAX_RESULTS,
  quickSearchTitle,
  recentlyViewedHeader,
  type AnyQuickSearchProvider,
  type QuickSearchItem,
} from './quick-search.js';
import type { ApiClient } from './api-client.js';
import type { RecentItemsStore } from './recent-items.js';

/**
 * The quick search modal's behaviour without the modal (spec, "Layout and navigation" and
 * "Validation rules"): empty input lists recently viewed items; otherwise searches above the minimum
 * length, debounced, keeping only the latest search (older ones are aborted), capped at 5 results.
 * A failing provider sets `error`; nothing here throws into the UI.
 */

export interface QuickSearchState {
  /** '{type} Quick Search'. */
  title: string;
  /** The provider's prefix, shown as placeholder and filled in by Tab. */
  placeholder: string;
  query: string;
  /** 'Recently Viewed {types}' for empty input, else 'Matching {types}'. */
  header: string;
  showingRecent: boolean;
  items: readonly QuickSearchItem[];
  /** -1 when there is nothing to select. */
  selectedIndex: number;
  fetching: boolean;
  error: string | null;
  /** 'No matching {types} found.' — only for input longer than 1, not fetching, and a finished empty search. */
  emptyMessage: string | null;
}

export interface QuickSearchController {
  getState(): QuickSearchState;
  subscribe(listener: () => void): () => void;
  setQuery(query: string): void;
  /** +1 (Down) or -1 (Up), wrapping at both ends. */
  moveSelection(delta: number): void;
  select(index: number): void;
  /** Opens the selected item (Enter); returns it, or null when nothing is selected. */
  openSelected(): QuickSearchItem | null;
  open(item: QuickSearchItem): void;
  /** Tab: puts the prefix into an empty input. Returns true when it did (so Tab's default is prevented). */
  fillPrefix(): boolean;
  /** ArrowUp/ArrowDown/Enter/Tab; returns true when handled. */
  handleKey(key: string): boolean;
  dispose(): void;
}

export interface QuickSearchControllerOptions {
  provider: AnyQuickSearchProvider;
  recent: RecentItemsStore;
  /** Navigates to the item; called after it is recorded as recently viewed. */
  onOpen(item: QuickSearchItem): void;
  /** Passed on to the provider's `search` so providers can call the API. */
  api?: ApiClient;
  debounceMs?: number;
  maxResults?: number;
}

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Search failed.';
}

const isAbort = (error: unknown) => (error as { name?: string } | null)?.name === 'AbortError';

export function createQuickSearchController(options: QuickSearchControllerOptions): QuickSearchController {
  const { provider, recent, onOpen } = options;
  const debounceMs = options.debounceMs ?? QUICK_SEARCH_DEBOUNCE_MS;
  const maxResults = options.maxResults ?? QUICK_SEARCH_MAX_RESULTS;
  const minLength = provider.minLength ?? QUICK_SEARCH_DEFAULT_MIN_LENGTH;
  const listeners = new Set<() => void>();

  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  /** The query the current `items` answer; the empty message needs results for *this* input. */
  let resultsQuery: string | null = null;
  let disposed = false;

  const recentItems = () => recent.get(provider.type);

  let state: QuickSearchState = {
    title: quickSearchTitle(provider.type),
    placeholder: provider.prefix ?? '',
    query: '',
    header: recentlyViewedHeader(provider.typePlural),
    showingRecent: true,
    items: recentItems(),
    selectedIndex: -1,
    fetching: false,
    error: null,
    emptyMessage: null,
  };
  state.selectedIndex = state.items.length > 0 ? 0 : -1;

  const update = (patch: Partial<QuickSearchState>) => {
    const next = { ...state, ...patch };
    const term = next.query.trim();
    next.emptyMessage =
      !next.showingRecent &&
      term.length > 1 &&
      !next.fetching &&
      next.error === null &&
      resultsQuery === term &&
      next.items.length === 0
        ? noMatchesMessage(provider.typePlural)
        : null;
    state = next;
    for (const listener of [...listeners]) listener();
  };

  const cancelPending = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort();
    inFlight = null;
  };

  const runSearch = (term: string) => {
    timer = null;
    const controller = new AbortController();
    inFlight = controller;
    update({ fetching: true, error: null });
    let pending: Promise<readonly unknown[]>;
    try {
      pending = Promise.resolve(provider.search({ query: term, signal: controller.signal, api: options.api }));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (raw) => {
        if (controller.signal.aborted || disposed) return;
        inFlight = null;
        try {
          const items = raw.slice(0, maxResults).map((r) => provider.toItem(r));
          resultsQuery = term;
          update({ items, fetching: false, error: null, selectedIndex: items.length > 0 ? 0 : -1 });
        } catch (error) {
          resultsQuery = term;
          update({ items: [], fetching: false, error: errorText(error), selectedIndex: -1 });
        }
      },
      (error: unknown) => {
        if (controller.signal.aborted || disposed || isAbort(error)) return;
        inFlight = null;
        resultsQuery = term;
        update({ items: [], fetching: false, error: errorText(error), selectedIndex: -1 });
      },
    );
  };

  const controller: QuickSearchController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    setQuery(query) {
      if (disposed) return;
      cancelPending();
      const term = query.trim();
      if (term === '') {
        const items = recentItems();
        resultsQuery = null;
        update({
          query,
          showingRecent: true,
          header: recentlyViewedHeader(provider.typePlural),
          items,
          selectedIndex: items.length > 0 ? 0 : -1,
          fetching: false,
          error: null,
        });
        return;
      }
      const base = { query, showingRecent: false, header: matchingHeader(provider.typePlural), error: null };
      if (term.length < minLength) {
        resultsQuery = null;
        update({ ...base, items: [], selectedIndex: -1, fetching: false });
        return;
      }
      // Keep the previous results on screen until the new ones arrive (less flicker while typing).
      const keep = state.showingRecent ? [] : state.items;
      update({
        ...base,
        items: keep,
        selectedIndex: keep.length > 0 ? Math.max(0, state.selectedIndex) : -1,
        fetching: false,
      });
      timer = setTimeout(() => runSearch(term), debounceMs);
    },

    moveSelection(delta) {
      const count = state.items.length;
      if (count === 0) return;
      const from = state.selectedIndex < 0 ? (delta > 0 ? -1 : 0) : state.selectedIndex;
      update({ selectedIndex: (((from + delta) % count) + count) % count });
    },

    select(index) {
      if (index >= 0 && index < state.items.length) update({ selectedIndex: index });
    },

    openSelected() {
      const item = state.items[state.selectedIndex];
      if (!item) return null;
      controller.open(item);
      return item;
    },

    open(item) {
      recent.add(provider.type, item);
      onOpen(item);
    },

    fillPrefix() {
      if (!provider.prefix || state.query !== '') return false;
      controller.setQuery(provider.prefix);
      return true;
    },

    handleKey(key) {
      switch (key) {
        case 'ArrowDown':
          controller.moveSelection(1);
          return true;
        case 'ArrowUp':
          controller.moveSelection(-1);
          return true;
        case 'Enter':
          return controller.openSelected() !== null;
        case 'Tab':
          return controller.fillPrefix();
        default:
          return false;
      }
    },

    dispose() {
      disposed = true;
      cancelPending();
      listeners.clear();
    },
  };
  return controller;
}
