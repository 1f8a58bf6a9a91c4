import Decimal from 'decimal.js';
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

/**
 * Decimal arithmetic for money (decimal.js, 40 significant digits): JSONata's own `+ - * /` compute in
 * binary floating point (`1.1 + 2.2` is `3.3000000000000003`). Each takes decimal strings or numbers
 * and answers a decimal string in plain notation, never a float:
 * `$decimalAdd(a, b, …)`, `$decimalSub(a, b)`, `$decimalMul(a, b, …)`, `$decimalDiv(a, b)`,
 * `$decimalSum(array)`, `$decimalRound(a, places?)` (half-even, 2 places unless given) and
 * `$decimalCompare(a, b)` (-1, 0 or 1).
 */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
type DecimalInput = string | number;

const toDecimal = (name: string, value: unknown): Decimal => {
  if (typeof value === 'number' && Number.isFinite(value)) return new D(String(value));
  if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    return new D(value.trim());
  }
  throw new MappingError(`$${name}: ${JSON.stringify(value) ?? 'undefined'} is not a decimal number.`);
};
const plain = (value: Decimal) => value.toFixed();
const reduce = (name: string, values: unknown[], op: (a: Decimal, b: Decimal) => Decimal) => {
  if (values.length === 0) throw new MappingError(`$${name} needs at least one number.`);
  return plain(values.map((v) => toDecimal(name, v)).reduce(op));
};

export const DECIMAL_FUNCTIONS: Record<string, { implementation: (...args: never[]) => unknown; signature: string }> = {
  decimalAdd: {
    implementation: (...values: DecimalInput[]) => reduce('decimalAdd', values, (a, b) => a.plus(b)),
    signature: '<(sn)+:s>',
  },
  decimalSub: {
    implementation: (a: DecimalInput, b: DecimalInput) =>
      plain(toDecimal('decimalSub', a).minus(toDecimal('decimalSub', b))),
    signature: '<(sn)(sn):s>',
  },
  decimalMul: {
    implementation: (...values: DecimalInput[]) => reduce('decimalMul', values, (a, b) => a.times(b)),
    signature: '<(sn)+:s>',
  },
  decimalDiv: {
    implementation: (a: DecimalInput, b: DecimalInput) => {
      const divisor = toDecimal('decimalDiv', b);
      if (divisor.isZero()) throw new MappingError('$decimalDiv: division by zero.');
      return plain(toDecimal('decimalDiv', a).dividedBy(divisor));
    },
    signature: '<(sn)(sn):s>',
  },
  decimalSum: {
    implementation: (values: DecimalInput[] | DecimalInput | undefined) => {
      const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
      return plain(list.reduce<Decimal>((sum, v) => sum.plus(toDecimal('decimalSum', v)), new D(0)));
    },
    signature: '<a:s>',
  },
  decimalRound: {
    implementation: (a: DecimalInput, places?: number) => {
      const digits = places ?? 2;
      if (!Number.isInteger(digits) || digits < 0 || digits > 20) {
        throw new MappingError('$decimalRound: places must be a whole number from 0 to 20.');
      }
      return toDecimal('decimalRound', a).toFixed(digits, Decimal.ROUND_HALF_EVEN);
    },
    signature: '<(sn)n?:s>',
  },
  decimalCompare: {
    implementation: (a: DecimalInput, b: DecimalInput) =>
      toDecimal('decimalCompare', a).comparedTo(toDecimal('decimalCompare', b)),
    signature: '<(sn)(sn):n>',
  },
};

export async function evaluateMapping(
  expression: string,
  input: unknown,
  options: { deadlineMs?: number; maxDepth?: number } = {},
): Promise<unknown> {
  const compiled = compileMapping(expression);
  for (const [name, fn] of Object.entries(DECIMAL_FUNCTIONS)) {
    compiled.registerFunction(name, fn.implementation as (...args: unknown[]) => unknown, fn.signature);
  }
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
