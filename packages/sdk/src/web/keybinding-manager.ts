import type { ContextService } from './context-service.js';
import type { KeyEventLike, KeybindingDefinition } from './keybinding.js';
import {
  hasCommandModifier,
  isEditableTarget,
  parseKeySequence,
  strokeFromEvent,
  type Platform,
} from './key-sequence.js';
import { compileWhen, whenClausesOverlap, type CompiledWhen } from './when-expression.js';

/**
 * Shortcut dispatch as pure logic: feed it key events, it answers whether it handled them and which
 * command it ran. Rules:
 * - chords (`g p`) and plain keys (`?`) never fire while focus is in text entry or an editor
 *   (editable target, or the `inputFocus`/`editorFocus` context keys); Ctrl/Alt/Meta strokes do;
 * - a key sequence that is a prefix of another (`g` vs `g p`) is refused at registration, because the
 *   shorter one would make the longer unreachable or fire by surprise;
 * - bindings with the same keys whose `when` clauses can both hold are conflicts, listed for `?`;
 *   at dispatch the latest registered enabled binding wins;
 * - a chord waits CHORD_TIMEOUT_MS for its second stroke, then resets.
 */

export const CHORD_TIMEOUT_MS = 1500;

export interface RegisteredKeybinding {
  readonly id: number;
  readonly key: string;
  readonly strokes: readonly string[];
  readonly command: string;
  readonly args: unknown;
  readonly when: CompiledWhen;
  readonly description: string | undefined;
  readonly source: string | undefined;
  /** The access module key of the registering plugin, if it has one. */
  readonly module: string | undefined;
}

export interface KeybindingConflict {
  /** Canonical sequence, e.g. `g p`. */
  sequence: string;
  bindings: RegisteredKeybinding[];
}

export class KeybindingError extends Error {
  constructor(
    message: string,
    readonly existing?: RegisteredKeybinding,
  ) {
    super(message);
    this.name = 'KeybindingError';
  }
}

export type KeyDispatchResult =
  | { handled: false }
  | { handled: true; kind: 'chord-pending'; prefix: string }
  | { handled: true; kind: 'command'; binding: RegisteredKeybinding };

export interface KeybindingManager {
  register(binding: KeybindingDefinition, options?: { source?: string; module?: string }): () => void;
  /** Feed a keydown. When `handled`, the caller should preventDefault. */
  handleKeyEvent(event: KeyEventLike): KeyDispatchResult;
  /** The first stroke of a chord in progress, for a status hint. */
  pendingChord(): string | null;
  cancelChord(): void;
  /** Every binding except those of hidden modules (what `?` lists). */
  list(): readonly RegisteredKeybinding[];
  conflicts(): KeybindingConflict[];
  /** Modules the effective role may not view: their bindings neither fire nor show in `?`. */
  setHiddenModules(modules: Iterable<string>): void;
  subscribe(listener: () => void): () => void;
  dispose(): void;
}

export interface KeybindingManagerOptions {
  context: ContextService;
  /** Runs the bound command; errors are reported through `onError`, never thrown from dispatch. */
  execute(command: string, args: unknown): unknown;
  onError?(error: unknown, binding: RegisteredKeybinding): void;
  /**
   * Whether a command exists; with it, a binding to an unknown command is refused at registration
   * (KeybindingError) rather than failing when pressed.
   */
  hasCommand?(command: string): boolean;
  platform?: Platform;
  chordTimeoutMs?: number;
}

