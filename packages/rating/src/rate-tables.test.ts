import { describe, expect, it } from 'vitest';
import { Decimal } from './decimal.js';
import { RateTableLookupError, type DefinitionProblem } from './errors.js';
import { CompiledRateTable } from './rate-tables.js';

const d = (v: string | number) => new Decimal(v);

describe('rate tables', () => {
  const relativity = new CompiledRateTable({
    name: 'coverage_a_relativity',
    keys: [{ name: 'construction' }, { name: 'coverage_a' }],
    interpolate: 'coverage_a',
    rows: [
      // Deliberately out of order: the table sorts on the interpolation column.
      { keys: { construction: 'frame', coverage_a: 300000 }, value: 1.15 },
      { keys: { construction: 'frame', coverage_a: 100000 }, value: 0.8 },
      { keys: { construction: 'frame', coverage_a: 200000 }, value: 1.0 },
      { keys: { construction: 'masonry', coverage_a: 100000 }, value: 0.7 },
      { keys: { construction: 'masonry', coverage_a: 400000 }, value: 1.3 },
    ],
  });

  it('interpolates linearly between the two neighbouring rows and shows the weights', () => {
    const { value, read } = relativity.lookup(['frame', d(230000)]);
    // 1.00 + (1.15 − 1.00) × (230000 − 200000) / (300000 − 200000) = 1.00 + 0.15 × 0.3 = 1.045
    expect(value.toFixed()).toBe('1.045');
    expect(read.row).toBeNull();
    expect(read.interpolation).toEqual({
      column: 'coverage_a',
      x: '230000',
      lower: { row: 2, x: '200000', value: '1' },
      upper: { row: 0, x: '300000', value: '1.15' },
      weight: '0.3',
    });
    // The other key picks its own rows: 0.7 + 0.6 × 150000/300000 = 1.0
    expect(relativity.lookup(['masonry', d(250000)]).value.toFixed()).toBe('1');
    // A third of the way: 0.7 + 0.6 × 100000 / 300000 = 0.9 exactly (multiplied before dividing).
    expect(relativity.lookup(['masonry', d(200000)]).value.toFixed()).toBe('0.9');
  });

  it('takes an exact row on a row, and the nearest end row outside the table', () => {
    expect(relativity.lookup(['frame', d(200000)])).toMatchObject({ read: { row: 2, value: '1' } });
    expect(relativity.lookup(['frame', d(50000)]).value.toFixed()).toBe('0.8');
    expect(relativity.lookup(['frame', d(900000)]).value.toFixed()).toBe('1.15');
  });

  const roof = new CompiledRateTable({
    name: 'roof_age_factor',
    keys: [{ name: 'roof_age', match: 'range' }],
    rows: [
      { keys: { roof_age: { from: 20, to: null } }, value: 1.25 },
      { keys: { roof_age: { from: 0, to: 10 } }, value: 1.0 },
      { keys: { roof_age: { from: 10, to: 20 } }, value: 1.1 },
    ],
  });

  it('matches range keys with an inclusive lower and exclusive upper bound', () => {
    const at = (age: string) => roof.lookup([d(age)]).value.toFixed();
    expect(at('0')).toBe('1');
    expect(at('9.99')).toBe('1');
    expect(at('10')).toBe('1.1'); // 10 is the lower bound of [10, 20), not the upper of [0, 10)
    expect(at('19.999')).toBe('1.1');
    expect(at('20')).toBe('1.25');
    expect(at('150')).toBe('1.25'); // open upper end
    expect(roof.lookup([d(10)]).read.row).toBe(2);
    expect(() => roof.lookup([d(-1)])).toThrow(RateTableLookupError);
  });

  it('combines exact and range keys and falls back to the default', () => {
    const table = new CompiledRateTable({
      name: 'construction_protection',
      keys: [{ name: 'construction' }, { name: 'protection_class', match: 'range' }, { name: 'sprinklered' }],
      default: 1.5,
      rows: [
        { keys: { construction: 'frame', protection_class: { from: 1, to: 5 }, sprinklered: true }, value: 0.9 },
        { keys: { construction: 'frame', protection_class: { from: 1, to: 5 }, sprinklered: false }, value: 1.0 },
        { keys: { construction: 'frame', protection_class: { from: 5, to: 9 }, sprinklered: false }, value: 1.1 },
      ],
    });
    expect(table.lookup(['frame', d(4), true]).value.toFixed()).toBe('0.9');
    expect(table.lookup(['frame', '4', false]).value.toFixed()).toBe('1');
    expect(table.lookup(['frame', d(5), false]).value.toFixed()).toBe('1.1');
    const fallback = table.lookup(['frame', d(9), false]);
    expect(fallback.value.toFixed()).toBe('1.5');
    expect(fallback.read).toEqual({
      table: 'construction_protection',
      keys: { construction: 'frame', protection_class: '9', sprinklered: 'false' },
      row: null,
      value: '1.5',
      usedDefault: true,
    });
  });

  it('matches exact numeric keys by value and names table and keys when nothing matches', () => {
    const table = new CompiledRateTable({
      name: 'deductible_credit',
      keys: [{ name: 'deductible' }, { name: 'form' }],
      rows: [{ keys: { deductible: 1000, form: 'HO3' }, value: 0.05 }],
    });
    expect(table.lookup([d('1000.00'), 'HO3']).value.toFixed()).toBe('0.05');
    expect(table.lookup(['1000', 'HO3']).value.toFixed()).toBe('0.05');
    expect(() => table.lookup([d(750), 'HO3'])).toThrow(
      "Rate table 'deductible_credit' has no row for deductible=750, form=HO3 and no default",
    );
  });

  it('reports malformed rows and a bad interpolation column', () => {
    const problems: DefinitionProblem[] = [];
    new CompiledRateTable(
      {
        name: 'bad',
        keys: [{ name: 'age', match: 'range' }, { name: 'x' }],
        interpolate: 'y',
        rows: [{ keys: { age: 3, x: 1 }, value: 1 }],
      },
      problems,
    );
    expect(problems.map((p) => p.message)).toEqual([
      "Rate table 'bad': interpolate names 'y', which is not one of its keys",
      "Rate table 'bad': row 0 needs { from, to } for range key 'age'",
    ]);
  });

  it('reports duplicate rows, overlapping ranges and empty ranges', () => {
    const problems: DefinitionProblem[] = [];
    new CompiledRateTable(
      {
        name: 'dup',
        keys: [{ name: 'zip' }],
        rows: [
          { keys: { zip: '1' }, value: 1 },
          { keys: { zip: 1 }, value: 2 },
        ],
      },
      problems,
    );
    new CompiledRateTable(
      {
        name: 'ages',
        keys: [{ name: 'age', match: 'range' }],
        rows: [
          { keys: { age: { from: 0, to: 10 } }, value: 1 },
          { keys: { age: { from: 5, to: 20 } }, value: 2 },
          { keys: { age: { from: 30, to: 30 } }, value: 3 },
        ],
      },
      problems,
    );
    expect(problems.map((p) => p.message)).toEqual([
      "Rate table 'dup': rows 0, 1 have the same keys",
      "Rate table 'ages': row 2 has an empty range on 'age' (from must be below to)",
      "Rate table 'ages': rows 0 and 1 overlap on 'age'",
    ]);
  });

  it('finds ranges by binary search in a large table', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      keys: { amount: { from: i * 100, to: (i + 1) * 100 } },
      value: i,
    }));
    const table = new CompiledRateTable({ name: 'big', keys: [{ name: 'amount', match: 'range' }], rows });
    expect(table.lookup([d(0)]).value.toNumber()).toBe(0);
    expect(table.lookup([d(123456)]).value.toNumber()).toBe(1234);
    expect(table.lookup([d(999999.5)]).value.toNumber()).toBe(9999);
    expect(() => table.lookup([d(1000000)])).toThrow(RateTableLookupError);
  });
});
