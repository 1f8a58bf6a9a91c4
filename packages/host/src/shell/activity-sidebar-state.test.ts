import { describe, expect, it } from 'vitest';
import { createActivitySidebarStore, toggleActivityPanel, UNSAVED_NOTES_WARNING } from './activity-sidebar-state.js';

describe('activity sidebar', () => {
  it('opens a panel, switches to another, closes the open one', () => {
    expect(toggleActivityPanel(null, 'notes', new Set())).toEqual({ openPanelId: 'notes', warning: null });
    expect(toggleActivityPanel('notes', 'claims-activity', new Set())).toEqual({
      openPanelId: 'claims-activity',
      warning: null,
    });
    expect(toggleActivityPanel('claims-activity', 'claims-activity', new Set())).toEqual({
      openPanelId: null,
      warning: null,
    });
  });

  it('refuses to toggle while Notes has unsaved changes, with the spec warning', () => {
    const store = createActivitySidebarStore();
    store.getState().toggle('notes');
    store.getState().setUnsaved('notes', true);
    store.getState().toggle('notes');
    expect(store.getState().openPanelId).toBe('notes');
    expect(store.getState().warning).toBe(UNSAVED_NOTES_WARNING);
    store.getState().toggle('claims-activity');
    expect(store.getState().openPanelId).toBe('notes');
    store.getState().setUnsaved('notes', false);
    expect(store.getState().warning).toBeNull();
    store.getState().toggle('notes');
    expect(store.getState().openPanelId).toBeNull();
  });

  it('does not mind unsaved changes in other panels', () => {
    expect(toggleActivityPanel('claims-activity', 'claims-activity', new Set(['claim-outbound-email']))).toEqual({
      openPanelId: null,
      warning: null,
    });
  });
});
