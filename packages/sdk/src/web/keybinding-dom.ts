import type { KeyEventLike, KeyTargetInfo } from './keybinding.js';
import type { KeybindingManager } from './keybinding-manager.js';

/**
 * The only DOM-aware part of shortcuts: turns a KeyboardEvent into plain data and prevents the
 * browser default when the manager handled the keystroke.
 */

/** Monaco marks its root with `.monaco-editor`; other editors can opt in with `data-editor`. */
const EDITOR_SELECTOR = '.monaco-editor, [data-editor]';

interface ElementLike {
  tagName?: string;
  type?: string;
  isContentEditable?: boolean;
  closest?(selector: string): unknown;
}

export function targetInfo(target: EventTarget | null | undefined): KeyTargetInfo | undefined {
  const element = target as ElementLike | null | undefined;
  if (!element || typeof element.tagName !== 'string') return undefined;
  const tagName = element.tagName.toUpperCase();
  return {
    tagName,
    inputType: tagName === 'INPUT' ? (element.type ?? 'text') : undefined,
    isContentEditable: element.isContentEditable === true,
    isEditor: typeof element.closest === 'function' && element.closest(EDITOR_SELECTOR) != null,
  };
}

export function keyEventFromDom(event: KeyboardEvent): KeyEventLike {
  return {
    key: event.key,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    altKey: event.altKey,
    shiftKey: event.shiftKey,
    target: targetInfo(event.target),
  };
}

/** Listens for keydown on `target` (window or document); returns the disposer. */
export function attachKeybindings(
  manager: KeybindingManager,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
): () => void {
  const listener = (event: Event) => {
    const keyboard = event as KeyboardEvent;
    // IME composition keystrokes belong to the input method, not to shortcuts.
    if (keyboard.isComposing || keyboard.defaultPrevented) return;
    const result = manager.handleKeyEvent(keyEventFromDom(keyboard));
    if (result.handled) {
      keyboard.preventDefault();
      keyboard.stopPropagation();
    }
  };
  target.addEventListener('keydown', listener);
  return () => target.removeEventListener('keydown', listener);
}
