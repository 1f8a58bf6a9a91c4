import type { RoundSpec } from './decimal.js';
import type { TableRead } from './rate-tables.js';
import type { TermResult } from './term.js';

/** Something a formula read. Values are exact decimal text (or the text/boolean answer). */
export interface WorksheetInput {
  kind: 'field' | 'ancestor_field' | 'calculation' | 'limit' | 'deductible' | 'item' | 'children';
  /** Field or calculation name; `item` or `item.name` for limits and deductibles; `type.calc` for children. */
  name: string;
  value: string;
}

/** One calculation (or computed field) of one risk, explained. */
export interface WorksheetLine {
  name: string;
  formula: string;
  item?: string;
  /** Set when the calculation belongs to an item the risk does not have; its value is then 0. */
  skipped?: 'item_absent';
  inputs: WorksheetInput[];
  tables: TableRead[];
  /** The formula's exact result before the calculation's rounding step. */
  unrounded: string;
  /** The value other formulas see: `unrounded` after the rounding step (if any). */
  value: string;
  round?: RoundSpec;
}

export interface WorksheetRisk {
  id?: string;
  type: string;
  /** `type` or `type#id` segments from the root, joined by `/`; `type[i]` when a risk has no id. */
  path: string;
  computedFields: WorksheetLine[];
  calculations: WorksheetLine[];
  /** The value of the risk type's premium calculation, when it has one. */
  premium: string | null;
  children: WorksheetRisk[];
}

export interface Worksheet {
  product: string;
  version?: string;
  term: TermResult;
  root: WorksheetRisk;
}

/** Visits every risk of a worksheet, parents before children. */
export function* worksheetRisks(risk: WorksheetRisk): Generator<WorksheetRisk> {
  yield risk;
  for (const child of risk.children) yield* worksheetRisks(child);
}
