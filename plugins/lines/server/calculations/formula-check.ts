import {
  checkProduct,
  FormulaSyntaxError,
  parseFormula,
  type DefinitionProblem,
  type ProductDefinition,
} from '@atrium/rating';
import { ApiError } from '@atrium/sdk/server';

/**
 * Formula checks of the calculation routes, with the rating engine's own parser and compiler so
 * that what is saved is what will rate. A syntax error names its place:
 * `Syntax error at line 1, column 27 (offset 26): expected ')', found end of formula`.
 */
export function formulaError(detail: string, problem: Partial<DefinitionProblem>, code: string): ApiError {
  return new ApiError(400, detail, {
    code,
    source: { pointer: '/calculation' },
    meta: {
      ...(problem.position ? { position: problem.position } : {}),
      ...(problem.cycle ? { cycle: problem.cycle } : {}),
    },
  });
}

/** Parses a formula; a 400 pointing at `calculation` with the line, column and offset when it does not parse. */
export function assertFormulaParses(formula: string): void {
  try {
    parseFormula(formula);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) {
      throw formulaError(error.message, { position: error.position }, 'formula_syntax');
    }
    throw formulaError(`The formula cannot be read: ${(error as Error).message}`, {}, 'formula_syntax');
  }
}

/**
 * The problems of one calculation once it is part of the product: names that are not in its rating
 * context (fields, ancestors' fields, items, rate tables, calculations), wrong argument counts, and
 * cycles it is part of. Problems elsewhere in the product are not this write's business.
 */
export function problemsOfCalculation(
  definition: ProductDefinition,
  riskType: string,
  calculation: string,
): DefinitionProblem[] {
  const { problems } = checkProduct(definition);
  const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();
  return problems.filter(
    (p) =>
      same(p.riskType, riskType) &&
      (same(p.calculation, calculation) || (p.cycle ?? []).some((name) => same(name, calculation))) &&
      p.field === undefined,
  );
}

export function assertCalculationCompiles(definition: ProductDefinition, riskType: string, calculation: string) {
  const problems = problemsOfCalculation(definition, riskType, calculation);
  if (problems.length === 0) return;
  const first = problems[0]!;
  throw new ApiError(400, problems.map((p) => p.message).join('; '), {
    code: first.code,
    issues: problems.map((p) => ({ detail: p.message, source: { pointer: '/calculation' }, code: p.code })),
    meta: { problems },
  });
}
