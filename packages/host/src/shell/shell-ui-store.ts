import { createStore } from 'zustand/vanilla';

/**
 * Which of the shell's overlays is open. One place so that opening one closes the others (the
 * palette, the `?` modal and quick search never stack) and so the `modalOpen` context key has a
 * single source.
 */
export interface ShellUiState {
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  helpOpen: boolean;
  /** Id of the quick-search provider whose modal is open. */
  quickSearchProviderId: string | null;
  openPalette(): void;
  openShortcuts(): void;
  openHelp(): void;
  openQuickSearch(providerId: string): void;
  closeAll(): void;
}

const closed = { paletteOpen: false, shortcutsOpen: false, helpOpen: false, quickSearchProviderId: null };

export function createShellUiStore() {
  return createStore<ShellUiState>()((set) => ({
    ...closed,
    openPalette: () => set({ ...closed, paletteOpen: true }),
    openShortcuts: () => set({ ...closed, shortcutsOpen: true }),
    openHelp: () => set({ ...closed, helpOpen: true }),
    openQuickSearch: (providerId) => set({ ...closed, quickSearchProviderId: providerId }),
    closeAll: () => set(closed),
  }));
}

export function anyOverlayOpen(state: ShellUiState): boolean {
  return state.paletteOpen || state.shortcutsOpen || state.helpOpen || state.quickSearchProviderId !== null;
}
