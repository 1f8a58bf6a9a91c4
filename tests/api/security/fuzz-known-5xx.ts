/**
 * 5xx answers the fuzz (fuzz.api.test.ts, fuzz.sweep.api.test.ts) still finds in modules whose
 * owners fix them: each entry is an operation (`METHOD /openapi/path`) and, optionally, the label
 * of the hostile value (fuzz-harness.ts, HOSTILE) that breaks it; without one, any value. This list
 * only shrinks: remove an entry with the fix that makes the operation answer 4xx.
 */
export interface Known5xx {
  operation: string;
  value?: string;
  /** Why, and whose it is. */
  note: string;
}

export const KNOWN_5XX: Known5xx[] = [];
