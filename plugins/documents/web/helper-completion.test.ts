import { describe, expect, it } from 'vitest';
import { HELPER_FUNCTIONS } from '../shared/helpers.js';
import { helperCompletions } from './helper-completion.js';

describe('helperCompletions', () => {
  it('offers the helpers whose name starts with the word after # or inside an expression', () => {
    expect(helperCompletions('Total: #form', HELPER_FUNCTIONS).map((c) => c.label)).toEqual([
      'formatCurrency',
      'formatDate',
    ]);
    expect(helperCompletions('#(pl', HELPER_FUNCTIONS)).toEqual([
      expect.objectContaining({
        label: 'pluralize',
        startColumn: 3,
        detail: 'pluralize(count, singular, plural: none)',
      }),
    ]);
    expect(helperCompletions('#formatCurrency(data.policy.premium, formatD', HELPER_FUNCTIONS)[0]?.label).toBe(
      'formatDate',
    );
  });
  it('offers nothing after data. or for a finished or unknown name', () => {
    expect(helperCompletions('#data.form', HELPER_FUNCTIONS)).toEqual([]);
    expect(helperCompletions('#pluralize', HELPER_FUNCTIONS)).toEqual([]);
    expect(helperCompletions('#xyz', HELPER_FUNCTIONS)).toEqual([]);
  });
});
