import type { ZodType } from 'zod';
import type { ApiClient } from './api-client.js';
import type { ContextSnapshot } from './context-keys.js';
import type { AccessEvaluator } from './use-can.js';

/**
 * What the host lends a command while it runs, and a plugin's components through
 * `useHostServices()`. Commands navigate by path (from a RouteRef's `link`), open a quick search or
 * one of the shell's overlays, show a toast, or call the API with the user's token and role. The host
 * may add members by declaration merging (`declare module '@atrium/sdk' { interface HostServices { ... } }`).
 */
export interface HostServices {
  navigate(to: string): void;
  openQuickSearch(providerId: string): void;
  showToast(toast: ToastRequest): void;
  /** Opens the quick search of the last registered provider whose `type` matches ('Policy', 'Claim', 'Contact'). */
  openQuickSearchForType(type: string): void;
  openCommandPalette(): void;
  openShortcuts(): void;
  openHelp(): void;
  /**
   * The API client with the user's bearer token and effective-role header; a 401 signs the user
   * out, a 403 goes to /forbidden (or role selection when no effective role was accepted).
   */
  api: ApiClient;
  /**
   * The host's access client: ViewModule and other questions for the effective role, batched into
   * one POST /api/access/evaluations and cached per role. Read it through `useCan`.
   */
  access?: AccessEvaluator;
}

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ToastRequest {
  message: string;
  kind?: ToastKind;
  /** Milliseconds; see TOAST_DURATIONS for the spec's values. */
  duration?: number;
  title?: string;
}

export interface CommandRunContext {
  services: HostServices;
  /** The `when` context at the moment of execution. */
  context: ContextSnapshot;
}

export interface CommandDefinition<Args = void> {
  /** Namespaced `<pluginId>.<name>`, e.g. `claims.openClaim`. */
  id: string;
  title: string;
  /** Palette group heading, e.g. 'Navigation', 'Claims'. */
  group?: string;
  keywords?: readonly string[];
  /** A `when` expression (see when-expression.ts); the command is hidden and refuses to run when false. */
  when?: string;
  /**
   * Checks `args` at the boundary; without it the command takes no arguments. Either the schema or
   * a loader of it: manifests load with the first page, so a module keeps zod out of the initial
   * JavaScript (P3) with `args: () => import('./command-args.js').then((m) => m.openClaimArgs)`,
   * loaded the first time the command runs.
   */
  args?: ZodType<Args> | (() => Promise<ZodType<Args>>);
  run(args: Args, ctx: CommandRunContext): unknown;
}

/** A command of any argument type, as manifests and the registry hold them. */
// `run` is declared with method syntax, so CommandDefinition<X> is assignable to this for any X.
export type AnyCommandDefinition = CommandDefinition<never> | CommandDefinition<any>;

/** Helper that keeps the args type inferred from the schema. */
export function defineCommand<Args = void>(definition: CommandDefinition<Args>): CommandDefinition<Args> {
  return definition;
}
