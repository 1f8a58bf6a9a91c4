import jsonata from 'jsonata';

/**
 * JSONata evaluation under a deadline and a depth limit, through the evaluator's own entry/exit
 * hooks (`Symbol.for('jsonata.__evaluate_entry')` and `…exit`): a runaway expression (an endless recursion, a huge
 * loop) stops with a clear error instead of holding the server.
 */
export const MAPPING_DEADLINE_MS = 1000;
export const MAPPING_MAX_DEPTH = 200;

export class MappingError extends Error {
  constructor(
    message: string,
    readonly position?: number,
  ) {
    super(message);
    this.name = 'MappingError';
  }
}

interface JsonataFailure {
  message?: string;
  position?: number;
  code?: string;
}

/** Parses an expression; throws MappingError with JSONata's message and position. */
export function compileMapping(expression: string): jsonata.Expression {
  try {
    return jsonata(expression);
  } catch (error) {
    const e = error as JsonataFailure;
    throw new MappingError(`The expression is not valid JSONata: ${e.message ?? String(error)}`, e.position);
  }
}

type Environment = { isParallelCall?: boolean } | undefined;

export async function evaluateMapping(
  expression: string,
  input: unknown,
  options: { deadlineMs?: number; maxDepth?: number } = {},
): Promise<unknown> {
  const compiled = compileMapping(expression);
  const deadlineMs = options.deadlineMs ?? MAPPING_DEADLINE_MS;
  const maxDepth = options.maxDepth ?? MAPPING_MAX_DEPTH;
  const started = Date.now();
  let depth = 0;
  const check = () => {
    if (depth > maxDepth) {
      throw new MappingError(`The mapping nests deeper than ${maxDepth} levels (endless recursion?).`);
    }
    if (Date.now() - started > deadlineMs) {
      throw new MappingError(`The mapping took longer than ${deadlineMs} ms and was stopped.`);
    }
  };
  // jsonata 2 looks its hooks up by these symbols (1.x used the plain names).
  const assign = compiled.assign.bind(compiled) as unknown as (name: symbol, value: unknown) => void;
  assign(Symbol.for('jsonata.__evaluate_entry'), (_expr: unknown, _input: unknown, environment: Environment) => {
    if (environment?.isParallelCall) return;
    depth++;
    check();
  });
  assign(Symbol.for('jsonata.__evaluate_exit'), (_expr: unknown, _input: unknown, environment: Environment) => {
    if (environment?.isParallelCall) return;
    depth--;
    check();
  });
  try {
    return await compiled.evaluate(input);
  } catch (error) {
    if (error instanceof MappingError) throw error;
    const e = error as JsonataFailure;
    throw new MappingError(`The mapping failed: ${e.message ?? String(error)}`, e.position);
  }
}

const MONEY_KEY = /(amount|premium|price|total|reserve|payment|balance|fee|tax|limit|deductible)/i;

/**
 * Warnings for the preview: JSONata computes in floating point, so a money field (by its name) that
 * comes out as a number instead of a decimal string is flagged.
 */
export function moneyWarnings(output: unknown, path = ''): string[] {
  if (Array.isArray(output)) return output.flatMap((item, i) => moneyWarnings(item, `${path}[${i}]`));
  if (output && typeof output === 'object') {
    return Object.entries(output as Record<string, unknown>).flatMap(([key, value]) => {
      const here = path ? `${path}.${key}` : key;
      if (typeof value === 'number' && MONEY_KEY.test(key)) {
        return [`${here} became a number (${value}); keep money as a decimal string.`];
      }
      return moneyWarnings(value, here);
    });
  }
  return [];
}
