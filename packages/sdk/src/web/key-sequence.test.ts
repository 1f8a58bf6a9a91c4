import { describe, expect, it } from 'vitest';
import {
  formatKeySequence,
  formatStroke,
  isEditableTarget,
  parseKeySequence,
  strokeFromEvent,
} from './key-sequence.js';

describe('key sequences', () => {
  it('parses chords, modifiers and aliases into canonical strokes', () => {
    expect(parseKeySequence('g p')).toEqual(['g', 'p']);
    expect(parseKeySequence('mod+k')).toEqual(['ctrl+k']);
    expect(parseKeySequence('mod+k', 'mac')).toEqual(['meta+k']);
    expect(parseKeySequence('Shift+Alt+Ctrl+Enter')).toEqual(['ctrl+alt+shift+enter']);
    expect(parseKeySequence('esc')).toEqual(['escape']);
    expect(parseKeySequence('?')).toEqual(['?']);
    expect(parseKeySequence('shift+?')).toEqual(['?']);
    expect(parseKeySequence('G')).toEqual(['shift+g']);
    expect(parseKeySequence('ctrl++')).toEqual(['ctrl++']);
  });

  it('rejects malformed bindings', () => {
    expect(() => parseKeySequence('')).toThrow(/at least one key/);
    expect(() => parseKeySequence('a b c')).toThrow(/at most two strokes/);
    expect(() => parseKeySequence('hyper+k')).toThrow(/unknown modifier/);
    expect(() => parseKeySequence('ctrl+shift')).toThrow(/modifier cannot be the key/);
  });

  it('turns events into the same strokes', () => {
    expect(strokeFromEvent({ key: 'k', ctrlKey: true })).toBe('ctrl+k');
    expect(strokeFromEvent({ key: 'K', ctrlKey: true, shiftKey: true })).toBe('ctrl+shift+k');
    expect(strokeFromEvent({ key: '?', shiftKey: true })).toBe('?');
    expect(strokeFromEvent({ key: 'Enter', shiftKey: true })).toBe('shift+enter');
    expect(strokeFromEvent({ key: 'Shift', shiftKey: true })).toBeNull();
    expect(strokeFromEvent({ key: 'Meta', metaKey: true })).toBeNull();
  });

  it('knows which targets take text', () => {
    expect(isEditableTarget({ tagName: 'input', inputType: 'search' })).toBe(true);
    expect(isEditableTarget({ tagName: 'INPUT', inputType: 'checkbox' })).toBe(false);
    expect(isEditableTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isEditableTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isEditableTarget({ tagName: 'DIV', isEditor: true })).toBe(true);
    expect(isEditableTarget(undefined)).toBe(false);
  });

  it('formats bindings for the ? modal', () => {
    expect(formatKeySequence(parseKeySequence('g p'))).toBe('G then P');
    expect(formatStroke('ctrl+k')).toBe('Ctrl+K');
    expect(formatStroke('meta+k', 'mac')).toBe('⌘K');
    expect(formatStroke('ctrl++')).toBe('Ctrl++');
    expect(formatStroke('escape')).toBe('Escape');
  });
});
