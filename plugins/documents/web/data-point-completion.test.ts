import { describe, expect, it } from 'vitest';
import { DATA_POINTS } from '../shared/data-points.js';
import { dataPointCompletions } from './data-point-completion.js';

describe('data-point completion', () => {
  it('offers the next segments of the catalogue after data.', () => {
    const top = dataPointCompletions('Policy #data.', DATA_POINTS).map((c) => c.label);
    expect(top).toEqual(['agency', 'claim', 'policy', 'quote']);
    // A quote's risks are a list whose elements have their own lists (answers, coverages).
    expect(dataPointCompletions('#data.quote.risks.', DATA_POINTS).map((c) => c.label)).toEqual([
      'answers',
      'coverages',
      'label',
    ]);
    const policy = dataPointCompletions('#data.policy.pr', DATA_POINTS);
    expect(policy).toEqual([
      {
        label: 'premium',
        path: 'policy.premium',
        detail: 'money · 1284.50 · from policies',
        group: false,
        startColumn: 14,
      },
    ]);
    const insured = dataPointCompletions('#data.policy.', DATA_POINTS).find((c) => c.label === 'insured');
    expect(insured).toMatchObject({ detail: 'group', group: true });
    // A list's element fields follow the list's name; the list itself is a group with its type.
    const coverages = dataPointCompletions('#data.policy.', DATA_POINTS).find((c) => c.label === 'coverages');
    expect(coverages).toMatchObject({ group: true, detail: 'list · 4 coverages · from policies' });
    expect(dataPointCompletions('#for c in data.policy.coverages.', DATA_POINTS).map((c) => c.label)).toEqual([
      'code',
      'limit',
      'name',
      'premium',
    ]);
  });

  it('offers nothing outside a data path', () => {
    expect(dataPointCompletions('#metadata.', DATA_POINTS)).toEqual([]);
    expect(dataPointCompletions('#data.policy.nope.', DATA_POINTS)).toEqual([]);
    expect(dataPointCompletions('plain text', DATA_POINTS)).toEqual([]);
  });
});
