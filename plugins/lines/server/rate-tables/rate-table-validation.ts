import {
  CompiledRateTable,
  Decimal,
  type DefinitionProblem,
  type KeyCell,
  type RateTableDefinition,
} from '@atrium/rating';
import { numberText } from './rate-table-cells.js';
import { rateTableProblem, type RateTableProblem } from './rate-table-problems.js';
import type { RateTableShape, TableRow } from './rate-table-shape.js';

/**
 * Checks a rate table before it is stored: key columns, every cell, duplicate rows and overlapping
 * ranges, each problem naming the row and column. Whatever passes here is then compiled by the rating
 * engine (CompiledRateTable), so a stored table always looks up exactly as the engine will; any
 * problem the engine still finds is reported too, its 0-based row indexes turned into row numbers.
 *
 * `rowNumbers[i]` is how row i is named in messages (the spreadsheet row for a paste or a file);
 * by default rows are numbered from 1.
 */
export function validateRateTable(
  table: RateTableShape,
  rows: TableRow[],
  rowNumbers: number[] = rows.map((_, i) => i + 1),
): RateTableProblem[] {
  const problems: RateTableProblem[] = [];
  const numberOf = (i: number) => rowNumbers[i] ?? i + 1;
  const names = new Set<string>();
  for (const key of table.keys) {
    if (key.name.trim() === '') problems.push(rateTableProblem(undefined, undefined, 'A key column has no name'));
    else if (names.has(key.name)) problems.push(rateTableProblem(undefined, key.name, 'the key column is named twice'));
    else if (key.name.toLowerCase() === 'value')
      problems.push(rateTableProblem(undefined, key.name, "'value' is the value column; name the key otherwise"));
    names.add(key.name);
  }
  if (table.interpolate) {
    const key = table.keys.find((k) => k.name === table.interpolate);
    if (!key)
      problems.push(rateTableProblem(undefined, table.interpolate, 'interpolate must name one of the key columns'));
    else if (key.match !== 'exact')
      problems.push(rateTableProblem(undefined, key.name, 'only an exact (numeric) key can be interpolated'));
  }
  if (table.default !== undefined && table.default !== null && numberText(String(table.default)) === null) {
    problems.push(rateTableProblem(undefined, 'default', `'${table.default}' is not a number`));
  }
  if (problems.length > 0) return problems;

  const exactKeys = table.keys.filter((k) => k.match === 'exact');
  const rangeKeys = table.keys.filter((k) => k.match === 'range');
  const cellOk = rows.map((row, i) => {
    let ok = true;
    const fail = (column: string, message: string) => {
      problems.push(rateTableProblem(numberOf(i), column, message));
      ok = false;
    };
    for (const name of Object.keys(row.keys)) {
      if (!names.has(name)) fail(name, 'not a key column of this table');
    }
    for (const key of exactKeys) {
      const cell = row.keys[key.name];
      if (cell === undefined || cell === null || String(cell).trim() === '') fail(key.name, 'the key is empty');
      else if (typeof cell === 'object') fail(key.name, 'an exact key takes one value, not a range');
      else if (key.name === table.interpolate && numberText(String(cell)) === null)
        fail(key.name, `'${String(cell)}' is not a number (the table interpolates on this key)`);
    }
    for (const key of rangeKeys) {
      const cell = row.keys[key.name];
      if (cell === undefined || cell === null || typeof cell !== 'object') {
        fail(key.name, 'a range key takes { from, to }');
        continue;
      }
      const from = cell.from === null ? null : numberText(String(cell.from));
      const to = cell.to === null ? null : numberText(String(cell.to));
      if (cell.from !== null && from === null) fail(key.name, `'${String(cell.from)}' is not a number (from)`);
      else if (cell.to !== null && to === null) fail(key.name, `'${String(cell.to)}' is not a number (to)`);
      else if (from !== null && to !== null && compareDecimalText(from, to) >= 0)
        fail(key.name, `the range ${from}-${to} is empty (from must be below to)`);
    }
    if (numberText(String(row.value)) === null) {
      fail('value', String(row.value).trim() === '' ? 'the value is empty' : `'${String(row.value)}' is not a number`);
    }
    return ok;
  });
  if (problems.length > 0) return problems;

  // Duplicates and overlaps among rows that share their exact keys.
  const buckets = new Map<string, number[]>();
  rows.forEach((row, i) => {
    if (!cellOk[i]) return;
    const bucket = exactKeys.map((k) => exactText(row.keys[k.name]!)).join('\u0001');
    const list = buckets.get(bucket);
    if (list) list.push(i);
    else buckets.set(bucket, [i]);
  });
  for (const list of buckets.values()) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const [i, j] = [list[a]!, list[b]!];
        if (rangeKeys.length === 0) {
          problems.push(rateTableProblem(numberOf(j), undefined, `has the same keys as row ${numberOf(i)}`));
          continue;
        }
        const ri = rows[i]!;
        const rj = rows[j]!;
        const overlapsAll = rangeKeys.every((k) => overlaps(ri.keys[k.name] as Range, rj.keys[k.name] as Range));
        if (!overlapsAll) continue;
        const sameRanges = rangeKeys.every((k) => sameRange(ri.keys[k.name] as Range, rj.keys[k.name] as Range));
        problems.push(
          sameRanges
            ? rateTableProblem(numberOf(j), undefined, `has the same keys as row ${numberOf(i)}`)
            : rateTableProblem(
                numberOf(j),
                rangeKeys[0]!.name,
                `the range ${rangeKeys.map((k) => rangeText(rj.keys[k.name] as Range)).join(' × ')} overlaps row ${numberOf(i)} (${rangeKeys.map((k) => rangeText(ri.keys[k.name] as Range)).join(' × ')})`,
              ),
        );
      }
    }
  }
  if (problems.length > 0) return problems;

  const engineProblems: DefinitionProblem[] = [];
  new CompiledRateTable(toDefinition(table, rows), engineProblems);
  for (const p of engineProblems) {
    const message = p.message
      .replace(`Rate table '${table.name}': `, '')
      .replace(/\brows? ([\d, and]+)/g, (whole, list: string) =>
        whole.replace(
          list,
          list.replace(/\d+/g, (n) => String(numberOf(Number(n)))),
        ),
      );
    problems.push(rateTableProblem(undefined, undefined, message.charAt(0).toUpperCase() + message.slice(1)));
  }
  return problems;
}

