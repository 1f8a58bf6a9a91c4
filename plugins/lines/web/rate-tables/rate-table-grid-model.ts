/**
 * The rate-table editor's grid as plain data: one column per exact key, two per range key (`from`,
 * `to`; an empty cell is an open end), then the value. Cells are text while editing; they become the
 * server's rows (`{ keys, value }`, range keys as `{ from, to }`) only when saved. Pure functions, so
 * the paste rules are unit-tested without a browser.
 */

export interface KeyColumn {
  name: string;
  label?: string;
  match: 'exact' | 'range';
}

export type RangeCell = { from: string | number | null; to: string | number | null };
export type KeyCell = string | number | boolean | RangeCell | null;

export interface TableRow {
  keys: Record<string, KeyCell>;
  value: string;
}

export interface GridColumn {
  /** Header text: the key's name, `<key> from` / `<key> to`, or `value`. */
  label: string;
  key: string | null;
  /** Position of the key among the key columns (-1 for the value). */
  keyIndex: number;
  part: 'exact' | 'from' | 'to' | 'value';
}

export type GridCells = string[][];

export interface CellPosition {
  row: number;
  col: number;
}

export function gridColumns(keys: readonly KeyColumn[]): GridColumn[] {
  const columns: GridColumn[] = [];
  keys.forEach((key, keyIndex) => {
    if (key.match === 'range') {
      columns.push({ label: `${key.name} from`, key: key.name, keyIndex, part: 'from' });
      columns.push({ label: `${key.name} to`, key: key.name, keyIndex, part: 'to' });
    } else columns.push({ label: key.name, key: key.name, keyIndex, part: 'exact' });
  });
  columns.push({ label: 'value', key: null, keyIndex: -1, part: 'value' });
  return columns;
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export function rowsToCells(keys: readonly KeyColumn[], rows: readonly TableRow[]): GridCells {
  const columns = gridColumns(keys);
  return rows.map((row) =>
    columns.map((column) => {
      if (column.part === 'value') return text(row.value);
      const cell = row.keys[column.key!];
      if (column.part === 'exact') return typeof cell === 'object' ? '' : text(cell);
      const range = typeof cell === 'object' && cell !== null ? cell : null;
      return text(range?.[column.part]);
    }),
  );
}

export interface CellProblem {
  row: number;
  col: number;
  message: string;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
/** Spreadsheets copy `1,000.50`; the server keeps decimal text without separators. */
export function decimalText(cell: string): string | null {
  const trimmed = cell.trim();
  if (NUMBER.test(trimmed)) return trimmed;
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(trimmed)) return trimmed.replace(/,/g, '');
  return null;
}

/**
 * The grid back to rows. Blank lines are dropped; a value or range bound that is not a number and
 * an empty exact key are problems named by their 0-based row and column (the grid outlines them).
 */
export function cellsToRows(
  keys: readonly KeyColumn[],
  cells: GridCells,
): { rows: TableRow[]; problems: CellProblem[] } {
  const columns = gridColumns(keys);
  const rows: TableRow[] = [];
  const problems: CellProblem[] = [];
  cells.forEach((line, rowIndex) => {
    if (line.every((cell) => cell.trim() === '')) return;
    const row: TableRow = { keys: {}, value: '' };
    columns.forEach((column, col) => {
      const cell = (line[col] ?? '').trim();
      const fail = (message: string) => problems.push({ row: rowIndex, col, message });
      if (column.part === 'value') {
        const value = decimalText(cell);
        if (value === null) fail(cell === '' ? 'The value is empty' : `'${cell}' is not a number`);
        else row.value = value;
      } else if (column.part === 'exact') {
        if (cell === '') fail(`The key '${column.key}' is empty`);
        else row.keys[column.key!] = decimalText(cell) ?? cell;
      } else {
        const range = (row.keys[column.key!] as RangeCell | undefined) ?? { from: null, to: null };
        if (cell === '') range[column.part] = null;
        else {
          const bound = decimalText(cell);
          if (bound === null) fail(`'${cell}' is not a number`);
          range[column.part] = bound;
        }
        row.keys[column.key!] = range;
      }
    });
    rows.push(row);
  });
  return { rows, problems };
}

/**
 * Text copied from a spreadsheet (Excel, LibreOffice, Google Sheets): rows end with a newline
 * (`\r\n` or `\n`), cells are separated by tabs, and a cell holding a tab, a newline or a quote is
 * quoted with doubled quotes inside. The trailing newline spreadsheets add does not make a row.
 */
export function parseClipboardCells(raw: string): GridCells {
  const rows: GridCells = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let atCellStart = true;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (atCellStart && ch === '"') {
      // A quoted cell: read to the closing quote; "" is a quote.
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < raw.length) {
        if (raw[j] === '"') {
          if (raw[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          j += 1;
          break;
        }
        value += raw[j];
        j += 1;
      }
      const next = raw[j];
      if (closed && (next === undefined || next === '\t' || next === '\n' || next === '\r')) {
        cell = value;
        i = j;
        atCellStart = false;
        continue;
      }
      // Not a well-formed quoted cell: take the quote literally.
    }
    atCellStart = false;
    if (ch === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && raw[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
    } else cell += ch;
    i += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

export interface PasteResult {
  cells: GridCells;
  /** The pasted block, clipped to the grid's columns: top-left and bottom-right. */
  from: CellPosition;
  to: CellPosition;
  /** Columns of the paste that fell beyond the last column and were left out. */
  clippedColumns: number;
  addedRows: number;
}

/**
 * Pastes a block of cells with its top-left corner on `at`, like a spreadsheet: cells to the right
 * and below are overwritten, rows are added at the bottom when the block is taller than what is left,
 * and columns beyond the last one are left out (reported in `clippedColumns`).
 */
export function applyPaste(cells: GridCells, at: CellPosition, block: GridCells, columnCount: number): PasteResult {
  const next = cells.map((line) => [...line]);
  const width = Math.max(0, ...block.map((line) => line.length));
  const usable = Math.max(0, Math.min(width, columnCount - at.col));
  let addedRows = 0;
  block.forEach((line, r) => {
    const rowIndex = at.row + r;
    while (next.length <= rowIndex) {
      next.push(Array.from({ length: columnCount }, () => ''));
      addedRows += 1;
    }
    const target = next[rowIndex]!;
    while (target.length < columnCount) target.push('');
    for (let c = 0; c < usable; c += 1) target[at.col + c] = (line[c] ?? '').trim();
  });
  return {
    cells: next,
    from: at,
    to: { row: at.row + Math.max(block.length, 1) - 1, col: at.col + Math.max(usable, 1) - 1 },
    clippedColumns: width - usable,
    addedRows,
  };
}

export function emptyRow(columnCount: number): string[] {
  return Array.from({ length: columnCount }, () => '');
}

/**
 * After the key columns change: each cell stays under the column of the same key and part. While the
 * number of keys is unchanged keys are matched by position (so renaming a key keeps its cells);
 * otherwise by name (a new key starts empty, a removed one drops its cells). Switching a key between
 * exact and range keeps the exact cell as the range's `from`.
 */
export function remapCells(before: readonly GridColumn[], after: readonly GridColumn[], cells: GridCells): GridCells {
  const keyCount = (columns: readonly GridColumn[]) => new Set(columns.map((c) => c.keyIndex)).size;
  const byPosition = keyCount(before) === keyCount(after);
  const sameKey = (old: GridColumn, column: GridColumn) =>
    column.part === 'value'
      ? old.part === 'value'
      : byPosition
        ? old.keyIndex === column.keyIndex
        : old.key === column.key;
  const samePart = (old: GridColumn, column: GridColumn) =>
    old.part === column.part ||
    (old.part === 'exact' && column.part === 'from') ||
    (old.part === 'from' && column.part === 'exact');
  const source = after.map((column) => before.findIndex((old) => sameKey(old, column) && samePart(old, column)));
  return cells.map((line) => source.map((index) => (index >= 0 ? (line[index] ?? '') : '')));
}

/**
 * A block copied with its header row (the names of the grid's columns from `col` on, in any case)
 * loses that row: its cells are the table's own column names, not data.
 */
export function withoutHeaderRow(block: GridCells, columns: readonly GridColumn[], col: number): GridCells {
  const first = block[0];
  if (!first || first.length === 0) return block;
  const isHeader = first.every(
    (cell, i) => columns[col + i] !== undefined && cell.trim().toLowerCase() === columns[col + i]!.label.toLowerCase(),
  );
  return isHeader ? block.slice(1) : block;
}
