import { Decimal, decimalText, isNumericString, toDecimal } from './decimal.js';
import { RateTableLookupError, type DefinitionProblem } from './errors.js';
import type { KeyCell, RangeCell, RateTableDefinition } from './product.js';

/** What a lookup read, for the worksheet. Row numbers are 0-based indexes into the table's rows. */
export interface TableRead {
  table: string;
  keys: Record<string, string>;
  /** The row that gave the value; null when the default was used or the value was interpolated. */
  row: number | null;
  value: string;
  usedDefault?: true;
  interpolation?: {
    column: string;
    x: string;
    lower: { row: number; x: string; value: string };
    upper: { row: number; x: string; value: string };
    /** (x − lower.x) / (upper.x − lower.x); value = lower + (upper − lower) × weight. */
    weight: string;
  };
}

/** A value a key can be looked up with. */
export type KeyValue = Decimal | string | boolean;

/** Canonical texts of string keys already seen (answers repeat: zips, classes, codes). */
const stringKeys = new Map<string, string>();

/** Canonical text of a key: numbers (and numeric strings) by numeric value, booleans as true/false. */
export function keyText(value: KeyValue | number): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return decimalText(toDecimal(value));
  if (typeof value === 'string') {
    let text = stringKeys.get(value);
    if (text === undefined) {
      text = isNumericString(value) ? decimalText(new Decimal(value.trim())) : value;
      if (stringKeys.size >= 10_000) stringKeys.clear();
      stringKeys.set(value, text);
    }
    return text;
  }
  return decimalText(value);
}

function isRangeCell(cell: KeyCell | undefined): cell is RangeCell {
  return typeof cell === 'object' && cell !== null && ('from' in cell || 'to' in cell);
}

interface CompiledRow {
  index: number;
  ranges: { from: Decimal | null; to: Decimal | null }[];
  x: Decimal | null;
  value: Decimal;
  /** The value as worksheet text, computed once. */
  text: string;
}

function bound(value: number | string | null | undefined): Decimal | null {
  return value === null || value === undefined ? null : toDecimal(value);
}

/** A rate table indexed for lookups: a hash on the exact keys, then binary search on range or x. */
export class CompiledRateTable {
  readonly keyNames: string[];
  private readonly exactPositions: number[] = [];
  private readonly rangePositions: number[] = [];
  private interpolatePosition = -1;
  private readonly buckets = new Map<string, CompiledRow[]>();
  private readonly defaultValue: Decimal | null;

  constructor(
    readonly definition: RateTableDefinition,
    problems: DefinitionProblem[] = [],
  ) {
    const def = definition;
    this.keyNames = def.keys.map((k) => k.name);
    def.keys.forEach((key, i) => {
      if (key.name === def.interpolate) this.interpolatePosition = i;
      else if (key.match === 'range') this.rangePositions.push(i);
      else this.exactPositions.push(i);
    });
    const problem = (message: string) =>
      problems.push({ code: 'invalid_definition', table: def.name, message: `Rate table '${def.name}': ${message}` });
    if (def.interpolate !== undefined && this.interpolatePosition < 0) {
      problem(`interpolate names '${def.interpolate}', which is not one of its keys`);
    }
    if (this.interpolatePosition >= 0 && def.keys[this.interpolatePosition]!.match === 'range') {
      problem(`interpolation column '${def.interpolate}' must be an exact (numeric) key`);
    }
    this.defaultValue = def.default === undefined ? null : toDecimal(def.default);
    def.rows.forEach((row, index) => {
      try {
        const exact = this.exactPositions.map((i) => {
          const cell = row.keys[this.keyNames[i]!];
          if (cell === undefined || isRangeCell(cell)) throw new Error(`needs a value for key '${this.keyNames[i]}'`);
          return keyText(cell);
        });
        const ranges = this.rangePositions.map((i) => {
          const cell = row.keys[this.keyNames[i]!];
          if (!isRangeCell(cell)) throw new Error(`needs { from, to } for range key '${this.keyNames[i]}'`);
          return { from: bound(cell.from), to: bound(cell.to) };
        });
        let x: Decimal | null = null;
        if (this.interpolatePosition >= 0) {
          const cell = row.keys[this.keyNames[this.interpolatePosition]!];
          if (typeof cell !== 'number' && !(typeof cell === 'string' && isNumericString(cell))) {
            throw new Error(`needs a number for interpolation key '${def.interpolate}'`);
          }
          x = toDecimal(cell);
        }
        const value = toDecimal(row.value);
        const compiled: CompiledRow = { index, ranges, x, value, text: decimalText(value) };
        const bucketKey = exact.join('\u0001');
        const bucket = this.buckets.get(bucketKey);
        if (bucket) bucket.push(compiled);
        else this.buckets.set(bucketKey, [compiled]);
      } catch (error) {
        problem(`row ${index} ${(error as Error).message}`);
      }
    });
    for (const rows of this.buckets.values()) {
      const where = (row: CompiledRow) => `row ${row.index}`;
      for (const row of rows) {
        row.ranges.forEach(({ from, to }, r) => {
          if (from !== null && to !== null && !from.lessThan(to)) {
            problem(
              `${where(row)} has an empty range on '${this.keyNames[this.rangePositions[r]!]}' (from must be below to)`,
            );
          }
        });
      }
      if (this.interpolatePosition >= 0) {
        rows.sort((a, b) => a.x!.comparedTo(b.x!));
        if (this.rangePositions.length === 0) {
          for (let i = 1; i < rows.length; i++) {
            if (rows[i]!.x!.equals(rows[i - 1]!.x!)) {
              problem(`rows ${rows[i - 1]!.index} and ${rows[i]!.index} have the same keys`);
            }
          }
        }
      } else if (this.rangePositions.length > 0) {
        rows.sort((a, b) => compareFrom(a.ranges[0]!.from, b.ranges[0]!.from));
        // Binary search needs rows that do not overlap on the first range key (rows sharing the same
        // start may differ on later range keys).
        for (let i = 1; i < rows.length; i++) {
          const prev = rows[i - 1]!.ranges[0]!;
          const cur = rows[i]!.ranges[0]!;
          if (compareFrom(prev.from, cur.from) !== 0 && (prev.to === null || prev.to.greaterThan(cur.from!))) {
            problem(
              `rows ${rows[i - 1]!.index} and ${rows[i]!.index} overlap on '${this.keyNames[this.rangePositions[0]!]}'`,
            );
          }
        }
      } else if (rows.length > 1) {
        problem(`rows ${rows.map((r) => r.index).join(', ')} have the same keys`);
      }
    }
  }

