import {
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_DEFAULT_MIN_LENGTH,
  QUICK_SEARCH_MAX_RESULTS,
  type AnyQuickSearchProvider,
  type ApiClient,
  type QuickSearchItem,
} from '@atrium/sdk';

/**
 * Records for the command palette: what the user types is sent to every quick-search provider at
 * once (claims, policies, contacts, lines …), so a claim number typed in the palette finds the claim
 * without choosing "Claim Quick Search" first. Like the quick search modal it waits for a pause in
 * typing, aborts the searches of the previous text when the text changes, and keeps the first few
 * hits of each provider. Each provider answers on its own: a slow one does not hold back the others
 * and a failing one shows its error in its own group.
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

export interface RecordSearchState {
  /** The trimmed text the groups answer. */
  query: string;
  /** In provider order; only providers that search text this long. */
  groups: readonly RecordGroup[];
}

export interface RecordSearch {
  getState(): RecordSearchState;
  subscribe(listener: () => void): () => void;
  setQuery(query: string): void;
  dispose(): void;
}

export interface RecordSearchOptions {
  providers: readonly AnyQuickSearchProvider[];
  api?: ApiClient;
  debounceMs?: number;
  /** Hits kept per provider. */
  perProvider?: number;
}

const EMPTY: RecordSearchState = { query: '', groups: [] };

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'The search failed.';
}

const isAbort = (error: unknown) => (error as { name?: string } | null)?.name === 'AbortError';

export function createRecordSearch(options: RecordSearchOptions): RecordSearch {
  const debounceMs = options.debounceMs ?? QUICK_SEARCH_DEBOUNCE_MS;
  const perProvider = options.perProvider ?? QUICK_SEARCH_MAX_RESULTS;
  const listeners = new Set<() => void>();
  let state = EMPTY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  let disposed = false;
  /** The text being searched or waited on. */
  let wanted = '';

  const publish = (next: RecordSearchState) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };

  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort();
    inFlight = null;
  };

  /** Replaces one provider's group, if the search it answers is still the current one. */
  const settle = (controller: AbortController, providerId: string, patch: Partial<RecordGroup>) => {
    if (controller.signal.aborted || disposed) return;
    publish({
      ...state,
      groups: state.groups.map((group) => (group.providerId === providerId ? { ...group, ...patch } : group)),
    });
  };

  const run = (term: string, providers: readonly AnyQuickSearchProvider[]) => {
    timer = null;
    const controller = new AbortController();
    inFlight = controller;
    // The previous text's hits stay on screen until this text's arrive (less flicker while typing).
    const previous = new Map(state.groups.map((group) => [group.providerId, group.items]));
    publish({
      query: term,
      groups: providers.map((p) => ({
        providerId: p.id,
        type: p.type,
        typePlural: p.typePlural,
        items: previous.get(p.id) ?? [],
        pending: true,
        error: null,
      })),
    });
    for (const provider of providers) {
      let pending: Promise<readonly unknown[]>;
      try {
        pending = Promise.resolve(provider.search({ query: term, signal: controller.signal, api: options.api }));
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending
        .then((raw) => raw.slice(0, perProvider).map((hit) => provider.toItem(hit)))
        .then(
          (items) => settle(controller, provider.id, { items, pending: false }),
          (error: unknown) => {
            if (isAbort(error)) return;
            settle(controller, provider.id, { items: [], pending: false, error: errorText(error) });
          },
        );
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
      // The same text again (e.g. a trailing space): the searches running or done already answer it.
      if (term === wanted) return;
      wanted = term;
      cancel();
      const providers = options.providers.filter(
        (p) => term.length >= (p.minLength ?? QUICK_SEARCH_DEFAULT_MIN_LENGTH),
      );
      if (providers.length === 0) {
        if (state !== EMPTY) publish(EMPTY);
        return;
      }
      timer = setTimeout(() => run(term, providers), debounceMs);
    },
    dispose() {
      disposed = true;
      cancel();
      listeners.clear();
    },
  };
}
