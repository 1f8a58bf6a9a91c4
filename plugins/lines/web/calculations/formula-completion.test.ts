import { describe, expect, it } from 'vitest';
import { readRatingContext } from './calculations-api.js';
import { completionEntries } from './formula-completion.js';

/** A rating context as GET …/risk-types/{t}/rating-context/ answers it. */
const context = readRatingContext({
  risk_type: { id: 1, name: 'home', label: 'Home' },
  fields: [{ name: 'zip', label: 'ZIP', type: 'string', options: [] }],
  ancestor_fields: [{ name: 'state', label: 'State', type: 'string', risk_type: 'policy' }],
  items: [{ name: 'dwelling', label: 'Dwelling', limits: [''], deductibles: ['wind'] }],
  rate_tables: [
    { name: 'territory_factor', label: 'Territory', keys: [{ name: 'zip', match: 'exact' }], interpolate: null },
  ],
  calculations: [
    { name: 'base_rate', label: 'Base rate' },
    { name: 'premium', label: '' },
  ],
  children: [{ name: 'scheduled_article', label: 'Article', calculations: ['premium'] }],
  functions: ['max', 'min', 'round'],
});

describe('formula completion', () => {
  it('offers fields, ancestor fields, other calculations, tables with their keys, items, children and functions', () => {
    const entries = completionEntries(context, 'premium');
    const labels = entries.map((e) => `${e.kind}:${e.label}`);
    expect(labels).toEqual([
      'field:zip',
      'field:state',
      'calculation:base_rate',
      'table:territory_factor',
      "item:limit('dwelling')",
      "item:deductible('dwelling')",
      "item:has_item('dwelling')",
      "item:deductible('dwelling', 'wind')",
      "children:sum(children('scheduled_article'), 'premium')",
      'function:max',
      'function:min',
      'function:round',
    ]);
    expect(entries.find((e) => e.label === 'territory_factor')?.insertText).toBe('territory_factor(${1:zip})');
    expect(entries.find((e) => e.label === 'state')?.detail).toBe('field of policy State');
  });

  it('offers the calculation being edited to other calculations only', () => {
    expect(completionEntries(context, null).some((e) => e.label === 'premium' && e.kind === 'calculation')).toBe(true);
  });
});
