import type { RoundSpec } from '@atrium/rating';
import type { KeyCellJson, KeyColumn, RiskStateItem } from '../../shared/definition-types.js';

/**
 * A product version's definition written as plain data (demo products, tests). `writeDefinition`
 * stores it as rows of one version.
 */
export interface FieldSpec {
  name: string;
  label: string;
  type: 'date' | 'boolean' | 'string' | 'number' | 'enum' | 'computed';
  default?: string;
  defaultLabel?: string;
  source?: string;
  required?: boolean;
  format?: string;
  options?: string[];
  formula?: string;
  round?: RoundSpec;
}

export interface LimitSpec {
  kind: 'limit' | 'deductible';
  name?: string;
  label: string;
  default?: string;
  min?: string;
  max?: string;
  options?: string[];
}

export interface ItemSpec {
  name: string;
  label: string;
  presence?: 'required' | 'default' | 'optional';
  type?: 'coverage' | 'endorsement' | 'fee' | 'tax' | 'surcharge' | 'discount';
  fullyEarned?: boolean;
  premium?: string;
  limits?: LimitSpec[];
}

export interface CalculationSpec {
  name: string;
  label?: string;
  formula: string;
  item?: string;
  round?: RoundSpec;
}

export interface RiskTypeSpec {
  name: string;
  label: string;
  parent?: string;
  sequence?: number;
  premium?: string;
  fields?: FieldSpec[];
  items?: ItemSpec[];
  calculations?: CalculationSpec[];
}

export interface RateTableSpec {
  name: string;
  label: string;
  riskType?: string;
  keys: KeyColumn[];
  interpolate?: string;
  default?: string;
  rows: [Record<string, KeyCellJson>, string][];
}

export interface SequenceSpec {
  name: string;
  label: string;
  prefix?: string;
  padding?: number;
  start?: number;
}

/** A scenario risk: its type, answers, items and child risks. */
export interface RiskSpec {
  type: string;
  answers: Record<string, string | number | boolean | null>;
  items?: RiskStateItem[];
  children?: RiskSpec[];
}

export interface ScenarioSpec {
  name: string;
  transactionType: 'new_business' | 'renewal' | 'endorsement' | 'cancellation' | 'reinstatement' | 'rewrite';
  effectiveDate: string;
  termStart: string;
  termEnd: string;
  /** The known answer: the transaction premium (`RatingResult.premium`) the scenario must rate to. */
  expectedPremium?: string;
  risk: RiskSpec;
}

export interface DefinitionSpec {
  riskTypes: RiskTypeSpec[];
  rateTables?: RateTableSpec[];
  sequences?: SequenceSpec[];
  scenarios?: ScenarioSpec[];
}