export function createKeybindingManager(options: KeybindingManagerOptions): KeybindingManager {
  const { context, execute } = options;
  const platform = options.platform ?? 'other';
  const chordTimeoutMs = options.chordTimeoutMs ?? CHORD_TIMEOUT_MS;
  // Keyed by the whole sequence ('g p'); a sequence may have several bindings (different `when`).
  const bySequence = new Map<string, RegisteredKeybinding[]>();
  // First strokes of two-stroke chords → how many chords start with them.
  const chordPrefixes = new Map<string, number>();
  const listeners = new Set<() => void>();
  let nextId = 1;
  let pending: { stroke: string; timer: ReturnType<typeof setTimeout> } | null = null;
  let listCache: readonly RegisteredKeybinding[] | null = null;
  let hiddenModules: ReadonlySet<string> = new Set();
  const fires = (binding: RegisteredKeybinding) =>
    (binding.module === undefined || !hiddenModules.has(binding.module)) && binding.when.evaluate(context.lookup);

  const changed = () => {
    listCache = null;
    for (const listener of [...listeners]) listener();
  };
  const clearPending = (notify = true) => {
    if (!pending) return;
    clearTimeout(pending.timer);
    pending = null;
    if (notify) for (const listener of [...listeners]) listener();
  };

  const typing = (event: KeyEventLike) =>
    isEditableTarget(event.target) || Boolean(context.get('inputFocus')) || Boolean(context.get('editorFocus'));

  /** Latest registered binding for `sequence` whose `when` holds. */
  const pick = (sequence: string): RegisteredKeybinding | undefined => {
    const candidates = bySequence.get(sequence);
    if (!candidates) return undefined;
    for (let i = candidates.length - 1; i >= 0; i--) {
      if (fires(candidates[i]!)) return candidates[i];
    }
    return undefined;
  };

  const run = (binding: RegisteredKeybinding): KeyDispatchResult => {
    try {
      const result = execute(binding.command, binding.args);
      if (result instanceof Promise) result.catch((error: unknown) => options.onError?.(error, binding));
    } catch (error) {
      options.onError?.(error, binding);
    }
    return { handled: true, kind: 'command', binding };
  };

  const manager: KeybindingManager = {
    register(definition, registerOptions = {}) {
      const strokes = parseKeySequence(definition.key, platform);
      if (options.hasCommand && !options.hasCommand(definition.command)) {
        throw new KeybindingError(
          `Cannot bind '${definition.key}': command '${definition.command}' is not registered.`,
        );
      }
      const sequence = strokes.join(' ');
      if (strokes.length === 1) {
        if (chordPrefixes.has(sequence)) {
          const chord = [...bySequence.values()].flat().find((b) => b.strokes.length > 1 && b.strokes[0] === sequence);
          throw new KeybindingError(
            `Cannot bind '${definition.key}': it is the first key of the chord '${chord?.key ?? sequence}' (${chord?.command ?? '?'}).`,
            chord,
          );
        }
      } else {
        const single = bySequence.get(strokes[0]!)?.[0];
        if (single) {
          throw new KeybindingError(
            `Cannot bind '${definition.key}': its first key '${single.key}' is already bound to '${single.command}'.`,
            single,
          );
        }
      }
      const binding: RegisteredKeybinding = Object.freeze({
        id: nextId++,
        key: definition.key,
        strokes,
        command: definition.command,
        args: definition.args,
        when: compileWhen(definition.when),
        description: definition.description,
        source: registerOptions.source,
        module: registerOptions.module,
      });
      const list = bySequence.get(sequence) ?? [];
      list.push(binding);
      bySequence.set(sequence, list);
      if (strokes.length > 1) chordPrefixes.set(strokes[0]!, (chordPrefixes.get(strokes[0]!) ?? 0) + 1);
      changed();
      let disposed = false;
      return () => {
        if (disposed) return;
        disposed = true;
        const current = bySequence.get(sequence);
        const index = current?.indexOf(binding) ?? -1;
        if (!current || index < 0) return;
        current.splice(index, 1);
        if (current.length === 0) bySequence.delete(sequence);
        if (strokes.length > 1) {
          const count = (chordPrefixes.get(strokes[0]!) ?? 1) - 1;
          if (count <= 0) chordPrefixes.delete(strokes[0]!);
          else chordPrefixes.set(strokes[0]!, count);
        }
        changed();
      };
    },

    handleKeyEvent(event) {
      const stroke = strokeFromEvent(event);
      if (stroke === null) return { handled: false };
      const plainTyping = typing(event) && !hasCommandModifier(stroke);

      if (pending) {
        const first = pending.stroke;
        clearPending(false);
        if (!plainTyping) {
          const binding = pick(`${first} ${stroke}`);
          if (binding) {
            for (const listener of [...listeners]) listener();
            return run(binding);
          }
        }
        // The second stroke did not complete a chord: swallow it only if it was Escape (cancel).
        for (const listener of [...listeners]) listener();
        if (stroke === 'escape') return { handled: true, kind: 'chord-pending', prefix: '' };
      }

      if (plainTyping) return { handled: false };

      if (chordPrefixes.has(stroke)) {
        // Start a chord only if some chord under this prefix can fire now.
        let live = false;
        for (const [sequence, bindings] of bySequence) {
          if (!sequence.startsWith(`${stroke} `)) continue;
          if (bindings.some(fires)) {
            live = true;
            break;
          }
        }
        if (live) {
          pending = { stroke, timer: setTimeout(() => clearPending(), chordTimeoutMs) };
          for (const listener of [...listeners]) listener();
          return { handled: true, kind: 'chord-pending', prefix: stroke };
        }
        return { handled: false };
      }

      const binding = pick(stroke);
      return binding ? run(binding) : { handled: false };
    },

    pendingChord: () => pending?.stroke ?? null,
    cancelChord: () => clearPending(),

    list() {
      listCache ??= Object.freeze(
        [...bySequence.values()]
          .flat()
          .filter((b) => b.module === undefined || !hiddenModules.has(b.module))
          .sort((a, b) => a.id - b.id),
      );
      return listCache;
    },

    setHiddenModules(modules) {
      const next = new Set(modules);
      if (next.size === hiddenModules.size && [...next].every((m) => hiddenModules.has(m))) return;
      hiddenModules = next;
      changed();
    },

    conflicts() {
      const out: KeybindingConflict[] = [];
      for (const [sequence, bindings] of bySequence) {
        if (bindings.length < 2) continue;
        const involved = new Set<RegisteredKeybinding>();
        for (let i = 0; i < bindings.length; i++) {
          for (let j = i + 1; j < bindings.length; j++) {
            if (whenClausesOverlap(bindings[i]!.when, bindings[j]!.when)) {
              involved.add(bindings[i]!);
              involved.add(bindings[j]!);
            }
          }
        }
        if (involved.size > 0) out.push({ sequence, bindings: [...involved].sort((a, b) => a.id - b.id) });
      }
      return out;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    dispose() {
      clearPending(false);
      bySequence.clear();
      chordPrefixes.clear();
      listeners.clear();
    },
  };
  return manager;
}
