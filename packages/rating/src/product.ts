import type { RoundSpec } from './decimal.js';

/** A scalar in a definition or an answer. Numbers may be given as numbers or numeric strings. */
export type Scalar = number | string | boolean;

export type FieldType = 'date' | 'boolean' | 'string' | 'number' | 'enum' | 'computed';

export interface FieldDefinition {
  name: string;
  type: FieldType;
  /** Used when the risk has no answer for the field. */
  default?: Scalar;
  /** Formula of a computed field; computed fields are evaluated over the answers before calculations. */
  formula?: string;
  /** Optional rounding of a computed field's result. */
  round?: RoundSpec;
  options?: string[];
}

export interface ItemDefinition {
  name: string;
  /** Fully earned items are never prorated (see docs/rating.md, "Term and pro-rata"). */
  fullyEarned?: boolean;
  /** The calculation (of the same risk type) that gives this item's term premium. */
  premium?: string;
}

export interface CalculationDefinition {
  name: string;
  formula: string;
  /** Position in the product's order; calculations are listed in this order (ties: listing order). */
  order?: number;
  /** A calculation of an item runs only when the risk has the item; otherwise its value is 0. */
  item?: string;
  /** Rounding step applied to this calculation's result. */
  round?: RoundSpec;
}

export interface RiskTypeDefinition {
  name: string;
  /** Name of the parent risk type; none for a root. */
  parent?: string;
  fields?: FieldDefinition[];
  items?: ItemDefinition[];
  calculations: CalculationDefinition[];
  /** The calculation that gives the risk's term premium; defaults to `premium`. */
  premium?: string;
}

/**
 * One key column of a rate table. `exact` keys match by equal value (numbers by numeric value,
 * text by its text). `range` keys match a row's `{ from, to }` with from ≤ value < to; either end
 * may be null (open).
 */
export interface RateTableKey {
  name: string;
  match?: 'exact' | 'range';
}

export interface RangeCell {
  from: number | string | null;
  to: number | string | null;
}

export type KeyCell = Scalar | RangeCell;

export interface RateTableRow {
  keys: Record<string, KeyCell>;
  value: number | string;
}

export interface RateTableDefinition {
  name: string;
  keys: RateTableKey[];
  rows: RateTableRow[];
  /**
   * A numeric exact key column to interpolate on: a lookup falling between two rows (that agree on
   * every other key) takes the straight line between their values; outside the first/last row it
   * takes the nearest row.
   */
  interpolate?: string;
  /** The value when no row matches; without it a missing row is an error naming table and keys. */
  default?: number | string;
}

export interface ProductDefinition {
  name: string;
  version?: string;
  /** The root risk type (a risk tree is rated from it). */
  rootRiskType: string;
  riskTypes: RiskTypeDefinition[];
  rateTables?: RateTableDefinition[];
  /** Rounding of the final term and pro-rata premiums; 2 places half-up when not given. */
  premiumRounding?: RoundSpec;
}

/** Maximum nesting of risks (a root and six levels of children). */
export const MAX_RISK_DEPTH = 7;

export interface RiskItemInput {
  name: string;
  limit?: number | string;
  deductible?: number | string;
  /** Named limits/deductibles, read with `limit('item', 'name')` / `deductible('item', 'name')`. */
  limits?: Record<string, number | string>;
  deductibles?: Record<string, number | string>;
  /** Overrides the item definition's fullyEarned for this risk. */
  fullyEarned?: boolean;
}

/** One risk to rate: its type, answers, items and child risks. */
export interface RiskInput {
  id?: string;
  type: string;
  answers?: Record<string, Scalar | null | undefined>;
  items?: RiskItemInput[];
  children?: RiskInput[];
}
