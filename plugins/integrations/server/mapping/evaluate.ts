import { mappingPool } from './mapping-pool.js';
import type { EvaluateOptions } from './jsonata-runtime.mjs';

/**
 * JSONata mappings as the module calls them. Evaluation runs in a worker thread (mapping-pool.ts)
 * under a deadline and a depth limit (jsonata-runtime.mjs, through the evaluator's own entry/exit
 * hooks): a runaway expression (an endless recursion, a huge loop) fails with a clear message while
 * the server keeps answering. Parsing (to refuse an invalid expression at save time) is quick and
 * stays in this thread.
 */
export {
  compileMapping,
  DECIMAL_FUNCTIONS,
  MAPPING_DEADLINE_MS,
  MAPPING_MAX_DEPTH,
  MappingError,
} from './jsonata-runtime.mjs';

/** Evaluates `expression` on `input` in a mapping worker; rejects with MappingError. */
export function evaluateMapping(expression: string, input: unknown, options: EvaluateOptions = {}): Promise<unknown> {
  return mappingPool().evaluate(expression, input, options);
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
