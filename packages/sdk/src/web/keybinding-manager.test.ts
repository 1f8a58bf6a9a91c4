import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createContextService } from './context-service.js';
import type { KeyEventLike } from './keybinding.js';
import { CHORD_TIMEOUT_MS, createKeybindingManager, KeybindingError } from './keybinding-manager.js';

const key = (k: string, extra: Partial<KeyEventLike> = {}): KeyEventLike => ({ key: k, ...extra });
const input = { tagName: 'INPUT', inputType: 'text' };
const textarea = { tagName: 'TEXTAREA' };
const editable = { tagName: 'DIV', isContentEditable: true };
const monaco = { tagName: 'TEXTAREA', isEditor: true };

function setup(platform: 'mac' | 'other' = 'other') {
  const context = createContextService({ role: 'Administrator' });
  const execute = vi.fn();
  const onError = vi.fn();
  const manager = createKeybindingManager({ context, execute, onError, platform });
  return { context, execute, onError, manager };
}

describe('keybinding manager', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a chord on its second key', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'quickSearch.open', args: { provider: 'policies' } });
    expect(manager.handleKeyEvent(key('g'))).toEqual({ handled: true, kind: 'chord-pending', prefix: 'g' });
    expect(manager.pendingChord()).toBe('g');
    const result = manager.handleKeyEvent(key('p'));
    expect(result).toMatchObject({ handled: true, kind: 'command' });
    expect(execute).toHaveBeenCalledWith('quickSearch.open', { provider: 'policies' });
    expect(manager.pendingChord()).toBeNull();
  });

  it('dispatches each of several chords under one prefix', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.register({ key: 'g c', command: 'claim' });
    manager.register({ key: 'g n', command: 'contact' });
    for (const [second, command] of [
      ['c', 'claim'],
      ['n', 'contact'],
      ['p', 'policy'],
    ] as const) {
      manager.handleKeyEvent(key('g'));
      manager.handleKeyEvent(key(second));
      expect(execute).toHaveBeenLastCalledWith(command, undefined);
    }
  });

  it.each([
    ['an input', input],
    ['a textarea', textarea],
    ['a contenteditable', editable],
    ['the editor', monaco],
  ])('never fires chords or plain keys while typing in %s', (_, target) => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.register({ key: '?', command: 'shortcuts' });
    expect(manager.handleKeyEvent(key('g', { target }))).toEqual({ handled: false });
    expect(manager.handleKeyEvent(key('p', { target }))).toEqual({ handled: false });
    expect(manager.handleKeyEvent(key('?', { shiftKey: true, target }))).toEqual({ handled: false });
    expect(execute).not.toHaveBeenCalled();
  });

  it('does not fire chords when the context says an input or editor has focus', () => {
    const { manager, execute, context } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    context.setHost('editorFocus', true);
    manager.handleKeyEvent(key('g'));
    manager.handleKeyEvent(key('p'));
    context.setHost('editorFocus', false);
    context.setHost('inputFocus', true);
    manager.handleKeyEvent(key('g'));
    manager.handleKeyEvent(key('p'));
    expect(execute).not.toHaveBeenCalled();
  });

  it('drops a pending chord when focus moves into an input before the second key', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.handleKeyEvent(key('g'));
    expect(manager.handleKeyEvent(key('p', { target: input }))).toEqual({ handled: false });
    expect(execute).not.toHaveBeenCalled();
  });

  it('still fires modifier shortcuts inside inputs (mod+k opens the palette anywhere)', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'mod+k', command: 'palette.open' });
    expect(manager.handleKeyEvent(key('k', { ctrlKey: true, target: input }))).toMatchObject({ handled: true });
    expect(execute).toHaveBeenCalledWith('palette.open', undefined);
  });

  it('fires function keys inside inputs and the editor too (F1 opens the palette while typing)', () => {
    const { manager, execute, context } = setup();
    manager.register({ key: 'f1', command: 'palette.open' });
    expect(manager.handleKeyEvent(key('F1', { target: input }))).toMatchObject({ handled: true });
    context.setHost('editorFocus', true);
    expect(manager.handleKeyEvent(key('F1', { target: monaco }))).toMatchObject({ handled: true });
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('maps mod to Meta on macOS and Ctrl elsewhere', () => {
    const mac = setup('mac');
    mac.manager.register({ key: 'mod+k', command: 'palette.open' });
    expect(mac.manager.handleKeyEvent(key('k', { ctrlKey: true }))).toEqual({ handled: false });
    expect(mac.manager.handleKeyEvent(key('k', { metaKey: true }))).toMatchObject({ handled: true });
  });

  it('matches ? typed with Shift', () => {
    const { manager, execute } = setup();
    manager.register({ key: '?', command: 'shortcuts.show' });
    manager.handleKeyEvent(key('?', { shiftKey: true }));
    expect(execute).toHaveBeenCalledWith('shortcuts.show', undefined);
  });

  it('refuses a single key that prefixes an existing chord, and a chord whose prefix is bound', () => {
    const { manager } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    expect(() => manager.register({ key: 'g', command: 'go' })).toThrow(KeybindingError);
    expect(() => manager.register({ key: 'g', command: 'go' })).toThrow(
      "Cannot bind 'g': it is the first key of the chord 'g p' (policy).",
    );
    manager.register({ key: 'x', command: 'close' });
    expect(() => manager.register({ key: 'x y', command: 'xy' })).toThrow(
      "its first key 'x' is already bound to 'close'",
    );
  });

  it('allows the prefix again once every chord under it is disposed', () => {
    const { manager } = setup();
    const a = manager.register({ key: 'g p', command: 'policy' });
    const b = manager.register({ key: 'g c', command: 'claim' });
    a();
    expect(() => manager.register({ key: 'g', command: 'go' })).toThrow();
    b();
    expect(() => manager.register({ key: 'g', command: 'go' })).not.toThrow();
  });

  it('times a chord out after about 1.5 s', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.handleKeyEvent(key('g'));
    vi.advanceTimersByTime(CHORD_TIMEOUT_MS - 10);
    expect(manager.pendingChord()).toBe('g');
    vi.advanceTimersByTime(20);
    expect(manager.pendingChord()).toBeNull();
    expect(manager.handleKeyEvent(key('p'))).toEqual({ handled: false });
    expect(execute).not.toHaveBeenCalled();
  });

  it('abandons a chord on an unbound second key, and ignores modifier-only presses in between', () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.register({ key: 'shift+g', command: 'other' });
    manager.handleKeyEvent(key('g'));
    expect(manager.handleKeyEvent(key('Shift', { shiftKey: true }))).toEqual({ handled: false });
    expect(manager.pendingChord()).toBe('g');
    manager.handleKeyEvent(key('z'));
    expect(manager.pendingChord()).toBeNull();
    manager.handleKeyEvent(key('p'));
    expect(execute).not.toHaveBeenCalled();
    // Shift+G is its own stroke, not 'g'.
    manager.handleKeyEvent(key('G', { shiftKey: true }));
    expect(execute).toHaveBeenCalledWith('other', undefined);
  });

  it('does not start a chord none of whose bindings apply now', () => {
    const { manager, context } = setup();
    manager.register({ key: 'g p', command: 'policy', when: '!modalOpen' });
    context.setHost('modalOpen', true);
    expect(manager.handleKeyEvent(key('g'))).toEqual({ handled: false });
  });

  it('picks the latest registered binding whose when holds', () => {
    const { manager, execute, context } = setup();
    manager.register({ key: 'mod+s', command: 'save.default' });
    manager.register({ key: 'mod+s', command: 'save.editor', when: 'editorFocus' });
    manager.handleKeyEvent(key('s', { ctrlKey: true }));
    context.setHost('editorFocus', true);
    manager.handleKeyEvent(key('s', { ctrlKey: true }));
    expect(execute.mock.calls.map((c) => c[0])).toEqual(['save.default', 'save.editor']);
  });

  it('lists conflicts: same keys with overlapping when clauses', () => {
    const { manager } = setup();
    manager.register({ key: 'g p', command: 'policy' });
    manager.register({ key: 'g p', command: 'plugin.policy' });
    manager.register({ key: 'mod+s', command: 'save.editor', when: 'editorFocus' });
    manager.register({ key: 'mod+s', command: 'save.form', when: '!editorFocus' });
    manager.register({ key: '?', command: 'help', when: "role == 'Agent'" });
    manager.register({ key: '?', command: 'shortcuts', when: "role == 'Administrator'" });
    const conflicts = manager.conflicts();
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]!.sequence).toBe('g p');
    expect(conflicts[0]!.bindings.map((b) => b.command)).toEqual(['policy', 'plugin.policy']);
    expect(manager.list().map((b) => b.command)).toEqual([
      'policy',
      'plugin.policy',
      'save.editor',
      'save.form',
      'help',
      'shortcuts',
    ]);
  });

  it('reports command failures through onError instead of throwing from dispatch', async () => {
    const context = createContextService();
    const onError = vi.fn();
    const manager = createKeybindingManager({
      context,
      onError,
      execute: (command) =>
        command === 'sync'
          ? (() => {
              throw new Error('sync');
            })()
          : Promise.reject(new Error('async')),
    });
    manager.register({ key: 'a', command: 'sync' });
    manager.register({ key: 'b', command: 'async' });
    expect(() => manager.handleKeyEvent(key('a'))).not.toThrow();
    manager.handleKeyEvent(key('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onError.mock.calls.map((c) => (c[0] as Error).message)).toEqual(['sync', 'async']);
  });

  it('notifies subscribers when a chord starts and ends', () => {
    const { manager } = setup();
    const listener = vi.fn();
    manager.register({ key: 'g p', command: 'policy' });
    manager.subscribe(listener);
    manager.handleKeyEvent(key('g'));
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CHORD_TIMEOUT_MS);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('refuses a binding to a command that is not registered', () => {
    const context = createContextService({ role: 'Administrator' });
    const manager = createKeybindingManager({ context, execute: vi.fn(), hasCommand: (id) => id === 'diary.open' });
    expect(() => manager.register({ key: 'g d', command: 'diary.opne' })).toThrow(
      "Cannot bind 'g d': command 'diary.opne' is not registered.",
    );
    expect(() => manager.register({ key: 'g d', command: 'diary.open' })).not.toThrow();
  });

  it("neither fires nor lists a hidden module's chords", () => {
    const { manager, execute } = setup();
    manager.register({ key: 'g d', command: 'diary.open' }, { module: 'diary' });
    manager.setHiddenModules(['diary']);
    expect(manager.list()).toEqual([]);
    expect(manager.handleKeyEvent(key('g'))).toEqual({ handled: false });
    manager.setHiddenModules([]);
    manager.handleKeyEvent(key('g'));
    manager.handleKeyEvent(key('d'));
    expect(execute).toHaveBeenCalledWith('diary.open', undefined);
  });
});
