import { rateTableProblem, type RateTableProblem } from './rate-table-problems.js';
import { boundText, exactKeyText, numberText, parseBoundCell, parseRangeCell } from './rate-table-cells.js';
import type { KeyColumn, TableRow } from './rate-table-shape.js';

/**
 * Turns a grid of cells (a paste from a spreadsheet, a CSV/TSV file, the first sheet of an XLSX
 * workbook) into rate-table rows, and rows back into a grid. The first row is the header:
 *
 * - the value column is headed `value` (any case); without one, the last column is the value;
 * - an exact key column is headed with the key's name;
 * - a range key is either one column headed with its name holding `from-to` cells (`0-100000`,
 *   `250000+`), or two columns headed `<key> from` and `<key> to` (also `<key>_from`, `<key>.from`;
 *   plain `from` / `to` when the table has exactly one range key) where an empty cell is an open end.
 *
 * When the table already has key columns, the header must name each of them (in any order); when it
 * has none (a new table), they are read from the header: from/to pairs are range keys, a column whose
 * every cell is written as a range is a range key, any other column an exact key.
 */
export interface GridResult {
  keys: KeyColumn[];
  rows: TableRow[];
  /** The spreadsheet row (header = 1) each row came from, for messages. */
  rowNumbers: number[];
  problems: RateTableProblem[];
}

type Column =
  | { kind: 'value'; index: number }
  | { kind: 'exact'; key: string; index: number }
  | { kind: 'range'; key: string; index: number }
  | { kind: 'from' | 'to'; key: string; index: number };

