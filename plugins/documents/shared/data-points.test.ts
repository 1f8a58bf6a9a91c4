import { describe, expect, it } from 'vitest';
import { SAMPLE_CLAIM, SAMPLE_POLICY, SAMPLE_QUOTE, unresolvedPaths } from './data-points.js';

describe('unresolvedPaths', () => {
  it('finds nothing missing in the samples', () => {
    expect(unresolvedPaths('policy', SAMPLE_POLICY)).toEqual([]);
    expect(unresolvedPaths('claim', SAMPLE_CLAIM)).toEqual([]);
    expect(unresolvedPaths('quote', SAMPLE_QUOTE)).toEqual([]);
  });

  it('names empty and missing values, and list elements one by one', () => {
    const data = {
      policy: {
        ...SAMPLE_POLICY.policy,
        insured: { name: 'Ivy', address: '' },
        premium: null,
        coverages: [
          { code: '1', name: 'Dwelling', limit: '350000.00', premium: '812.00' },
          { code: '2', name: 'Loss of use', limit: '', premium: '10.00' },
        ],
      },
    };
    expect(unresolvedPaths('policy', data)).toEqual([
      'policy.premium',
      'policy.insured.address',
      'policy.coverages[1].limit',
      'agency.name',
    ]);
    expect(unresolvedPaths('policy', {})).toContain('policy.coverages');
  });
});
