import { BUILTINS } from './builtins.js';
import type { CompiledProduct } from './compiled-product.js';

export interface FormulaNames {
  calculations: string[];
  fields: string[];
  ancestorFields: string[];
  items: string[];
  tables: { name: string; keys: string[] }[];
  functions: string[];
}

/**
 * The names a formula of one risk type may use, for completion in a formula editor: its
 * calculations, its fields, its ancestors' fields, its items, the rate tables (with their key
 * columns) and the built-in functions.
 */
export function formulaNames(product: CompiledProduct, riskType: string): FormulaNames {
  const rt = product.riskTypes.get(riskType);
  if (!rt) throw new Error(`Unknown risk type '${riskType}'`);
  return {
    calculations: rt.definition.calculations.map((c) => c.name),
    fields: [...rt.fields.keys()],
    ancestorFields: [...rt.ancestorFields],
    items: [...rt.items.keys()],
    tables: [...product.tables.values()].map((t) => ({ name: t.name, keys: t.keyNames })),
    functions: Object.keys(BUILTINS),
  };
}
