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
}

export interface SlotContexts {
  'quote:risk-edit:button-row': RiskEditButtonRowContext;
}

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
  /** At most three toasts per ten seconds are shown. */
  toast(message: string, kind?: 'info' | 'success' | 'error'): void;
}

export interface ConnectOptions<S extends keyof SlotContexts = 'quote:risk-edit:button-row'> {
  buttons?: PluginButton[];
  onButton?(id: string, plugin: ConnectedPlugin<S>): void;
  onContext?(context: SlotContexts[S], plugin: ConnectedPlugin<S>): void;
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
