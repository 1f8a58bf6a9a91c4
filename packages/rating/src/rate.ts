import type { CompiledFormulaStep, CompiledProduct, CompiledRiskType } from './compiled-product.js';
import { Decimal, decimalText, isNumericString, roundDecimal, toDecimal } from './decimal.js';
import { EvaluationError, RatingError } from './errors.js';
import { Evaluator, Recorder, valueText, type RiskScope, type Value } from './evaluate.js';
import { MAX_RISK_DEPTH, type FieldDefinition, type RiskInput, type Scalar } from './product.js';
import { applyTerm, type TermInput, type TermResult } from './term.js';
import type { Worksheet, WorksheetLine, WorksheetRisk } from './worksheet.js';

export interface RatingRequest extends TermInput {
  /** The root risk of the tree to rate. */
  risk: RiskInput;
}

export interface RatingResult {
  product: string;
  version?: string;
  /** The premium of this transaction (= term.proRataPremium). */
  premium: string;
  termPremium: string;
  fullyEarnedPremium: string;
  term: TermResult;
  worksheet: Worksheet;
}

const ZERO = new Decimal(0);

/** Normalizes one answer by the field's type: numbers to Decimal, booleans to booleans, else text. */
export function normalizeAnswer(field: FieldDefinition | undefined, raw: Scalar | null | undefined): Value | undefined {
  const value = raw === null || raw === undefined || raw === '' ? field?.default : raw;
  if (value === undefined || value === null) return undefined;
  switch (field?.type) {
    case 'number':
      if (typeof value === 'number') return toDecimal(value);
      if (typeof value === 'string' && isNumericString(value)) return toDecimal(value.trim());
      throw new RatingError('invalid_answer', `Field '${field.name}' needs a number, got ${JSON.stringify(value)}`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new RatingError(
        'invalid_answer',
        `Field '${field.name}' needs true or false, got ${JSON.stringify(value)}`,
      );
    default:
      return typeof value === 'number' ? toDecimal(value) : value;
  }
}

interface RatedRisk {
  scope: RiskScope;
  sheet: WorksheetRisk;
  fullyEarned: Decimal;
}

/** Builds the scopes of a risk tree: answers normalized, depth and types checked. */
function buildScope(
  product: CompiledProduct,
  input: RiskInput,
  parent: RiskScope | null,
  path: string,
  depth: number,
  expectedType: string | null,
): { scope: RiskScope; type: CompiledRiskType } {
  if (depth > MAX_RISK_DEPTH) {
    throw new RatingError('risk_tree_too_deep', `Risk ${path} is nested deeper than ${MAX_RISK_DEPTH} levels`);
  }
  const type = product.riskTypes.get(input.type);
  if (!type) throw new RatingError('unknown_risk_type', `Risk ${path} has unknown type '${input.type}'`);
  if (expectedType && type.name !== expectedType) {
    throw new RatingError('unknown_risk_type', `Risk ${path} should be a '${expectedType}', not '${input.type}'`);
  }
  if (parent && type.parent !== parent.type) {
    throw new RatingError('unknown_risk_type', `Risk ${path}: '${type.name}' is not a child type of '${parent.type}'`);
  }
  const fields = new Map<string, Value | undefined>();
  for (const field of type.fields.values()) {
    if (field.formula !== undefined) continue;
    fields.set(field.name, normalizeAnswer(field, input.answers?.[field.name]));
  }
  const scope: RiskScope = {
    path,
    type: type.name,
    fields,
    calculations: new Map(),
    items: new Map((input.items ?? []).map((i) => [i.name, i])),
    parent,
    children: [],
  };
  for (const item of scope.items.keys()) {
    if (!type.items.has(item)) throw new RatingError('unknown_item', `Risk ${path} has unknown item '${item}'`);
  }
  return { scope, type };
}

function childPath(parentPath: string, child: RiskInput, index: number): string {
  return `${parentPath}/${child.id !== undefined ? `${child.type}#${child.id}` : `${child.type}[${index}]`}`;
}

function runStep(
  product: CompiledProduct,
  scope: RiskScope,
  step: CompiledFormulaStep,
): { line: WorksheetLine; value: Value } {
  const recorder = new Recorder();
  const evaluator = new Evaluator(product.tables, scope, recorder, step.name);
  let raw: Value;
  try {
    raw = evaluator.eval(step.formula.ast);
  } catch (error) {
    if (error instanceof RatingError) throw error;
    throw new EvaluationError(`${scope.path} › ${step.name}: ${(error as Error).message}`, scope.path, step.name);
  }
  let value = raw;
  if (step.round && raw instanceof Decimal) value = roundDecimal(raw, step.round);
  const line: WorksheetLine = {
    name: step.name,
    formula: step.formula.source,
    ...(step.item !== undefined ? { item: step.item } : {}),
    inputs: [...recorder.inputs.values()],
    tables: recorder.tables,
    unrounded: valueText(raw),
    value: step.round && value instanceof Decimal ? value.toFixed(step.round.places) : valueText(value),
    ...(step.round ? { round: step.round } : {}),
  };
  return { line, value };
}

/** Evaluates the computed fields of one risk (they read answers, other computed fields and tables). */
function runComputedFields(product: CompiledProduct, scope: RiskScope, type: CompiledRiskType): WorksheetLine[] {
  return type.computedFields.map((step) => {
    const { line, value } = runStep(product, scope, step);
    scope.fields.set(step.name, value);
    return line;
  });
}

function rateRisk(
  product: CompiledProduct,
  input: RiskInput,
  parent: RiskScope | null,
  path: string,
  depth: number,
  expectedType: string | null,
): RatedRisk {
  const { scope, type } = buildScope(product, input, parent, path, depth, expectedType);
  const computedFields = runComputedFields(product, scope, type);
  // Children first, so that parent calculations can sum them; children read ancestors' answers.
  const children = (input.children ?? []).map((child, i) =>
    rateRisk(product, child, scope, childPath(path, child, i), depth + 1, null),
  );
  scope.children = children.map((c) => c.scope);
  const calculations: WorksheetLine[] = [];
  for (const step of type.calculations) {
    if (step.item !== undefined && !scope.items.has(step.item)) {
      scope.calculations.set(step.name, ZERO);
      calculations.push({
        name: step.name,
        formula: step.formula.source,
        item: step.item,
        skipped: 'item_absent',
        inputs: [],
        tables: [],
        unrounded: '0',
        value: '0',
      });
      continue;
    }
    const { line, value } = runStep(product, scope, step);
    if (!(value instanceof Decimal)) {
      throw new EvaluationError(
        `${path} › ${step.name}: a calculation must give a number, got ${valueText(value)}`,
        path,
        step.name,
      );
    }
    scope.calculations.set(step.name, value);
    calculations.push(line);
  }
  let fullyEarned = children.reduce((t, c) => t.plus(c.fullyEarned), ZERO);
  for (const [name, item] of scope.items) {
    const def = type.items.get(name)!;
    if ((item.fullyEarned ?? def.fullyEarned) && def.premium !== undefined) {
      fullyEarned = fullyEarned.plus(scope.calculations.get(def.premium) ?? ZERO);
    }
  }
  const premium = scope.calculations.get(type.premium);
  return {
    scope,
    fullyEarned,
    sheet: {
      ...(input.id !== undefined ? { id: input.id } : {}),
      type: type.name,
      path,
      computedFields,
      calculations,
      premium: premium === undefined ? null : decimalText(premium),
      children: children.map((c) => c.sheet),
    },
  };
}

/**
 * Rates a risk tree: computed fields, then children, then the risk's calculations in order; the
 * root's premium calculation is the term premium, which the transaction's term rule then prorates.
 */
export function rate(product: CompiledProduct, request: RatingRequest): RatingResult {
  const root = request.risk;
  const rootPath = root.id !== undefined ? `${root.type}#${root.id}` : root.type;
  const rated = rateRisk(product, root, null, rootPath, 1, product.rootRiskType);
  const rootType = product.riskTypes.get(product.rootRiskType)!;
  const termPremium = rated.scope.calculations.get(rootType.premium) ?? ZERO;
  const term = applyTerm(termPremium, rated.fullyEarned, request, product.premiumRounding);
  return {
    product: product.name,
    ...(product.version !== undefined ? { version: product.version } : {}),
    premium: term.proRataPremium,
    termPremium: term.termPremium,
    fullyEarnedPremium: term.fullyEarnedPremium,
    term,
    worksheet: {
      product: product.name,
      ...(product.version !== undefined ? { version: product.version } : {}),
      term,
      root: rated.sheet,
    },
  };
}

export interface ComputedFieldsRisk {
  id?: string;
  type: string;
  path: string;
  /** Each computed field's value as text (numbers exact, booleans true/false). */
  fields: Record<string, string>;
  lines: WorksheetLine[];
  children: ComputedFieldsRisk[];
}

/** Evaluates the computed fields over the answers of a risk tree, without rating it. */
export function evaluateComputedFields(product: CompiledProduct, risk: RiskInput): ComputedFieldsRisk {
  const walk = (input: RiskInput, parent: RiskScope | null, path: string, depth: number): ComputedFieldsRisk => {
    const { scope, type } = buildScope(product, input, parent, path, depth, parent ? null : product.rootRiskType);
    const lines = runComputedFields(product, scope, type);
    return {
      ...(input.id !== undefined ? { id: input.id } : {}),
      type: type.name,
      path,
      fields: Object.fromEntries(lines.map((l) => [l.name, l.value])),
      lines,
      children: (input.children ?? []).map((c, i) => walk(c, scope, childPath(path, c, i), depth + 1)),
    };
  };
  return walk(risk, null, risk.id !== undefined ? `${risk.type}#${risk.id}` : risk.type, 1);
}
