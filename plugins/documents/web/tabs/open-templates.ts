import { useSyncExternalStore } from 'react';

/**
 * The templates an author has open, as tabs, and each one's unsaved draft source — kept for the
 * browser tab's session (sessionStorage), so switching between templates keeps what was typed, as
 * an editor's tabs do. Pure state with a subscribe, so pages and tests share one store.
 */
export interface OpenTab {
  id: string;
  name: string;
}
interface Buffer {
  versionId: number;
  source: string;
}
export interface OpenTemplatesState {
  tabs: OpenTab[];
  buffers: Record<string, Buffer>;
}

const KEY = 'atrium.documents.open-templates';
const EMPTY: OpenTemplatesState = { tabs: [], buffers: {} };

function read(): OpenTemplatesState {
  try {
    const raw = globalThis.sessionStorage?.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as OpenTemplatesState) : null;
    return parsed && Array.isArray(parsed.tabs) && parsed.buffers ? parsed : EMPTY;
  } catch {
    return EMPTY;
  }
}

let state: OpenTemplatesState = read();
const listeners = new Set<() => void>();

function write(next: OpenTemplatesState) {
  state = next;
  try {
    globalThis.sessionStorage?.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the tabs still work for this page's life.
  }
  for (const listener of listeners) listener();
}

export const openTemplates = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Adds a tab (at the end) or renames an open one. */
  open(tab: OpenTab) {
    const at = state.tabs.findIndex((t) => t.id === tab.id);
    if (at >= 0 && state.tabs[at]!.name === tab.name) return;
    const tabs = at >= 0 ? state.tabs.map((t) => (t.id === tab.id ? tab : t)) : [...state.tabs, tab];
    write({ ...state, tabs });
  },
  /** Closes a tab and drops its unsaved source; answers the tab to show next (its neighbour), if any. */
  close(id: string): OpenTab | null {
    const at = state.tabs.findIndex((t) => t.id === id);
    if (at < 0) return null;
    const tabs = state.tabs.filter((t) => t.id !== id);
    const { [id]: _dropped, ...buffers } = state.buffers;
    write({ tabs, buffers });
    return tabs[at] ?? tabs[at - 1] ?? null;
  },
  /** Keeps a draft's unsaved source (null: nothing unsaved). */
  setBuffer(id: string, versionId: number, source: string | null) {
    const current = state.buffers[id];
    if (source === null) {
      if (!current) return;
      const { [id]: _dropped, ...buffers } = state.buffers;
      write({ ...state, buffers });
      return;
    }
    if (current?.versionId === versionId && current.source === source) return;
    write({ ...state, buffers: { ...state.buffers, [id]: { versionId, source } } });
  },
  /** The unsaved source of the template's draft version, if there is one for that version. */
  bufferOf(id: string, versionId: number): string | null {
    const found = state.buffers[id];
    return found && found.versionId === versionId ? found.source : null;
  },
  /** For tests: forget everything. */
  reset() {
    write(EMPTY);
  },
};

export function useOpenTemplates(): OpenTemplatesState {
  return useSyncExternalStore(openTemplates.subscribe, openTemplates.get, openTemplates.get);
}