const BOUND_HEADER = /^(.*?)[\s_.-]*\b(from|to)$/i;
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function readGrid(cells: string[][], tableKeys: KeyColumn[] = []): GridResult {
  const problems: RateTableProblem[] = [];
  const grid = cells.filter((line, i) => i === 0 || line.some((cell) => cell.trim() !== ''));
  const header = (grid[0] ?? []).map((h) => h.trim());
  while (header.length > 0 && header[header.length - 1] === '') header.pop();
  if (header.length < 2) {
    problems.push(
      rateTableProblem(
        1,
        undefined,
        'The first row must name the key columns and the value column (at least two columns)',
      ),
    );
    return { keys: tableKeys, rows: [], rowNumbers: [], problems };
  }
  const body = grid.slice(1);
  const rowNumberOf = (i: number) => cells.indexOf(body[i]!) + 1;

  let valueIndex = header.findIndex((h) => same(h, 'value'));
  if (valueIndex < 0) valueIndex = header.length - 1;
  const columns: Column[] = [{ kind: 'value', index: valueIndex }];
  const rangeKeys = tableKeys.filter((k) => k.match === 'range');
  header.forEach((h, index) => {
    if (index === valueIndex) return;
    if (h === '') {
      problems.push(rateTableProblem(1, `#${index + 1}`, 'The column has no name'));
      return;
    }
    const known = tableKeys.find((k) => same(k.name, h));
    if (known) {
      columns.push({ kind: known.match, key: known.name, index });
      return;
    }
    const bound = BOUND_HEADER.exec(h);
    if (bound) {
      const base = bound[1]!.trim();
      const side = bound[2]!.toLowerCase() as 'from' | 'to';
      const key =
        base === ''
          ? tableKeys.length > 0
            ? rangeKeys.length === 1
              ? rangeKeys[0]!.name
              : undefined
            : 'range'
          : tableKeys.length > 0
            ? tableKeys.find((k) => same(k.name, base))?.name
            : base;
      const keyDef = tableKeys.find((k) => k.name === key);
      if (key !== undefined && (tableKeys.length === 0 || keyDef?.match === 'range')) {
        columns.push({ kind: side, key, index });
        return;
      }
      if (keyDef) {
        problems.push(rateTableProblem(1, h, `'${keyDef.name}' is an exact key; it takes one column, not from/to`));
        return;
      }
    }
    if (tableKeys.length > 0) {
      problems.push(
        rateTableProblem(
          1,
          h,
          `not a key of this table (keys: ${tableKeys.map((k) => k.name).join(', ')}) nor the value column`,
        ),
      );
      return;
    }
    // A new table: a column whose every cell is written as a range is a range key.
    const filled = body.map((line) => (line[index] ?? '').trim()).filter((c) => c !== '');
    const isRange = filled.length > 0 && filled.every((c) => numberText(c) === null && parseRangeCell(c) !== null);
    columns.push({ kind: isRange ? 'range' : 'exact', key: h, index });
  });

  // The key columns, in header order, each once.
  const keys: KeyColumn[] = [];
  const kindsOf = new Map<string, Set<string>>();
  for (const column of columns) {
    if (column.kind === 'value') continue;
    const kinds = kindsOf.get(column.key) ?? new Set<string>();
    const single = column.kind === 'exact' || column.kind === 'range';
    if (kinds.has(column.kind) || (single && kinds.size > 0) || kinds.has('exact') || kinds.has('range')) {
      problems.push(rateTableProblem(1, header[column.index], `the key '${column.key}' has more than one column`));
      continue;
    }
    if (kinds.size === 0) keys.push({ name: column.key, match: column.kind === 'exact' ? 'exact' : 'range' });
    kinds.add(column.kind);
    kindsOf.set(column.key, kinds);
  }
  for (const key of keys) {
    const hasFrom = columns.some((c) => c.kind === 'from' && c.key === key.name);
    const hasTo = columns.some((c) => c.kind === 'to' && c.key === key.name);
    if (hasFrom !== hasTo) {
      problems.push(
        rateTableProblem(
          1,
          undefined,
          `The range key '${key.name}' needs both a '${key.name} from' and a '${key.name} to' column`,
        ),
      );
    }
  }
  const orderedKeys =
    tableKeys.length > 0 ? tableKeys.filter((k) => keys.some((found) => found.name === k.name)) : keys;
  for (const key of tableKeys) {
    if (!keys.some((k) => k.name === key.name)) {
      problems.push(rateTableProblem(1, undefined, `The header has no column for the key '${key.name}'`));
    }
  }
  if (problems.length > 0) return { keys: tableKeys.length > 0 ? tableKeys : keys, rows: [], rowNumbers: [], problems };

  const rows: TableRow[] = [];
  const rowNumbers: number[] = [];
  body.forEach((line, i) => {
    const rowNumber = rowNumberOf(i);
    const cell = (index: number) => (line[index] ?? '').trim();
    const row: TableRow = { keys: {}, value: '' };
    let ok = true;
    const fail = (column: string, message: string) => {
      problems.push(rateTableProblem(rowNumber, column, message));
      ok = false;
    };
    for (const column of columns) {
      const text = cell(column.index);
      const name = header[column.index]!;
      if (column.kind === 'value') {
        const value = numberText(text);
        if (value === null) fail(name, text === '' ? 'the value is empty' : `'${text}' is not a number`);
        else row.value = value;
      } else if (column.kind === 'exact') {
        if (text === '') fail(name, 'the key is empty');
        else row.keys[column.key] = exactKeyText(text);
      } else if (column.kind === 'range') {
        const range = parseRangeCell(text);
        if (!range) {
          fail(
            name,
            text === ''
              ? 'the range is empty (write from-to, e.g. 0-100000, or 250000+ for 250000 and above)'
              : `'${text}' is not a range (write from-to, e.g. 0-100000, or 250000+ for 250000 and above)`,
          );
        } else row.keys[column.key] = range;
      } else {
        const parsed = parseBoundCell(text);
        if (!parsed.ok) {
          fail(name, `'${text}' is not a number`);
          continue;
        }
        const current = row.keys[column.key];
        const range = typeof current === 'object' && current !== null ? current : { from: null, to: null };
        range[column.kind] = parsed.value;
        row.keys[column.key] = range;
      }
    }
    if (ok) {
      rows.push(row);
      rowNumbers.push(rowNumber);
    }
  });
  return { keys: orderedKeys, rows, rowNumbers, problems };
}

/**
 * A table as a grid: the header, then one line per row. Range keys are written as two columns,
 * `<key> from` and `<key> to` (an open end is an empty cell), so the file reads back unambiguously.
 */
export function writeGrid(keys: KeyColumn[], rows: TableRow[]): string[][] {
  const header: string[] = [];
  for (const key of keys) {
    if (key.match === 'range') header.push(`${key.name} from`, `${key.name} to`);
    else header.push(key.name);
  }
  header.push('value');
  const lines = rows.map((row) => {
    const line: string[] = [];
    for (const key of keys) {
      const cell = row.keys[key.name];
      if (key.match === 'range') {
        const range = typeof cell === 'object' && cell !== null ? cell : { from: null, to: null };
        line.push(boundText(range.from), boundText(range.to));
      } else line.push(cell === undefined || typeof cell === 'object' ? '' : String(cell));
    }
    line.push(row.value);
    return line;
  });
  return [header, ...lines];
}
