export type { BinaryOperator, Formula, Node, ReferenceKind } from './ast.js';
export {
  BUILTINS,
  checkProduct,
  compileProduct,
  type CompiledFormulaStep,
  type CompiledProduct,
  type CompiledRiskType,
} from './compile.js';
export {
  DEFAULT_PREMIUM_ROUNDING,
  Decimal,
  ROUNDING_MODES,
  roundDecimal,
  toDecimal,
  type RoundingMode,
  type RoundSpec,
} from './decimal.js';
export { diffWorksheets, type WorksheetDifference } from './diff.js';
export {
  EvaluationError,
  FormulaSyntaxError,
  ProductDefinitionError,
  RateTableLookupError,
  RatingError,
  type DefinitionProblem,
  type SourcePosition,
} from './errors.js';
export { parseFormula } from './parser.js';
export {
  MAX_RISK_DEPTH,
  type CalculationDefinition,
  type FieldDefinition,
  type FieldType,
  type ItemDefinition,
  type KeyCell,
  type ProductDefinition,
  type RangeCell,
  type RateTableDefinition,
  type RateTableKey,
  type RateTableRow,
  type RiskInput,
  type RiskItemInput,
  type RiskTypeDefinition,
  type Scalar,
} from './product.js';
export { CompiledRateTable, type KeyValue, type TableRead } from './rate-tables.js';
export {
  evaluateComputedFields,
  rate,
  type ComputedFieldsRisk,
  type RatingRequest,
  type RatingResult,
} from './rate.js';
export { applyTerm, TRANSACTION_TYPES, type TermInput, type TermResult, type TransactionType } from './term.js';
export type { Worksheet, WorksheetInput, WorksheetLine, WorksheetRisk } from './worksheet.js';
export { worksheetRisks } from './worksheet.js';
export { runKnownAnswerCases, type KnownAnswerCase, type KnownAnswerResult } from './known-answer.js';
export { formulaNames, type FormulaNames } from './names.js';
