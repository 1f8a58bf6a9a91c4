import { createStore } from 'zustand/vanilla';

/**
 * The right activity sidebar shows one plugin panel at a time. The notes panel may hold an
 * unfinished note; toggling the sidebar then would throw the text away, so the toggle is refused
 * with the spec's warning until the note is saved or cancelled.
 */
export const UNSAVED_NOTES_WARNING = 'You have unsaved changes in Notes. Please save or cancel your changes.';
export const NOTES_PANEL_ID = 'notes';

export interface ActivityToggleResult {
  openPanelId: string | null;
  warning: string | null;
}

/** Clicking a panel's button opens it, or closes it when it is the open one. */
export function toggleActivityPanel(
  openPanelId: string | null,
  requested: string,
  unsaved: ReadonlySet<string>,
): ActivityToggleResult {
  if (openPanelId !== null && unsaved.has(NOTES_PANEL_ID)) {
    return { openPanelId, warning: UNSAVED_NOTES_WARNING };
  }
  return { openPanelId: openPanelId === requested ? null : requested, warning: null };
}

export interface ActivitySidebarState {
  openPanelId: string | null;
  /** Panels that reported unsaved changes. */
  unsaved: ReadonlySet<string>;
  warning: string | null;
  toggle(panelId: string): void;
  setUnsaved(panelId: string, unsaved: boolean): void;
  dismissWarning(): void;
}

export function createActivitySidebarStore() {
  return createStore<ActivitySidebarState>()((set, get) => ({
    openPanelId: null,
    unsaved: new Set(),
    warning: null,
    toggle(panelId) {
      set(toggleActivityPanel(get().openPanelId, panelId, get().unsaved));
    },
    setUnsaved(panelId, unsaved) {
      const next = new Set(get().unsaved);
      if (unsaved) next.add(panelId);
      else next.delete(panelId);
      set({ unsaved: next, warning: unsaved ? get().warning : null });
    },
    dismissWarning: () => set({ warning: null }),
  }));
}
