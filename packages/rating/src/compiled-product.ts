import type { Formula } from './ast.js';
import type { RoundSpec } from './decimal.js';
import type { FieldDefinition, ItemDefinition, ProductDefinition, RiskTypeDefinition } from './product.js';
import type { CompiledRateTable } from './rate-tables.js';

export interface CompiledFormulaStep {
  name: string;
  formula: Formula;
  round?: RoundSpec;
  /** For calculations: the item the calculation belongs to. */
  item?: string;
  /** Names (of the same risk type) this step reads: calculations for calculations, fields for computed fields. */
  dependsOn: string[];
}

export interface CompiledRiskType {
  name: string;
  definition: RiskTypeDefinition;
  parent: string | null;
  depth: number;
  fields: Map<string, FieldDefinition>;
  items: Map<string, ItemDefinition>;
  /** Computed fields in evaluation order. */
  computedFields: CompiledFormulaStep[];
  /** Calculations in evaluation order (declared order, moved only where a dependency requires). */
  calculations: CompiledFormulaStep[];
  premium: string;
  /** Field names of every ancestor risk type, readable from this type's formulas. */
  ancestorFields: Set<string>;
  childTypes: string[];
}

/** A product compiled for rating: formulas parsed, references bound, order fixed, tables indexed. */
export interface CompiledProduct {
  definition: ProductDefinition;
  name: string;
  version?: string;
  rootRiskType: string;
  riskTypes: Map<string, CompiledRiskType>;
  tables: Map<string, CompiledRateTable>;
  premiumRounding: Required<RoundSpec>;
}
