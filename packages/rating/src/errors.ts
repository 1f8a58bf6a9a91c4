/** A place in a formula: 1-based line and column, 0-based offset. */
export interface SourcePosition {
  offset: number;
  line: number;
  column: number;
}

export function positionText(pos: SourcePosition): string {
  return `line ${pos.line}, column ${pos.column} (offset ${pos.offset})`;
}

/** Base class of every error the engine raises; `code` is stable for callers and API mapping. */
export class RatingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A formula that does not parse: says where and what was expected. */
export class FormulaSyntaxError extends RatingError {
  constructor(
    readonly formula: string,
    readonly position: SourcePosition,
    readonly expected: string,
    readonly found: string,
  ) {
    super('formula_syntax', `Syntax error at ${positionText(position)}: expected ${expected}, found ${found}`);
  }
}

/** One problem found while compiling a product definition. */
export interface DefinitionProblem {
  code: 'formula_syntax' | 'unknown_reference' | 'cycle' | 'invalid_definition';
  message: string;
  riskType?: string;
  /** The calculation or computed field whose formula has the problem. */
  calculation?: string;
  field?: string;
  table?: string;
  position?: SourcePosition;
  /** The calculations (or computed fields) in a dependency cycle, in order, first repeated last. */
  cycle?: string[];
}

/** A product definition that cannot be compiled: every problem found, not just the first. */
export class ProductDefinitionError extends RatingError {
  constructor(readonly problems: DefinitionProblem[]) {
    super(
      problems[0]?.code ?? 'invalid_definition',
      `Product definition has ${problems.length} problem(s): ${problems.map((p) => p.message).join('; ')}`,
    );
  }
}

/** A rate-table lookup that found no row and the table has no default. */
export class RateTableLookupError extends RatingError {
  constructor(
    readonly table: string,
    readonly keys: Record<string, string>,
  ) {
    super(
      'rate_table_no_match',
      `Rate table '${table}' has no row for ${Object.entries(keys)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')} and no default`,
    );
  }
}

/** A failure while evaluating a formula (missing answer, wrong type, division by zero…). */
export class EvaluationError extends RatingError {
  constructor(
    message: string,
    readonly riskPath?: string,
    readonly calculation?: string,
    readonly position?: SourcePosition,
  ) {
    super('evaluation', message);
  }
}
