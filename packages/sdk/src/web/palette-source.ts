import type { ApiClient } from './api-client.js';
import type { HostServices } from './command.js';
import type { AnyRouteRef } from './route-ref.js';

/**
 * Palette entries known only at run time (docs/palette.md "Contributed at run time"): a module
 * declares a `PaletteSource` in its manifest; each time the palette opens the host asks it for
 * contributions, each listed under its own heading. The third-party plugin runtime uses it to list
 * every enabled plugin's commands and results under the plugin's name.
 *
 * Contributions are data the host renders (plain text, never HTML). The host keeps the palette fast
 * whatever a source does: `load` and each `search` have a time limit, a late or failed answer
 * contributes nothing, and no source holds back another.
 */

/** How long the palette waits for a source's `load` (ms); a later answer is ignored. */
export const PALETTE_SOURCE_LOAD_MS = 2000;
/** How long the palette waits for one contribution's `search` answer (ms); a later one is dropped. */
export const PALETTE_SEARCH_LIMIT_MS = 1500;
/** Results kept per contribution. */
export const PALETTE_CONTRIBUTED_RESULTS = 5;

export interface PaletteSourceContext {
  /** The palette's API client: the user's token and role; a 403 rejects instead of redirecting. */
  api: ApiClient;
  services: HostServices;
  /** A route by its spec name, to build links from (`quote:page`). */
  routeByName(name: string): AnyRouteRef | undefined;
  /** Aborted when the palette closes. */
  signal: AbortSignal;
}

export interface ContributedCommand {
  /** Unique inside its contribution. */
  id: string;
  title: string;
  /** Shown beside the title as a hint; the host binds no key for it. */
  shortcut?: string;
  keywords?: readonly string[];
  /** Runs after the palette closes; a rejection is shown as an error toast. */
  run(): unknown;
}

export interface ContributedResult {
  /** Unique inside its contribution's answer. */
  id: string;
  title: string;
  subtitle?: string;
  /** Runs after the palette closes (the result is not filed under Recent). */
  run(): unknown;
}

export interface PaletteContribution {
  /** Unique inside its source. */
  id: string;
  /** The group heading its commands and results are listed under. */
  heading: string;
  commands: readonly ContributedCommand[];
  /** Answers the typed text; called after the palette's typing pause, aborted when the text changes. */
  search?(query: { query: string; signal: AbortSignal }): Promise<readonly ContributedResult[]>;
}

export interface PaletteSource {
  /** Unique across plugins. */
  id: string;
  load(context: PaletteSourceContext): Promise<readonly PaletteContribution[]>;
}

export function definePaletteSource(source: PaletteSource): PaletteSource {
  return source;
}
