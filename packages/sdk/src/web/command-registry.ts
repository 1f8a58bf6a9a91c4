import type { AnyCommandDefinition, CommandDefinition, HostServices } from './command.js';
import type { ContextService } from './context-service.js';
import { compileWhen, type CompiledWhen } from './when-expression.js';

/**
 * The one command registry. The palette, shortcuts, menus and quick-search results all end in
 * `executeCommand(id, args)`, so argument checks and `when` gates live in one place.
 * Sized for 10,000 commands: lookups are by Map, `when` clauses are compiled at registration, and
 * `list()` returns a cached array that only changes identity when the set changes.
 */

export type CommandErrorCode = 'not-found' | 'disabled' | 'invalid-args' | 'duplicate';

export class CommandError extends Error {
  constructor(
    readonly code: CommandErrorCode,
    readonly commandId: string,
    message: string,
    readonly issues: readonly { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export interface RegisteredCommand {
  readonly id: string;
  readonly title: string;
  readonly group: string | undefined;
  readonly keywords: readonly string[];
  readonly when: CompiledWhen;
  readonly hasArgs: boolean;
  /** Registering plugin, for the palette and the `?` modal. */
  readonly source: string | undefined;
  /** The access module key (`ui:<module>`) of the registering plugin, if it has one. */
  readonly module: string | undefined;
  readonly definition: AnyCommandDefinition;
}

export interface CommandRegistry {
  registerCommand<Args>(
    definition: CommandDefinition<Args>,
    options?: { source?: string; module?: string },
  ): () => void;
  /**
   * Registers many commands with one change notification (plugin activation, 10,000-command
   * benchmarks). All-or-nothing: a duplicate id registers none of them.
   */
  registerCommands(
    definitions: readonly AnyCommandDefinition[],
    options?: { source?: string; module?: string },
  ): () => void;
  executeCommand(id: string, args?: unknown): Promise<unknown>;
  has(id: string): boolean;
  get(id: string): RegisteredCommand | undefined;
  /** Whether `id` exists, its module is not hidden and its `when` holds now. */
  isEnabled(id: string): boolean;
  /**
   * Modules the effective role may not view (ViewModule refused): their commands leave the palette
   * and are refused like a false `when`, instead of leading to /forbidden.
   */
  setHiddenModules(modules: Iterable<string>): void;
  /** Every command in registration order; same array until the set changes. */
  list(): readonly RegisteredCommand[];
  /** Commands whose `when` holds now (what the palette shows). */
  listEnabled(): RegisteredCommand[];
  subscribe(listener: () => void): () => void;
}

export interface CommandRegistryOptions {
  context: ContextService;
  services: HostServices;
}

export function createCommandRegistry(options: CommandRegistryOptions): CommandRegistry {
  const { context, services } = options;
  const commands = new Map<string, RegisteredCommand>();
  const listeners = new Set<() => void>();
  let listCache: readonly RegisteredCommand[] | null = null;

  const changed = () => {
    listCache = null;
    for (const listener of [...listeners]) listener();
  };

  let hiddenModules: ReadonlySet<string> = new Set();
  const available = (entry: RegisteredCommand) =>
    (entry.module === undefined || !hiddenModules.has(entry.module)) && entry.when.evaluate(context.lookup);

  const toEntry = (
    definition: AnyCommandDefinition,
    source: string | undefined,
    module: string | undefined,
  ): RegisteredCommand => {
    if (!definition.id) throw new CommandError('duplicate', '', 'A command needs an id.');
    if (commands.has(definition.id)) {
      throw new CommandError('duplicate', definition.id, `Command '${definition.id}' is already registered.`);
    }
    return Object.freeze({
      id: definition.id,
      title: definition.title,
      group: definition.group,
      keywords: definition.keywords ?? [],
      when: compileWhen(definition.when),
      hasArgs: definition.args !== undefined,
      source,
      module,
      definition,
    });
  };

  const disposerFor = (entries: readonly RegisteredCommand[]) => {
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      let any = false;
      for (const entry of entries) {
        // Only remove our own entry: a later registration under the same id must survive.
        if (commands.get(entry.id) !== entry) continue;
        commands.delete(entry.id);
        any = true;
      }
      if (any) changed();
    };
  };

  const registry: CommandRegistry = {
    registerCommand(definition, registerOptions = {}) {
      const entry = toEntry(definition as AnyCommandDefinition, registerOptions.source, registerOptions.module);
      commands.set(entry.id, entry);
      changed();
      return disposerFor([entry]);
    },

    registerCommands(definitions, registerOptions = {}) {
      const entries: RegisteredCommand[] = [];
      const batch = new Set<string>();
      for (const definition of definitions) {
        if (batch.has(definition.id)) {
          throw new CommandError('duplicate', definition.id, `Command '${definition.id}' is registered twice.`);
        }
        batch.add(definition.id);
        entries.push(toEntry(definition, registerOptions.source, registerOptions.module));
      }
      for (const entry of entries) commands.set(entry.id, entry);
      if (entries.length > 0) changed();
      return disposerFor(entries);
    },

    async executeCommand(id, args) {
      const entry = commands.get(id);
      if (!entry) throw new CommandError('not-found', id, `Command '${id}' is not registered.`);
      if (entry.module !== undefined && hiddenModules.has(entry.module)) {
        throw new CommandError('disabled', id, `Command '${id}' belongs to a module you may not view.`);
      }
      if (!entry.when.evaluate(context.lookup)) {
        throw new CommandError('disabled', id, `Command '${id}' is not available here (${entry.when.source}).`);
      }
      let checked: unknown = undefined;
      const declared = entry.definition.args;
      const schema = typeof declared === 'function' ? await declared() : declared;
      if (schema) {
        const result = schema.safeParse(args);
        if (!result.success) {
          const issues = result.error.issues.map((issue) => ({
            path: issue.path.map(String).join('.'),
            message: issue.message,
          }));
          throw new CommandError(
            'invalid-args',
            id,
            `Invalid arguments for '${id}': ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
            issues,
          );
        }
        checked = result.data;
      } else if (args !== undefined) {
        throw new CommandError('invalid-args', id, `Command '${id}' takes no arguments.`);
      }
      const run = entry.definition.run as (args: unknown, ctx: Parameters<AnyCommandDefinition['run']>[1]) => unknown;
      return await run(checked, { services, context: context.snapshot() });
    },

    has: (id) => commands.has(id),
    get: (id) => commands.get(id),
    isEnabled(id) {
      const entry = commands.get(id);
      return entry !== undefined && available(entry);
    },
    setHiddenModules(modules) {
      const next = new Set(modules);
      if (next.size === hiddenModules.size && [...next].every((m) => hiddenModules.has(m))) return;
      hiddenModules = next;
      changed();
    },
    list() {
      listCache ??= Object.freeze([...commands.values()]);
      return listCache;
    },
    listEnabled() {
      const out: RegisteredCommand[] = [];
      for (const entry of registry.list()) if (available(entry)) out.push(entry);
      return out;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  return registry;
}