  get name(): string {
    return this.definition.name;
  }

  /** Looks up the value for the key values given in key-column order. */
  lookup(values: KeyValue[]): { value: Decimal; read: TableRead } {
    const keys: Record<string, string> = {};
    const texts = values.map((v) => keyText(v));
    this.keyNames.forEach((name, i) => (keys[name] = texts[i] ?? ''));
    const bucketKey = this.exactPositions.map((i) => texts[i]).join('\u0001');
    const rows = this.buckets.get(bucketKey);
    if (rows) {
      const found = this.findInBucket(rows, values, keys);
      if (found) return found;
    }
    if (this.defaultValue) {
      return {
        value: this.defaultValue,
        read: { table: this.name, keys, row: null, value: decimalText(this.defaultValue), usedDefault: true },
      };
    }
    throw new RateTableLookupError(this.name, keys);
  }

  private rangeValue(values: KeyValue[], position: number): Decimal {
    const v = values[position];
    if (v instanceof Decimal) return v;
    if (typeof v === 'string' && isNumericString(v)) return new Decimal(v.trim());
    throw new RateTableLookupError(this.name, { [this.keyNames[position]!]: `${String(v)} (not a number)` });
  }

  private matchesRanges(row: CompiledRow, xs: Decimal[]): boolean {
    for (let r = 0; r < xs.length; r++) {
      const { from, to } = row.ranges[r]!;
      const x = xs[r]!;
      if (from !== null && x.lessThan(from)) return false;
      if (to !== null && !x.lessThan(to)) return false;
    }
    return true;
  }

  private findInBucket(
    rows: CompiledRow[],
    values: KeyValue[],
    keys: Record<string, string>,
  ): { value: Decimal; read: TableRead } | null {
    const xs: Decimal[] = [];
    for (const p of this.rangePositions) xs.push(this.rangeValue(values, p));
    if (this.interpolatePosition >= 0) {
      const candidates = xs.length > 0 ? rows.filter((row) => this.matchesRanges(row, xs)) : rows;
      if (candidates.length === 0) return null;
      return this.interpolate(candidates, this.rangeValue(values, this.interpolatePosition), keys);
    }
    if (xs.length === 0) return this.hit(rows[0]!, keys);
    // Binary search: the last row whose first range starts at or below x; rows sharing that start
    // (differing on later range keys) are checked one by one.
    const x0 = xs[0]!;
    let lo = 0;
    let hi = rows.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const from = rows[mid]!.ranges[0]!.from;
      if (from === null || !x0.lessThan(from)) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (last < 0) return null;
    const start = rows[last]!.ranges[0]!.from;
    for (let j = last; j >= 0 && compareFrom(rows[j]!.ranges[0]!.from, start) === 0; j--) {
      if (this.matchesRanges(rows[j]!, xs)) return this.hit(rows[j]!, keys);
    }
    return null;
  }

  private hit(row: CompiledRow, keys: Record<string, string>): { value: Decimal; read: TableRead } {
    return { value: row.value, read: { table: this.name, keys, row: row.index, value: row.text } };
  }

  private interpolate(
    rows: CompiledRow[],
    x: Decimal,
    keys: Record<string, string>,
  ): { value: Decimal; read: TableRead } {
    const hit = (row: CompiledRow) => this.hit(row, keys);
    const first = rows[0]!;
    const last = rows[rows.length - 1]!;
    if (!x.greaterThan(first.x!)) return hit(first);
    if (!x.lessThan(last.x!)) return hit(last);
    let lo = 0;
    let hi = rows.length - 1;
    // Invariant: rows[lo].x < x < rows[hi].x (equality returns early).
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const c = x.comparedTo(rows[mid]!.x!);
      if (c === 0) return hit(rows[mid]!);
      if (c < 0) hi = mid;
      else lo = mid;
    }
    const lower = rows[lo]!;
    const upper = rows[hi]!;
    const weight = x.minus(lower.x!).dividedBy(upper.x!.minus(lower.x!));
    // Multiply before dividing, so that a value the rows determine exactly comes out exact.
    const value = lower.value.plus(
      upper.value.minus(lower.value).times(x.minus(lower.x!)).dividedBy(upper.x!.minus(lower.x!)),
    );
    return {
      value,
      read: {
        table: this.name,
        keys,
        row: null,
        value: decimalText(value),
        interpolation: {
          column: this.definition.interpolate!,
          x: decimalText(x),
          lower: { row: lower.index, x: decimalText(lower.x!), value: decimalText(lower.value) },
          upper: { row: upper.index, x: decimalText(upper.x!), value: decimalText(upper.value) },
          weight: decimalText(weight),
        },
      },
    };
  }
}

function compareFrom(a: Decimal | null, b: Decimal | null): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return a.comparedTo(b);
}
