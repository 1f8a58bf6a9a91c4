/**
 * The rules language (docs/rules.md): rule components as a typed JSON tree with a text form (BRL),
 * expressions in the formula language of @atrium/rating, a type check against a product version's
 * ontology, templates, and the one interpreter. Pure TypeScript: runs in Node and the browser.
 */
export * from './tree.js';
export { parseExpr, printExpr, walkExpr } from './expr.js';
export { BrlSyntaxError, parseBrl, printAction, printBrl, printCondition, tryParseBrl } from './brl.js';
export { checkComponent } from './check.js';
export { RULE_FUNCTIONS, type FunctionSpec } from './functions.js';
export {
  fieldOf,
  lineage,
  ontologyFromDefinition,
  type Ontology,
  type OntologyField,
  type OntologyRiskType,
} from './ontology.js';
export { instantiateTemplate, templateArguments, TemplateError } from './template.js';
export {
  compileBundle,
  defaultElement,
  runRules,
  valueEquals,
  type ElementState,
  type FormInclusion,
  type PolicyContext,
  type TransactionKind,
  TRANSACTION_KINDS,
  type RiskItemModel,
  type RiskModel,
  type RuleBundle,
  type RuleRunContext,
  type RuleRunError,
  type RuleUser,
  type RunOptions,
  type RunResult,
  type UnderwritingIssue,
  type Value,
} from './interpret.js';
export { runRuleTest, type RuleTestCase, type RuleTestDifference, type RuleTestResult } from './tests.js';
export { brlToFormula, conditionsToExpr, formulaToBrl } from './formula.js';
