import { createSlotRef } from './slot-ref.js';

/**
 * The slots screens offer to plugins, with their context types. They live in the SDK because the
 * screen that owns a slot and the modules that fill it (first-party, or the third-party plugin
 * runtime) must agree on the contract without importing each other.
 */

/** A risk as a plugin sees it and patches it (RFC 6902 paths such as `/field_answers/roof_type`). */
export interface RiskDocument {
  field_answers: Record<string, unknown>;
}

/**
 * A change made for a third-party plugin: the screen marks its calls with the plugin's record id (the
 * `X-Atrium-Plugin` header) so the server audits it with the plugin and the JSON Patch it sent.
 */
export interface ActingPluginChange {
  pluginId: string;
  /** The RFC 6902 patch the plugin sent. */
  patch: readonly object[];
}

/** `quote:risk-edit:button-row`: a row of plugin buttons under one risk's fields on a quote page. */
export interface RiskEditButtonRowContext {
  quoteNumber: string;
  riskId: number;
  /** The risk type's name, e.g. `dwelling`. */
  riskType: string;
  /** The fields this risk type has: a patch may only change these. */
  fields: readonly string[];
  /** The risk as saved plus the user's unsaved answers. */
  risk: RiskDocument;
  /** True when the quote or risk is locked; updates are refused. */
  readOnly: boolean;
  /**
   * Saves changed answers through the screen's own save path (same request, permission and
   * validation as the user's edit). Rejects with the server's error.
   */
  updateRisk(fieldAnswers: Record<string, unknown>, plugin?: ActingPluginChange): Promise<void>;
  /** The risk types that go under this risk (what `createRisk` may create), with their fields. */
  childRiskTypes: readonly { name: string; label: string; fields: readonly string[] }[];
  /**
   * Adds a risk of a child type under this risk and saves its answers through the screen's own
   * calls (same permission and validation as the user's add and edit); a risk whose answers are
   * refused is removed again. Resolves to the new risk's id; rejects with the server's error.
   */
  createRisk(riskType: string, fieldAnswers: Record<string, unknown>, plugin?: ActingPluginChange): Promise<number>;
}

export const riskEditButtonRowSlot = createSlotRef<RiskEditButtonRowContext>('quote:risk-edit:button-row');
