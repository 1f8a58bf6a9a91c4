/**
 * Types of `@atrium/plugin-client` (the global `AtriumPlugin`), bridge protocol version 1.
 * Slot contexts, by slot name; the host's SDK declares the same shapes (`RiskEditButtonRowContext`).
 */
export interface RiskEditButtonRowContext {
  quoteNumber: string;
  riskId: number;
  /** The risk type's name, e.g. `home`. */
  riskType: string;
  /** The fields a patch may change. */
  fields: string[];
  /** Every field, unanswered ones as null: patch paths are `/field_answers/<field>`. */
  risk: { field_answers: Record<string, string | number | boolean | null> };
  readOnly: boolean;
  /** The risk types that go under this risk: what `createAndUpdateRisk` may create. */
  childRiskTypes: { name: string; label: string; fields: string[] }[];
}

export interface SlotContexts {
  'quote:risk-edit:button-row': RiskEditButtonRowContext;
  /** The command palette: the plugin runs in a frame of its own, with no context. */
  'atrium:palette': null;
}

/** A palette result: plain text, and a route to open or an event (`onCommand`) to send back. */
export type PaletteResult = { id: string; title: string; subtitle?: string } & (
  | {
      route: {
        name: string;
        params?: Record<string, string | number>;
        query?: Record<string, string | number | boolean>;
      };
    }
  | { event: string }
);

export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

export interface PluginButton {
  /** Up to 64 characters; what `onButton` receives. */
  id: string;
  /** Up to 40 characters, shown as the button's label. */
  text: string;
}

export interface ConnectedPlugin<S extends keyof SlotContexts = 'quote:risk-edit:button-row'> {
  slot: S;
  context: SlotContexts[S];
  /** The JSON object an administrator configured for this plugin. */
  configuration: Record<string, unknown>;
  /** At most five buttons. */
  setButtons(buttons: PluginButton[]): void;
  /** Applies an RFC 6902 patch to `context.risk` and saves it as the user; rejects with the reason. */
  updateRisk(patch: JsonPatchOperation[]): Promise<void>;
  /**
   * Creates risks of child types under `context.risk`, each with its patch applied to an empty risk;
   * resolves to their ids. Nothing is created if any entry is refused.
   */
  createAndUpdateRisk(risks: { riskType: string; patch: JsonPatchOperation[] }[]): Promise<{ riskIds: number[] }>;
  /** Navigates the host by a route's spec name and params. Needs the `navigate` capability. */
  navigate(
    route: string,
    params?: Record<string, string | number>,
    query?: Record<string, string | number | boolean>,
  ): Promise<void>;
  /**
   * An API request (path relative to `/api`, under /quote/, /lines/, /policies/, /claims/ or
   * /contacts/) that the host performs as the signed-in user; the token never reaches the plugin.
   * Needs `api-read` (GET) or `api-write`. Resolves to the answer's status and JSON body.
   */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options?: { query?: Record<string, string | number | boolean>; body?: object },
  ): Promise<{ status: number; body: unknown }>;
  /** At most three toasts per ten seconds are shown. Needs the `toast` capability. */
  toast(message: string, kind?: 'info' | 'success' | 'error'): void;
}

/** What a record may grant; a call the record does not grant is refused and does nothing. */
export type PluginCapability =
  'read-context' | 'update-risk' | 'create-and-update-risk' | 'toast' | 'navigate' | 'api-read' | 'api-write';

export interface ConnectOptions<S extends keyof SlotContexts = 'quote:risk-edit:button-row'> {
  buttons?: PluginButton[];
  onButton?(id: string, plugin: ConnectedPlugin<S>): void;
  onContext?(context: SlotContexts[S], plugin: ConnectedPlugin<S>): void;
  /** The palette ran one of the record's event commands, or the user chose a result with `event`. */
  onCommand?(id: string, plugin: ConnectedPlugin<S>): void;
  /**
   * The palette's search (when the record has `palette_search`): answer at most 20 results within
   * 1.5 s; the host shows five, under the plugin's name. Late or malformed answers show nothing.
   */
  onSearch?(query: string, plugin: ConnectedPlugin<S>): PaletteResult[] | Promise<PaletteResult[]>;
  /** A message without a reply (a toast) was refused; by default the reason goes to the console. */
  onRefused?(error: string, request: string, plugin: ConnectedPlugin<S>): void;
  /** How long to wait for the host (default 10 s). */
  timeoutMs?: number;
}

export interface AtriumPluginClient {
  version: 1;
  connect<S extends keyof SlotContexts = 'quote:risk-edit:button-row'>(
    options?: ConnectOptions<S>,
  ): Promise<ConnectedPlugin<S>>;
}

declare global {
  var AtriumPlugin: AtriumPluginClient;
}
