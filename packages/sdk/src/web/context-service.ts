import {
  DEFAULT_HOST_CONTEXT,
  HOST_CONTEXT_KEYS,
  type ContextSnapshot,
  type ContextValue,
  type HostContextKeys,
} from './context-keys.js';
import { compileWhen, type CompiledWhen } from './when-expression.js';

/**
 * The `when` context: a flat key → value map. The host owns `route`, `role`, `modalOpen`,
 * `editorFocus`, `inputFocus`; a plugin writes only under its own `<pluginId>.` prefix (through
 * `forPlugin`), so two plugins can never flip each other's keys.
 */
export interface ContextService {
  get(key: string): ContextValue;
  /** Host keys only. */
  setHost<K extends keyof HostContextKeys>(key: K, value: HostContextKeys[K]): void;
  setHostMany(values: Partial<HostContextKeys>): void;
  /** A writer confined to `<pluginId>.*`; `set('hasDraft', true)` sets `claims.hasDraft`. */
  forPlugin(pluginId: string): PluginContextWriter;
  /** Immutable copy; a new object after every change (usable as a React external-store snapshot). */
  snapshot(): ContextSnapshot;
  /** Evaluates an expression (text or compiled) against the current values. */
  evaluate(when: string | CompiledWhen | undefined): boolean;
  /** Bound lookup for compiled clauses; stable identity. */
  readonly lookup: (key: string) => ContextValue;
  subscribe(listener: () => void): () => void;
}

export interface PluginContextWriter {
  set(key: string, value: ContextValue): void;
  /** Removes every key this plugin set (on plugin disposal). */
  clear(): void;
}

const HOST_KEYS: ReadonlySet<string> = new Set(HOST_CONTEXT_KEYS);

export function createContextService(initial: Partial<HostContextKeys> = {}): ContextService {
  const values = new Map<string, ContextValue>(Object.entries({ ...DEFAULT_HOST_CONTEXT, ...initial }));
  const listeners = new Set<() => void>();
  let snapshot: ContextSnapshot | null = null;

  const changed = () => {
    snapshot = null;
    for (const listener of [...listeners]) listener();
  };
  const write = (key: string, value: ContextValue): boolean => {
    if (values.get(key) === value && values.has(key)) return false;
    if (value === undefined) values.delete(key);
    else values.set(key, value);
    return true;
  };
  const lookup = (key: string) => values.get(key);

  return {
    get: lookup,
    lookup,
    setHost(key, value) {
      if (!HOST_KEYS.has(key)) throw new Error(`'${String(key)}' is not a host context key.`);
      if (write(key, value)) changed();
    },
    setHostMany(next) {
      let any = false;
      for (const [key, value] of Object.entries(next)) {
        if (!HOST_KEYS.has(key)) throw new Error(`'${key}' is not a host context key.`);
        any = write(key, value as ContextValue) || any;
      }
      if (any) changed();
    },
    forPlugin(pluginId) {
      if (!pluginId || pluginId.includes('.')) throw new Error(`Invalid plugin id '${pluginId}' for context keys.`);
      const prefix = `${pluginId}.`;
      return {
        set(key, value) {
          if (!key || key.startsWith(prefix)) {
            throw new Error(`Plugin context key '${key}' must be given without the '${prefix}' prefix.`);
          }
          if (write(prefix + key, value)) changed();
        },
        clear() {
          let any = false;
          for (const key of [...values.keys()]) {
            if (key.startsWith(prefix)) any = write(key, undefined) || any;
          }
          if (any) changed();
        },
      };
    },
    snapshot() {
      snapshot ??= Object.freeze(Object.fromEntries(values));
      return snapshot;
    },
    evaluate(when) {
      const compiled = typeof when === 'object' ? when : compileWhen(when);
      return compiled.evaluate(lookup);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
