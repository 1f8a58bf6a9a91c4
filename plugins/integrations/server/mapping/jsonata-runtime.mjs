// JSONata evaluation under a deadline and a depth limit, with the decimal functions. Plain
// JavaScript, not TypeScript, because the mapping worker (mapping-worker.mjs) loads it in a worker
// thread, where neither the server bundle nor vitest's TypeScript loader applies. Types are in
// jsonata-runtime.d.mts; evaluate.ts is what the rest of the module calls.
import Decimal from 'decimal.js';
import jsonata from 'jsonata';

export const MAPPING_DEADLINE_MS = 1000;
export const MAPPING_MAX_DEPTH = 200;

export class MappingError extends Error {
  constructor(message, position) {
    super(message);
    this.name = 'MappingError';
    this.position = position;
  }
}

/** Parses an expression; throws MappingError with JSONata's message and position. */
export function compileMapping(expression) {
  try {
    return jsonata(expression);
  } catch (error) {
    throw new MappingError(`The expression is not valid JSONata: ${error?.message ?? String(error)}`, error?.position);
  }
}

// Decimal arithmetic for money (decimal.js, 40 significant digits): JSONata's own + - * / compute in
// binary floating point (1.1 + 2.2 is 3.3000000000000003). Each takes decimal strings or numbers and
// answers a decimal string in plain notation, never a float.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

const toDecimal = (name, value) => {
  if (typeof value === 'number' && Number.isFinite(value)) return new D(String(value));
  if (typeof value === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim())) {
    return new D(value.trim());
  }
  throw new MappingError(`$${name}: ${JSON.stringify(value) ?? 'undefined'} is not a decimal number.`);
};
const plain = (value) => value.toFixed();
const reduce = (name, values, op) => {
  if (values.length === 0) throw new MappingError(`$${name} needs at least one number.`);
  return plain(values.map((v) => toDecimal(name, v)).reduce(op));
};

export const DECIMAL_FUNCTIONS = {
  decimalAdd: {
    implementation: (...values) => reduce('decimalAdd', values, (a, b) => a.plus(b)),
    signature: '<(sn)+:s>',
  },
  decimalSub: {
    implementation: (a, b) => plain(toDecimal('decimalSub', a).minus(toDecimal('decimalSub', b))),
    signature: '<(sn)(sn):s>',
  },
  decimalMul: {
    implementation: (...values) => reduce('decimalMul', values, (a, b) => a.times(b)),
    signature: '<(sn)+:s>',
  },
  decimalDiv: {
    implementation: (a, b) => {
      const divisor = toDecimal('decimalDiv', b);
      if (divisor.isZero()) throw new MappingError('$decimalDiv: division by zero.');
      return plain(toDecimal('decimalDiv', a).dividedBy(divisor));
    },
    signature: '<(sn)(sn):s>',
  },
  decimalSum: {
    implementation: (values) => {
      const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
      return plain(list.reduce((sum, v) => sum.plus(toDecimal('decimalSum', v)), new D(0)));
    },
    signature: '<a:s>',
  },
  decimalRound: {
    implementation: (a, places) => {
      const digits = places ?? 2;
      if (!Number.isInteger(digits) || digits < 0 || digits > 20) {
        throw new MappingError('$decimalRound: places must be a whole number from 0 to 20.');
      }
      return toDecimal('decimalRound', a).toFixed(digits, Decimal.ROUND_HALF_EVEN);
    },
    signature: '<(sn)n?:s>',
  },
  decimalCompare: {
    implementation: (a, b) => toDecimal('decimalCompare', a).comparedTo(toDecimal('decimalCompare', b)),
    signature: '<(sn)(sn):n>',
  },
};

/**
 * Evaluates in this thread, stopped through the evaluator's own entry/exit hooks
 * (Symbol.for('jsonata.__evaluate_entry') and …exit) when it nests too deep or runs too long.
 * Answers plain JSON (JSONata's sequences and functions do not cross a thread).
 */
export async function evaluateHere(expression, input, options = {}) {
  const compiled = compileMapping(expression);
  for (const [name, fn] of Object.entries(DECIMAL_FUNCTIONS)) {
    compiled.registerFunction(name, fn.implementation, fn.signature);
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
  compiled.assign(Symbol.for('jsonata.__evaluate_entry'), (_expr, _input, environment) => {
    if (environment?.isParallelCall) return;
    depth++;
    check();
  });
  compiled.assign(Symbol.for('jsonata.__evaluate_exit'), (_expr, _input, environment) => {
    if (environment?.isParallelCall) return;
    depth--;
    check();
  });
  let result;
  try {
    result = await compiled.evaluate(input);
  } catch (error) {
    if (error instanceof MappingError) throw error;
    throw new MappingError(`The mapping failed: ${error?.message ?? String(error)}`, error?.position);
  }
  const text = JSON.stringify(result);
  return text === undefined ? undefined : JSON.parse(text);
}