/** The engine's definition of a stored table. */
export function toDefinition(table: RateTableShape, rows: TableRow[]): RateTableDefinition {
  const definition: RateTableDefinition = {
    name: table.name,
    keys: table.keys.map((k) => ({ name: k.name, match: k.match })),
    rows: rows.map((row) => ({ keys: row.keys, value: row.value })),
  };
  if (table.interpolate) definition.interpolate = table.interpolate;
  if (table.default !== undefined && table.default !== null && table.default !== '') definition.default = table.default;
  return definition;
}

type Range = { from: number | string | null; to: number | string | null };

function exactText(cell: KeyCell): string {
  const text = String(cell).trim();
  const number = numberText(text);
  return number === null ? text : canonicalNumber(number);
}

/** `1000.00` and `1000` are the same key, as in the engine. */
function canonicalNumber(text: string): string {
  let [int = '0', frac = ''] = text.replace(/^-/, '').split('.');
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  const sign = text.startsWith('-') && (int !== '0' || frac !== '') ? '-' : '';
  return `${sign}${int === '' ? '0' : int}${frac ? `.${frac}` : ''}`;
}

function compareDecimalText(a: string, b: string): number {
  return new Decimal(a).comparedTo(new Decimal(b));
}

function lowerBelow(from: Range['from'], to: Range['to']): boolean {
  if (from === null || to === null) return true;
  return compareDecimalText(String(from), String(to)) < 0;
}

/** Half-open ranges [from, to) overlap when each starts below the other's end. */
function overlaps(a: Range, b: Range): boolean {
  return lowerBelow(a.from, b.to) && lowerBelow(b.from, a.to);
}

function sameRange(a: Range, b: Range): boolean {
  const eq = (x: Range['from'], y: Range['from']) =>
    x === null || y === null ? x === y : compareDecimalText(String(x), String(y)) === 0;
  return eq(a.from, b.from) && eq(a.to, b.to);
}

function rangeText(r: Range): string {
  return `${r.from ?? ''}-${r.to ?? ''}`;
}
