import type { HelperFunction } from '../shared/helpers.js';

/**
 * Completion of the helper functions (formatCurrency, formatDate, pluralize) in template source: a
 * word being typed after `#`, `(`, `,` or a space that starts a helper's name. Never after `data.`
 * (those are data points). Pure, so it is tested without Monaco.
 */
export interface HelperCompletion {
  label: string;
  detail: string;
  documentation: string;
  /** Where the word being completed starts (1-based column in the line). */
  startColumn: number;
}

export function helperCompletions(before: string, helpers: readonly HelperFunction[]): HelperCompletion[] {
  const match = /(?:^|[#(,\s[])([A-Za-z][A-Za-z]*)$/.exec(before);
  if (!match) return [];
  const partial = match[1]!;
  const startColumn = before.length - partial.length + 1;
  return helpers
    .filter((h) => h.name.startsWith(partial) && h.name !== partial)
    .map((h) => ({
      label: h.name,
      detail: h.signature,
      documentation: `${h.description}\n\n\`${h.example}\` → ${h.result}`,
      startColumn,
    }));
}
