import { CompiledRateTable, Decimal } from '@atrium/rating';
import { describe, expect, it } from 'vitest';
import { numberText, parseRangeCell } from '../../server/rate-tables/rate-table-cells.js';
import {
  parseDelimited,
  readGridFile,
  readXlsx,
  writeDelimited,
  writeXlsx,
} from '../../server/rate-tables/rate-table-files.js';
import { readGrid, writeGrid } from '../../server/rate-tables/rate-table-grid.js';
import { toDefinition, validateRateTable } from '../../server/rate-tables/rate-table-validation.js';

describe('cells', () => {
  it('reads numbers with thousands separators and refuses text', () => {
    expect(numberText('1,000.50')).toBe('1000.50');
    expect(numberText(' -2.5 ')).toBe('-2.5');
    expect(numberText('1,00')).toBeNull();
    expect(numberText('abc')).toBeNull();
  });

  it('reads ranges written in one cell', () => {
    expect(parseRangeCell('0-100000')).toEqual({ from: '0', to: '100000' });
    expect(parseRangeCell('0 - 100,000')).toEqual({ from: '0', to: '100000' });
    expect(parseRangeCell('250000+')).toEqual({ from: '250000', to: null });
    expect(parseRangeCell('250000-')).toEqual({ from: '250000', to: null });
    expect(parseRangeCell('..1000')).toEqual({ from: null, to: '1000' });
    expect(parseRangeCell('-10..0')).toEqual({ from: '-10', to: '0' });
    expect(parseRangeCell('5 to 10')).toEqual({ from: '5', to: '10' });
    expect(parseRangeCell('abc')).toBeNull();
    expect(parseRangeCell('-')).toBeNull();
  });
});

