import { describe, expect, it, vi } from 'vitest';
import { createContextService } from './context-service.js';
import { attachKeybindings, keyEventFromDom, targetInfo } from './keybinding-dom.js';
import { createKeybindingManager } from './keybinding-manager.js';

/** A keydown Event carrying KeyboardEvent fields; Node has Event/EventTarget but no KeyboardEvent. */
function keydown(init: { key: string; ctrlKey?: boolean; shiftKey?: boolean; isComposing?: boolean }): KeyboardEvent {
  const event = new Event('keydown', { cancelable: true, bubbles: true });
  Object.assign(event, { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, isComposing: false, ...init });
  return event as KeyboardEvent;
}

describe('keyboard DOM adapter', () => {
  it('describes the focused element', () => {
    expect(targetInfo({ tagName: 'input', type: 'email', closest: () => null } as never)).toEqual({
      tagName: 'INPUT',
      inputType: 'email',
      isContentEditable: false,
      isEditor: false,
    });
    expect(
      targetInfo({ tagName: 'TEXTAREA', closest: (s: string) => (s.includes('.monaco-editor') ? {} : null) } as never),
    ).toMatchObject({
      isEditor: true,
    });
    expect(targetInfo({ tagName: 'DIV', isContentEditable: true } as never)).toMatchObject({ isContentEditable: true });
    expect(targetInfo(null)).toBeUndefined();
    expect(targetInfo(new EventTarget())).toBeUndefined();
  });

  it('copies key and modifiers', () => {
    expect(keyEventFromDom(keydown({ key: 'k', ctrlKey: true }))).toMatchObject({
      key: 'k',
      ctrlKey: true,
      shiftKey: false,
    });
  });

  it('dispatches keydowns, prevents the default of handled ones, and detaches', () => {
    const execute = vi.fn();
    const manager = createKeybindingManager({ context: createContextService(), execute });
    manager.register({ key: 'mod+k', command: 'palette.open' });
    const target = new EventTarget();
    const detach = attachKeybindings(manager, target);

    const handled = keydown({ key: 'k', ctrlKey: true });
    target.dispatchEvent(handled);
    expect(handled.defaultPrevented).toBe(true);
    expect(execute).toHaveBeenCalledTimes(1);

    const ignored = keydown({ key: 'x' });
    target.dispatchEvent(ignored);
    expect(ignored.defaultPrevented).toBe(false);

    // Keystrokes that compose text (IME) are left alone.
    target.dispatchEvent(keydown({ key: 'k', ctrlKey: true, isComposing: true }));
    expect(execute).toHaveBeenCalledTimes(1);

    detach();
    target.dispatchEvent(keydown({ key: 'k', ctrlKey: true }));
    expect(execute).toHaveBeenCalledTimes(1);
  });
});
