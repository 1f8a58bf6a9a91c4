import type jsonata from 'jsonata';

/** Types of jsonata-runtime.mjs (plain JavaScript so that the mapping worker thread can load it). */
export declare const MAPPING_DEADLINE_MS: number;
export declare const MAPPING_MAX_DEPTH: number;
export declare class MappingError extends Error {
  constructor(message: string, position?: number);
  readonly position?: number;
}
export declare function compileMapping(expression: string): jsonata.Expression;
export declare const DECIMAL_FUNCTIONS: Record<
  string,
  { implementation: (...args: never[]) => unknown; signature: string }
>;
export interface EvaluateOptions {
  deadlineMs?: number;
  maxDepth?: number;
}
export declare function evaluateHere(expression: string, input: unknown, options?: EvaluateOptions): Promise<unknown>;
