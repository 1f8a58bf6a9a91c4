import type { KeyCell, RangeCell } from '@atrium/rating';

/**
 * Reading and writing single cells of a rate-table grid (a paste, a CSV/TSV line, an XLSX row).
 * Numbers are kept as decimal text (never floats); spreadsheet thousands separators are dropped.
 */
const PLAIN_NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;
const GROUPED_NUMBER = /^-?\d{1,3}(,\d{3})+(\.\d+)?$/;

/** The decimal text of a numeric cell (`1,000.50` → `1000.50`), or null when it is not a number. */
export function numberText(cell: string): string | null {
  const text = cell.trim();
  if (PLAIN_NUMBER.test(text)) return text;
  if (GROUPED_NUMBER.test(text)) return text.replace(/,/g, '');
  return null;
}

const NUM = String.raw`-?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?`;
/** `0-100000`, `0 - 100000`, `0..100000`, `0–100000` (en dash), `100000-` / `100000+` (open above), `-100000` / `..100000` (open below). */
const RANGE = new RegExp(String.raw`^(${NUM})\s*(?:\.\.|–|—|-|\bto\b)\s*(${NUM})$`, 'i');
const OPEN_ABOVE = new RegExp(String.raw`^(${NUM})\s*\+$`);

/**
 * A range written in one cell. The separator is `-`, `..`, `–` or `to`; a missing end is open
 * (`250000-` or `250000+`: 250000 and above; `-1000` or `..1000`: below 1000). Bounds may be negative
 * when written with `..` or `to` (`-10..0`) or first (`-10-0`).
 */
export function parseRangeCell(cell: string): RangeCell | null {
  const text = cell.trim();
  if (text === '') return null;
  const above = OPEN_ABOVE.exec(text);
  if (above) {
    const from = numberText(above[1]!);
    return from === null ? null : { from, to: null };
  }
  const match = RANGE.exec(text);
  if (!match) return null;
  const [fromText, toText] = [match[1]!, match[2]!];
  const from = fromText === '' ? null : numberText(fromText);
  const to = toText === '' ? null : numberText(toText);
  if ((fromText !== '' && from === null) || (toText !== '' && to === null)) return null;
  if (from === null && to === null) return null;
  return { from, to };
}

/** One range bound from its own column (`from` / `to`): empty means open. */
export function parseBoundCell(cell: string): { ok: true; value: string | null } | { ok: false } {
  const text = cell.trim();
  if (text === '') return { ok: true, value: null };
  const value = numberText(text);
  return value === null ? { ok: false } : { ok: true, value };
}

/** An exact key cell: numbers lose their thousands separators, `TRUE`/`FALSE` stay text. */
export function exactKeyText(cell: string): string {
  const text = cell.trim();
  return numberText(text) ?? text;
}

/** How a cell is written back: a range as `from-to` (open ends empty), anything else as its text. */
export function keyCellText(cell: KeyCell | undefined): string {
  if (cell === undefined || cell === null) return '';
  if (typeof cell === 'object') return `${cell.from ?? ''}-${cell.to ?? ''}`;
  return String(cell);
}

export function boundText(value: number | string | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}
