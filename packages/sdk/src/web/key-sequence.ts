import type { KeyEventLike, KeyTargetInfo } from './keybinding.js';

/**
 * Key strings and events reduced to one canonical stroke form: modifiers in the order
 * ctrl, alt, shift, meta, then the key, joined by '+': `ctrl+k`, `shift+enter`, `?`, `g`.
 * Printable non-letter characters already encode Shift (`?` is Shift+/ on a US layout), so Shift is
 * dropped for them; for letters Shift is kept (`shift+g` is not `g`).
 */

export type Platform = 'mac' | 'other';

const MODIFIER_ORDER = ['ctrl', 'alt', 'shift', 'meta'] as const;
type Modifier = (typeof MODIFIER_ORDER)[number];

const MODIFIER_ALIASES: Record<string, Modifier | 'mod'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  shift: 'shift',
  meta: 'meta',
  cmd: 'meta',
  command: 'meta',
  mod: 'mod',
};

const KEY_ALIASES: Record<string, string> = {
  esc: 'escape',
  return: 'enter',
  space: ' ',
  spacebar: ' ',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  del: 'delete',
  plus: '+',
};

/** Keys pressed alone that never start or continue a shortcut. */
const MODIFIER_KEYS = new Set(['shift', 'control', 'alt', 'meta', 'os', 'altgraph', 'capslock', 'dead']);

const isLetter = (key: string) => key.length === 1 && key.toLowerCase() !== key.toUpperCase();

function canonical(modifiers: ReadonlySet<Modifier>, key: string): string {
  const parts: string[] = MODIFIER_ORDER.filter((m) => modifiers.has(m));
  parts.push(key);
  return parts.join('+');
}

export class KeySequenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySequenceError';
  }
}

/** `'g p'` → `['g', 'p']`; `'mod+k'` → `['ctrl+k']` (or `['meta+k']` on macOS). */
export function parseKeySequence(text: string, platform: Platform = 'other'): string[] {
  const strokes = text.trim().split(/\s+/).filter(Boolean);
  if (strokes.length === 0) throw new KeySequenceError('A key binding needs at least one key.');
  if (strokes.length > 2) throw new KeySequenceError(`'${text}': chords have at most two strokes.`);
  return strokes.map((stroke) => parseStroke(stroke, text, platform));
}

/** A lone '+' is the plus key; otherwise '+' separates modifiers from the key (`ctrl++`). */
function splitStroke(stroke: string): string[] {
  if (stroke === '+') return ['+'];
  if (stroke.endsWith('++')) return [...stroke.slice(0, -2).split('+'), '+'];
  return stroke.split('+');
}

function parseStroke(stroke: string, text: string, platform: Platform): string {
  const parts = splitStroke(stroke);
  const keyPart = parts.pop()!;
  if (!keyPart) throw new KeySequenceError(`'${text}': missing key after '+'.`);
  const modifiers = new Set<Modifier>();
  for (const raw of parts) {
    const alias = MODIFIER_ALIASES[raw.toLowerCase()];
    if (!alias) throw new KeySequenceError(`'${text}': unknown modifier '${raw}'.`);
    modifiers.add(alias === 'mod' ? (platform === 'mac' ? 'meta' : 'ctrl') : alias);
  }
  let key = keyPart.length === 1 ? keyPart : keyPart.toLowerCase();
  key = KEY_ALIASES[key.toLowerCase()] ?? key;
  if (key.length === 1 && isLetter(key)) {
    if (key !== key.toLowerCase()) modifiers.add('shift');
    key = key.toLowerCase();
  } else if (key.length === 1 && key !== ' ') {
    modifiers.delete('shift');
  }
  if (MODIFIER_KEYS.has(key.toLowerCase())) throw new KeySequenceError(`'${text}': a modifier cannot be the key.`);
  return canonical(modifiers, key);
}

/** The canonical stroke of a key event, or null for modifier-only presses. */
export function strokeFromEvent(event: KeyEventLike): string | null {
  const raw = event.key;
  if (!raw || MODIFIER_KEYS.has(raw.toLowerCase())) return null;
  const modifiers = new Set<Modifier>();
  if (event.ctrlKey) modifiers.add('ctrl');
  if (event.altKey) modifiers.add('alt');
  if (event.metaKey) modifiers.add('meta');
  let key: string;
  if (raw.length === 1 && isLetter(raw)) {
    key = raw.toLowerCase();
    if (event.shiftKey || raw !== key) modifiers.add('shift');
  } else if (raw.length === 1) {
    key = raw;
    if (raw === ' ' && event.shiftKey) modifiers.add('shift');
  } else {
    key = raw.toLowerCase();
    if (event.shiftKey) modifiers.add('shift');
  }
  return canonical(modifiers, key);
}

/**
 * A stroke that types nothing — with Ctrl, Alt or Meta, or a function key (F1–F12, as VS Code's F1
 * opens its palette from inside an editor): safe to handle even while typing in a field.
 */
export function hasCommandModifier(stroke: string): boolean {
  return (
    stroke.startsWith('ctrl+') ||
    stroke.startsWith('alt+') ||
    stroke.includes('meta+') ||
    /(^|\+)f([1-9]|1[0-2])$/.test(stroke)
  );
}

const TEXT_INPUT_TYPES = new Set([
  '',
  'text',
  'search',
  'email',
  'password',
  'number',
  'tel',
  'url',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/** Whether keystrokes at this target are text entry (input, textarea, select, contenteditable, editor). */
export function isEditableTarget(target: KeyTargetInfo | undefined): boolean {
  if (!target) return false;
  if (target.isEditor || target.isContentEditable) return true;
  const tag = target.tagName?.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return TEXT_INPUT_TYPES.has((target.inputType ?? '').toLowerCase());
  return false;
}

/** Human label for the `?` modal: `ctrl+k` → `Ctrl+K`, `meta+k` → `⌘K` on macOS. */
export function formatStroke(stroke: string, platform: Platform = 'other'): string {
  const parts = splitStroke(stroke);
  const key = parts.pop()!;
  const keyLabel = key === ' ' ? 'Space' : key.length === 1 ? key.toUpperCase() : key[0]!.toUpperCase() + key.slice(1);
  if (platform === 'mac') {
    const symbols: Record<string, string> = { ctrl: '⌃', alt: '⌥', shift: '⇧', meta: '⌘' };
    return parts.map((p) => symbols[p] ?? p).join('') + keyLabel;
  }
  const names: Record<string, string> = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', meta: 'Meta' };
  return [...parts.map((p) => names[p] ?? p), keyLabel].join('+');
}

export function formatKeySequence(strokes: readonly string[], platform: Platform = 'other'): string {
  return strokes.map((s) => formatStroke(s, platform)).join(' then ');
}
