/**
 * JSON shapes stored in the lines schema and sent over the API, shared by the server and the web.
 */

/** Product settings (spec: renumberAt, terms, baseTerm). Terms are in months, e.g. [6, 12]. */
export interface ProductSettings {
  /** When the policy number is renumbered, e.g. 'renewal' | 'rewrite' | 'never'. */
  renumberAt?: string;
  /** Term lengths offered, in months. */
  terms?: number[];
  /** The term the rates are written for, in months (premiums of other terms are prorated from it). */
  baseTerm?: number;
}

/** An option of an enum field: a value with an optional label. */
export interface FieldOption {
  value: string;
  label?: string;
}

/** One key column of a rate table, in lookup order. */
export interface KeyColumn {
  name: string;
  label?: string;
  /** `exact` matches equal values; `range` matches `{ from, to }` with from ≤ value < to. */
  match: 'exact' | 'range';
}

export type KeyCellJson = string | number | boolean | { from: string | number | null; to: string | number | null };

/** A rate table row's key cells by column name. */
export type RateTableKeyCells = Record<string, KeyCellJson>;

/** An item on a risk state: its limit(s) and deductible(s). */
export interface RiskStateItem {
  name: string;
  limit?: string | number | null;
  deductible?: string | number | null;
  limits?: Record<string, string | number>;
  deductibles?: Record<string, string | number>;
}

/** A scenario risk's (or risk quote's) state: its type, the field answers and its items. */
export interface RiskStateJson {
  type?: { name: string };
  field_answers: Record<string, string | number | boolean | null>;
  items: RiskStateItem[];
}

export type InheritanceStatus = 'own' | 'overridden' | 'inherited';
export type VersionStatus = 'draft' | 'published' | 'retired';