describe('paste of tab-separated cells', () => {
  const paste = 'territory\tcoverage_a\tvalue\n1\t0-100000\t1.05\n1\t100000+\t1.10\n2\t0-100,000\t0.95\n';

  it('reads key columns, ranges in one cell and the value column', () => {
    const result = readGrid(parseDelimited(paste, '\t'), [
      { name: 'territory', match: 'exact' },
      { name: 'coverage_a', match: 'range' },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows).toEqual([
      { keys: { territory: '1', coverage_a: { from: '0', to: '100000' } }, value: '1.05' },
      { keys: { territory: '1', coverage_a: { from: '100000', to: null } }, value: '1.10' },
      { keys: { territory: '2', coverage_a: { from: '0', to: '100000' } }, value: '0.95' },
    ]);
    expect(result.rowNumbers).toEqual([2, 3, 4]);
  });

  it('infers keys for a new table: from/to pairs and range-written columns are range keys', () => {
    const text = 'Value\tzip\tage from\tage to\tamount\n1.2\t78701\t0\t25\t0-1000\n1\t78701\t25\t\t1000+\n';
    const result = readGrid(parseDelimited(text, '\t'));
    expect(result.problems).toEqual([]);
    expect(result.keys).toEqual([
      { name: 'zip', match: 'exact' },
      { name: 'age', match: 'range' },
      { name: 'amount', match: 'range' },
    ]);
    expect(result.rows[1]).toEqual({
      keys: { zip: '78701', age: { from: '25', to: null }, amount: { from: '1000', to: null } },
      value: '1',
    });
  });

  it('takes the last column as the value when none is named value, and skips empty lines', () => {
    const result = readGrid(parseDelimited('zip\tfactor\n78701\t1.12\n\t\n78702\t0.9', '\t'));
    expect(result.problems).toEqual([]);
    expect(result.keys).toEqual([{ name: 'zip', match: 'exact' }]);
    expect(result.rows.map((r) => r.value)).toEqual(['1.12', '0.9']);
    expect(result.rowNumbers).toEqual([2, 4]);
  });

  it('names the row and column of every bad cell', () => {
    const text = 'territory\tcoverage_a\tvalue\n1\t0-100000\tabc\n\tx\t1\n';
    const result = readGrid(parseDelimited(text, '\t'), [
      { name: 'territory', match: 'exact' },
      { name: 'coverage_a', match: 'range' },
    ]);
    expect(result.rows).toEqual([]);
    expect(result.problems.map((p) => p.message)).toEqual([
      "Row 2, column 'value': 'abc' is not a number",
      "Row 3, column 'territory': the key is empty",
      "Row 3, column 'coverage_a': 'x' is not a range (write from-to, e.g. 0-100000, or 250000+ for 250000 and above)",
    ]);
  });

  it('refuses a header that does not name the table keys', () => {
    const result = readGrid(parseDelimited('zip\tcolour\tvalue\n1\t2\t3', '\t'), [
      { name: 'zip', match: 'exact' },
      { name: 'age', match: 'range' },
    ]);
    expect(result.problems.map((p) => p.message)).toEqual([
      "Row 1, column 'colour': not a key of this table (keys: zip, age) nor the value column",
      "Row 1: The header has no column for the key 'age'",
    ]);
    expect(readGrid([['value']]).problems[0]!.message).toMatch(/at least two columns/);
  });

  it('reads plain from/to columns for the one range key of a table', () => {
    const result = readGrid(parseDelimited('from\tto\tvalue\n0\t10\t1\n10\t\t2', '\t'), [
      { name: 'age', match: 'range' },
    ]);
    expect(result.problems).toEqual([]);
    expect(result.rows[1]!.keys).toEqual({ age: { from: '10', to: null } });
  });

  it('handles quoted cells a spreadsheet puts on the clipboard', () => {
    const grid = parseDelimited('name\tvalue\n"frame, brick"\t1.5\n', '\t');
    expect(grid[1]).toEqual(['frame, brick', '1.5']);
  });
});

describe('validation', () => {
  const keys = [
    { name: 'territory', match: 'exact' as const },
    { name: 'coverage_a', match: 'range' as const },
  ];
  const range = (from: string | null, to: string | null) => ({ from, to });

  it('accepts a table the engine can compile', () => {
    const rows = [
      { keys: { territory: '1', coverage_a: range('0', '100') }, value: '1' },
      { keys: { territory: '1', coverage_a: range('100', null) }, value: '2' },
      { keys: { territory: '2', coverage_a: range('0', '100') }, value: '3' },
    ];
    expect(validateRateTable({ name: 't', keys }, rows)).toEqual([]);
  });

  it('reports overlapping ranges and duplicate rows by row number', () => {
    const rows = [
      { keys: { territory: '1', coverage_a: range('0', '100') }, value: '1' },
      { keys: { territory: '1', coverage_a: range('50', '150') }, value: '2' },
      { keys: { territory: '1.0', coverage_a: range('0', '100') }, value: '3' },
    ];
    expect(validateRateTable({ name: 't', keys }, rows, [2, 3, 4]).map((p) => p.message)).toEqual([
      "Row 3, column 'coverage_a': the range 50-150 overlaps row 2 (0-100)",
      'Row 4: has the same keys as row 2',
      "Row 4, column 'coverage_a': the range 0-100 overlaps row 3 (50-150)",
    ]);
    const exactRows = [
      { keys: { zip: '1000' }, value: '1' },
      { keys: { zip: '1000.00' }, value: '2' },
    ];
    expect(validateRateTable({ name: 't', keys: [{ name: 'zip', match: 'exact' }] }, exactRows)).toEqual([
      { row: 2, message: 'Row 2: has the same keys as row 1' },
    ]);
  });

  it('reports non-numeric values, empty ranges and bad interpolation columns', () => {
    const rows = [
      { keys: { territory: '1', coverage_a: range('100', '100') }, value: 'x' },
      { keys: { territory: '1', coverage_a: range('a', null) }, value: '1' },
    ];
    expect(validateRateTable({ name: 't', keys }, rows).map((p) => p.message)).toEqual([
      "Row 1, column 'coverage_a': the range 100-100 is empty (from must be below to)",
      "Row 1, column 'value': 'x' is not a number",
      "Row 2, column 'coverage_a': 'a' is not a number (from)",
    ]);
    expect(validateRateTable({ name: 't', keys, interpolate: 'coverage_a' }, [])[0]!.message).toBe(
      "Column 'coverage_a': only an exact (numeric) key can be interpolated",
    );
    expect(
      validateRateTable({ name: 't', keys: [{ name: 'a', match: 'exact' }], interpolate: 'a' }, [
        { keys: { a: 'ten' }, value: '1' },
      ])[0]!.message,
    ).toBe("Row 1, column 'a': 'ten' is not a number (the table interpolates on this key)");
    expect(validateRateTable({ name: 't', keys, default: 'abc' }, [])[0]!.message).toBe(
      "Column 'default': 'abc' is not a number",
    );
  });

  it('looks up in a validated table exactly as the engine does, with interpolation', () => {
    const table = {
      name: 'coverage',
      keys: [
        { name: 'form', match: 'exact' as const },
        { name: 'coverage_a', match: 'exact' as const },
      ],
      interpolate: 'coverage_a',
    };
    const grid = readGrid(
      parseDelimited('form\tcoverage_a\tvalue\nHO3\t200,000\t1.00\nHO3\t300000\t1.15\n', '\t'),
      table.keys,
    );
    expect(validateRateTable(table, grid.rows, grid.rowNumbers)).toEqual([]);
    const compiled = new CompiledRateTable(toDefinition(table, grid.rows));
    expect(compiled.lookup(['HO3', new Decimal('250000')]).value.toFixed()).toBe('1.075');
  });
});

describe('files', () => {
  const keys = [
    { name: 'territory', match: 'exact' as const },
    { name: 'coverage_a', match: 'range' as const },
  ];
  const rows = [
    { keys: { territory: 'north, east', coverage_a: { from: '0', to: '100000' } }, value: '1.050' },
    { keys: { territory: '2', coverage_a: { from: '100000', to: null } }, value: '0.123456789012345678' },
  ];

  it('writes range keys as from/to columns and reads CSV back to the same rows', () => {
    const grid = writeGrid(keys, rows);
    expect(grid[0]).toEqual(['territory', 'coverage_a from', 'coverage_a to', 'value']);
    const csv = writeDelimited(grid, ',');
    expect(csv).toContain('"north, east",0,100000,1.050');
    const back = readGrid(parseDelimited(csv, ','), keys);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(rows);
  });

  it('round-trips XLSX keeping every decimal digit', async () => {
    const data = await writeXlsx(writeGrid(keys, rows), 'coverage/factor');
    const { grid, format } = await readGridFile(data, { filename: 'rates.xlsx' });
    expect(format).toBe('xlsx');
    const back = readGrid(grid, keys);
    expect(back.problems).toEqual([]);
    expect(back.rows).toEqual(rows);
  });

  it('reads numbers typed into a spreadsheet as their decimal text', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('x');
    sheet.addRow(['zip', 'value']);
    sheet.addRow([78701, 0.1]);
    sheet.addRow([78702, 1e-7]);
    const grid = await readXlsx(Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer));
    expect(grid).toEqual([
      ['zip', 'value'],
      ['78701', '0.1'],
      ['78702', '0.0000001'],
    ]);
  });

  it('refuses a file that is not a workbook', async () => {
    await expect(readGridFile(Buffer.from('PK not really'), { filename: 'x.xlsx' })).rejects.toThrow(
      /not an XLSX workbook/,
    );
  });
});
