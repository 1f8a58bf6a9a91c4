import { describe, expect, it } from 'vitest';
import {
  applyPaste,
  cellsToRows,
  gridColumns,
  parseClipboardCells,
  remapCells,
  withoutHeaderRow,
  rowsToCells,
  type KeyColumn,
} from './rate-table-grid-model.js';

const keys: KeyColumn[] = [
  { name: 'construction', match: 'exact' },
  { name: 'coverage_a', match: 'range' },
];

describe('rate table grid model', () => {
  it('lays out one column per exact key, two per range key, then the value', () => {
    expect(gridColumns(keys).map((c) => c.label)).toEqual([
      'construction',
      'coverage_a from',
      'coverage_a to',
      'value',
    ]);
  });

  it('reads spreadsheet clipboard text: tabs, CRLF, the trailing newline, quoted cells', () => {
    expect(parseClipboardCells('frame\t0\t100000\t1.05\r\nmasonry\t100000\t\t0.95\r\n')).toEqual([
      ['frame', '0', '100000', '1.05'],
      ['masonry', '100000', '', '0.95'],
    ]);
    expect(parseClipboardCells('"a\tb"\t"say ""hi"""\n"two\nlines"\tx')).toEqual([
      ['a\tb', 'say "hi"'],
      ['two\nlines', 'x'],
    ]);
    expect(parseClipboardCells('1.5')).toEqual([['1.5']]);
  });

  it('pastes a block at the selected cell, overwriting to the right and below and adding rows', () => {
    const cells = [
      ['frame', '0', '100000', '1'],
      ['masonry', '0', '100000', '1'],
    ];
    const result = applyPaste(cells, { row: 1, col: 3 }, [['0.9'], ['0.8'], ['0.7']], 4);
    expect(result.cells).toEqual([
      ['frame', '0', '100000', '1'],
      ['masonry', '0', '100000', '0.9'],
      ['', '', '', '0.8'],
      ['', '', '', '0.7'],
    ]);
    expect(result.addedRows).toBe(2);
    expect(result.from).toEqual({ row: 1, col: 3 });
    expect(result.to).toEqual({ row: 3, col: 3 });
    // The original grid is not changed.
    expect(cells[1]![3]).toBe('1');
  });

  it('leaves out pasted columns beyond the last one and says how many', () => {
    const result = applyPaste([['', '', '', '']], { row: 0, col: 2 }, [['1', '2', '3', '4']], 4);
    expect(result.cells).toEqual([['', '', '1', '2']]);
    expect(result.clippedColumns).toBe(2);
  });

  it('turns cells into rows with open range ends and decimal text, and names bad cells', () => {
    const { rows, problems } = cellsToRows(keys, [
      ['frame', '0', '100,000', '1.05'],
      ['', '', '', ''],
      ['masonry', '100000', '', '0.95'],
      ['', 'x', '1', 'abc'],
    ]);
    expect(rows.slice(0, 2)).toEqual([
      { keys: { construction: 'frame', coverage_a: { from: '0', to: '100000' } }, value: '1.05' },
      { keys: { construction: 'masonry', coverage_a: { from: '100000', to: null } }, value: '0.95' },
    ]);
    expect(problems).toEqual([
      { row: 3, col: 0, message: "The key 'construction' is empty" },
      { row: 3, col: 1, message: "'x' is not a number" },
      { row: 3, col: 3, message: "'abc' is not a number" },
    ]);
  });

  it('round-trips rows through cells', () => {
    const rows = [{ keys: { construction: 'frame', coverage_a: { from: '0', to: null } }, value: '1.2' }];
    expect(cellsToRows(keys, rowsToCells(keys, rows)).rows).toEqual(rows);
  });

  it('keeps cells under a renamed key and drops a removed key’s cells', () => {
    const before = gridColumns(keys);
    const renamed = remapCells(before, gridColumns([{ name: 'material', match: 'exact' }, keys[1]!]), [
      ['frame', '0', '1', '2'],
    ]);
    expect(renamed).toEqual([['frame', '0', '1', '2']]);
    const removed = remapCells(before, gridColumns([keys[1]!]), [['frame', '0', '1', '2']]);
    expect(removed).toEqual([['0', '1', '2']]);
  });

  it('drops a pasted header row naming the grid columns, and keeps data rows', () => {
    const columns = gridColumns(keys);
    expect(
      withoutHeaderRow(
        [
          ['Construction', 'coverage_a from'],
          ['frame', '0'],
        ],
        columns,
        0,
      ),
    ).toEqual([['frame', '0']]);
    expect(
      withoutHeaderRow(
        [
          ['coverage_a to', 'VALUE'],
          ['1', '2'],
        ],
        columns,
        2,
      ),
    ).toEqual([['1', '2']]);
    expect(withoutHeaderRow([['frame', '0']], columns, 0)).toEqual([['frame', '0']]);
  });
});
