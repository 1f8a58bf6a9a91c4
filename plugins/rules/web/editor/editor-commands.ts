import { formatKeySequence, parseKeySequence } from '@atrium/sdk';

/**
 * The palette's editor commands reach the open component editor through a window event: commands
 * get only the host services, and the text being edited lives in the page. The page listens while
 * the editor is open (and sets `rules.editorOpen`, which the commands' `when` clause needs).
 */
export const EDITOR_ACTIONS = ['save', 'format', 'validate', 'test', 'changes'] as const;
export type EditorAction = (typeof EDITOR_ACTIONS)[number];

const EVENT = 'atrium:rules:editor-action';

export function requestEditorAction(action: EditorAction): void {
  window.dispatchEvent(new CustomEvent<EditorAction>(EVENT, { detail: action }));
}

export function onEditorAction(listener: (action: EditorAction) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<EditorAction>).detail);
  window.addEventListener(EVENT, handler);
  return () => window.removeEventListener(EVENT, handler);
}

/** The editor's shortcuts (bound in the manifest; the palette and the buttons show them). */
export const EDITOR_SHORTCUTS: Record<EditorAction, string> = {
  save: 'mod+s',
  format: 'alt+shift+f',
  validate: 'alt+shift+v',
  test: 'alt+shift+t',
  changes: 'alt+shift+d',
};

/** `mod+s` → `Ctrl+S` (`⌘S` on macOS), as the shortcuts overlay writes it. */
export function shortcutLabel(action: EditorAction): string {
  const platform = typeof navigator !== 'undefined' && /Mac|iP(hone|ad)/.test(navigator.platform) ? 'mac' : 'other';
  return formatKeySequence(parseKeySequence(EDITOR_SHORTCUTS[action], platform), platform);
}
