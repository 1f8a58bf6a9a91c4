/**
 * The store behind the palette's searches (record-search.ts for the quick-search providers,
 * palette/contributed-search.ts for plugins' run-time contributions): what the user types is sent to
 * several sources at once after a pause in typing; a new text aborts the previous text's searches;
 * each source answers on its own, so a slow one holds back none of the others. What a source's answer
 * becomes on screen (its group) is the caller's: the store only keeps the groups of the current text.
 */

export interface SearchState<G> {
  /** The trimmed text the groups answer. */
  query: string;
  /** In source order. */
  groups: readonly G[];
}

export interface DebouncedSearch<G> {
  getState(): SearchState<G>;
  subscribe(listener: () => void): () => void;
  setQuery(query: string): void;
  dispose(): void;
}

export interface DebouncedSearchSpec<S, G> {
  debounceMs: number;
  /** The sources that search this text; none empties the state and runs nothing. */
  sourcesFor(term: string): readonly S[];
  /** Which group a source's answer belongs to. */
  keyOf(source: S): string;
  groupKey(group: G): string;
  /** The group shown while the source searches; `previous` is its group for the last text, if any. */
  pendingGroup(source: S, previous: G | undefined): G;
  /**
   * The source's search. Resolves to the changes to its group, `null` to drop the group, or
   * `undefined` to leave it as it is. It must not reject: errors are the caller's to show or swallow.
   */
  search(source: S, term: string, signal: AbortSignal): Promise<Partial<G> | null | undefined>;
}

export function createDebouncedSearch<S, G>(spec: DebouncedSearchSpec<S, G>): DebouncedSearch<G> {
  const empty: SearchState<G> = { query: '', groups: [] };
  const listeners = new Set<() => void>();
  let state = empty;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight: AbortController | null = null;
  let disposed = false;
  /** The text being searched or waited on. */
  let wanted = '';

  const publish = (next: SearchState<G>) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };

  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    inFlight?.abort();
    inFlight = null;
  };

  /** Applies one source's answer, if the search it answers is still the current one. */
  const settle = (controller: AbortController, key: string, patch: Partial<G> | null | undefined) => {
    if (controller.signal.aborted || disposed || patch === undefined) return;
    publish({
      ...state,
      groups: state.groups.flatMap((group) =>
        spec.groupKey(group) !== key ? [group] : patch === null ? [] : [{ ...group, ...patch }],
      ),
    });
  };

  const run = (term: string, sources: readonly S[]) => {
    timer = null;
    const controller = new AbortController();
    inFlight = controller;
    const previous = new Map(state.groups.map((group) => [spec.groupKey(group), group]));
    publish({
      query: term,
      groups: sources.map((source) => spec.pendingGroup(source, previous.get(spec.keyOf(source)))),
    });
    for (const source of sources) {
      const key = spec.keyOf(source);
      spec.search(source, term, controller.signal).then((patch) => settle(controller, key, patch));
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
      const sources = spec.sourcesFor(term);
      if (sources.length === 0) {
        if (state !== empty) publish(empty);
        return;
      }
      timer = setTimeout(() => run(term, sources), spec.debounceMs);
    },
    dispose() {
      disposed = true;
      cancel();
      listeners.clear();
    },
  };
}
