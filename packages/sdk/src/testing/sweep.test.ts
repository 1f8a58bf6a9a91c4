import { afterEach, describe, expect, it } from 'vitest';
import { isFullSweep, sweepSample } from './sweep.js';

const items = Array.from({ length: 100 }, (_, i) => i);
const saved = { full: process.env.ATRIUM_TEST_FULL, offset: process.env.ATRIUM_TEST_SWEEP_OFFSET };

describe('sweepSample', () => {
  afterEach(() => {
    for (const [name, value] of [
      ['ATRIUM_TEST_FULL', saved.full],
      ['ATRIUM_TEST_SWEEP_OFFSET', saved.offset],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('takes `count` distinct items spread over the whole list, the same ones for the same offset', () => {
    delete process.env.ATRIUM_TEST_FULL;
    process.env.ATRIUM_TEST_SWEEP_OFFSET = '3';
    const sample = sweepSample(items, 10);
    expect(sample).toEqual([3, 13, 23, 33, 43, 53, 63, 73, 83, 93]);
    expect(sweepSample(items, 10)).toEqual(sample);
    process.env.ATRIUM_TEST_SWEEP_OFFSET = '4';
    expect(sweepSample(items, 10)).toEqual(sample.map((item) => item + 1));
  });

  it('takes everything in a full run and when the list is no longer than the sample', () => {
    process.env.ATRIUM_TEST_FULL = '1';
    expect(isFullSweep()).toBe(true);
    expect(sweepSample(items, 10)).toEqual(items);
    delete process.env.ATRIUM_TEST_FULL;
    expect(isFullSweep()).toBe(false);
    expect(sweepSample(items.slice(0, 5), 10)).toEqual(items.slice(0, 5));
  });
});
