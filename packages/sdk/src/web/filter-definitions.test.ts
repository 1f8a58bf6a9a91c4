import { describe, expect, it } from 'vitest';
import {
  assertFilterDefinitions,
  FilterDefinitionError,
  formatDateRange,
  formatFilterBadges,
  formatFilterDate,
  removeFilterBadge,
  validateFilterDefinitions,
  type FilterDefinition,
} from './filter-definitions.js';

const definitions: FilterDefinition[] = [
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    options: [
      { name: 'open', label: 'Open' },
      { name: 'closed', label: 'Closed' },
    ],
  },
  { name: 'lob', label: 'Line', type: 'radio', options: [{ name: 'auto', label: 'Auto' }] },
  { name: 'loss_date', label: 'Loss date', type: 'form', format: 'date-range' },
  { name: 'adjuster', label: 'Adjuster', type: 'form' },
];

describe('filter definitions', () => {
  it('accepts valid definitions', () => {
    expect(validateFilterDefinitions(definitions)).toEqual([]);
    expect(() => assertFilterDefinitions(definitions)).not.toThrow();
  });

  it('requires unique string names and labels', () => {
    expect(
      validateFilterDefinitions([
        { name: 'a', label: 'A', type: 'form' },
        { name: 'a', label: 'B', type: 'form' },
        { name: 'c', label: 'A', type: 'form' },
        { name: 3, label: 'D', type: 'form' },
        { name: 'e', label: '', type: 'form' },
      ]),
    ).toEqual([
      "filter #2: duplicate name 'a'",
      "filter #3: duplicate label 'A'",
      'filter #4: name must be a non-empty string',
      'filter #5: label must be a non-empty string',
    ]);
  });

  it('requires type select, radio or form', () => {
    expect(validateFilterDefinitions([{ name: 'a', label: 'A', type: 'checkbox' }])).toEqual([
      'filter #1: type must be select, radio or form',
    ]);
  });

  it('requires options arrays with unique string names and labels', () => {
    expect(
      validateFilterDefinitions([
        { name: 'a', label: 'A', type: 'select' },
        { name: 'b', label: 'B', type: 'radio', options: 'x' },
        {
          name: 'c',
          label: 'C',
          type: 'select',
          options: [
            { name: 'x', label: 'X' },
            { name: 'x', label: 'Y' },
            { name: 'z', label: 'X' },
            { name: 'w' },
            null,
          ],
        },
      ]),
    ).toEqual([
      'filter #1: select filters need options',
      'filter #2: options must be an array',
      "filter #3 option #2: duplicate name 'x'",
      "filter #3 option #3: duplicate label 'X'",
      'filter #3 option #4: label must be a non-empty string',
      'filter #3 option #5 must be an object',
    ]);
  });

  it('throws with every problem listed', () => {
    expect(() => assertFilterDefinitions({})).toThrow(FilterDefinitionError);
    expect(() => assertFilterDefinitions([{ name: 'a' }])).toThrow(
      /label must be a non-empty string[\s\S]*type must be/,
    );
  });
});

describe('filter badges', () => {
  it('formats date ranges as MM/DD/YYYY-MM/DD/YYYY without shifting date-only values', () => {
    expect(formatDateRange({ from: '2024-03-05', to: '2024-12-31' })).toBe('03/05/2024-12/31/2024');
    expect(formatFilterDate(new Date(2024, 0, 9))).toBe('01/09/2024');
    expect(formatDateRange({ from: '2024-03-05' })).toBe('03/05/2024-');
  });

  it('shows one badge per active value with option labels, in definition order', () => {
    const badges = formatFilterBadges(definitions, {
      adjuster: 'Jane',
      loss_date: { from: '2024-01-01', to: '2024-01-31' },
      status: ['open', 'closed'],
      lob: 'auto',
      unknown: 'x',
      empty: '',
    });
    expect(badges.map((b) => [b.key, b.label, b.value])).toEqual([
      ['status:open', 'Status', 'Open'],
      ['status:closed', 'Status', 'Closed'],
      ['lob', 'Line', 'Auto'],
      ['loss_date', 'Loss date', '01/01/2024-01/31/2024'],
      ['adjuster', 'Adjuster', 'Jane'],
    ]);
  });

  it('skips empty values and empty ranges', () => {
    expect(
      formatFilterBadges(definitions, { status: undefined, loss_date: { from: null, to: null }, adjuster: null }),
    ).toEqual([]);
  });

  it('removing a badge removes one option or the whole filter', () => {
    const active = { status: ['open', 'closed'], lob: 'auto' };
    const badges = formatFilterBadges(definitions, active);
    const withoutOpen = removeFilterBadge(active, badges[0]!);
    expect(withoutOpen).toEqual({ status: ['closed'], lob: 'auto' });
    const withoutStatus = removeFilterBadge(withoutOpen, formatFilterBadges(definitions, withoutOpen)[0]!);
    expect(withoutStatus).toEqual({ lob: 'auto' });
    expect(removeFilterBadge(active, badges[2]!)).toEqual({ status: ['open', 'closed'] });
    // The input is not mutated.
    expect(active).toEqual({ status: ['open', 'closed'], lob: 'auto' });
  });
});
