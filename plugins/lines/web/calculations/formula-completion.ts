import type { RatingContext } from './calculations-api.js';

/**
 * What the formula editor offers while typing, from the risk type's rating context: its fields and
 * its ancestors' fields (bare names), its calculations (except the one being edited), rate tables
 * called by name with their key columns as arguments, the item functions written out per item, the
 * sums over child risks, and the built-in functions. Plain data, so it is tested without Monaco.
 */
export type CompletionKind = 'field' | 'calculation' | 'table' | 'item' | 'children' | 'function';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  /** What is inserted; `$0` / `${1:x}` are snippet placeholders. */
  insertText: string;
  detail: string;
}

export function completionEntries(context: RatingContext, editing: string | null): CompletionEntry[] {
  const entries: CompletionEntry[] = [];
  for (const field of context.fields)
    entries.push({
      label: field.name,
      kind: 'field',
      insertText: field.name,
      detail: `field (${field.type}) ${field.label}`.trim(),
    });
  for (const field of context.ancestorFields)
    entries.push({
      label: field.name,
      kind: 'field',
      insertText: field.name,
      detail: `field of ${field.riskType} ${field.label}`.trim(),
    });
  for (const calculation of context.calculations) {
    if (editing !== null && calculation.name.toLowerCase() === editing.toLowerCase()) continue;
    entries.push({
      label: calculation.name,
      kind: 'calculation',
      insertText: calculation.name,
      detail: `calculation ${calculation.label}`.trim(),
    });
  }
  for (const table of context.rateTables) {
    const args = table.keys.map((key, i) => `\${${i + 1}:${key}}`).join(', ');
    entries.push({
      label: table.name,
      kind: 'table',
      insertText: `${table.name}(${args})`,
      detail: `rate table (${table.keys.join(', ')}) ${table.label}`.trim(),
    });
  }
  for (const item of context.items) {
    entries.push({
      label: `limit('${item.name}')`,
      kind: 'item',
      insertText: `limit('${item.name}')`,
      detail: `limit of ${item.label || item.name}`,
    });
    entries.push({
      label: `deductible('${item.name}')`,
      kind: 'item',
      insertText: `deductible('${item.name}')`,
      detail: `deductible of ${item.label || item.name}`,
    });
    entries.push({
      label: `has_item('${item.name}')`,
      kind: 'item',
      insertText: `has_item('${item.name}')`,
      detail: `true when the risk has ${item.label || item.name}`,
    });
    for (const named of item.limits.filter(Boolean))
      entries.push({
        label: `limit('${item.name}', '${named}')`,
        kind: 'item',
        insertText: `limit('${item.name}', '${named}')`,
        detail: `named limit`,
      });
    for (const named of item.deductibles.filter(Boolean))
      entries.push({
        label: `deductible('${item.name}', '${named}')`,
        kind: 'item',
        insertText: `deductible('${item.name}', '${named}')`,
        detail: `named deductible`,
      });
  }
  for (const child of context.children)
    for (const calculation of child.calculations)
      entries.push({
        label: `sum(children('${child.name}'), '${calculation}')`,
        kind: 'children',
        insertText: `sum(children('${child.name}'), '${calculation}')`,
        detail: `sum over the ${child.name} risks`,
      });
  const tableNames = new Set(context.rateTables.map((t) => t.name.toLowerCase()));
  for (const fn of context.functions)
    if (!tableNames.has(fn.toLowerCase()))
      entries.push({ label: fn, kind: 'function', insertText: `${fn}($0)`, detail: 'function' });
  return entries;
}
