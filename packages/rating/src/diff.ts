import { Decimal, isNumericString } from './decimal.js';
import type { TableRead } from './rate-tables.js';
import { worksheetRisks, type Worksheet, type WorksheetLine, type WorksheetRisk } from './worksheet.js';

export interface WorksheetDifference {
  kind:
    | 'premium'
    | 'risk_missing'
    | 'risk_added'
    | 'calculation_missing'
    | 'calculation_added'
    | 'formula'
    | 'value'
    | 'input'
    | 'table';
  /** Risk path (see Worksheet); absent for premium differences. */
  path?: string;
  calculation?: string;
  /** The premium figure, input name or rate table that differs. */
  name?: string;
  expected?: string;
  actual?: string;
  message: string;
}

function same(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  if (a !== undefined && b !== undefined && isNumericString(a) && isNumericString(b)) {
    return new Decimal(a).equals(new Decimal(b));
  }
  return false;
}

function tableText(read: TableRead): string {
  const keys = Object.entries(read.keys)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return `${read.table}(${keys})`;
}

/**
 * Lists, factor by factor, how `actual` differs from `expected` (e.g. a known-answer case): the
 * premiums, then per risk (matched by path) and calculation (matched by name) the formula, the
 * value, every input whose value changed and every rate-table read whose keys or value changed.
 * An empty list means the two worksheets agree.
 */
export function diffWorksheets(expected: Worksheet, actual: Worksheet): WorksheetDifference[] {
  const out: WorksheetDifference[] = [];
  for (const name of ['termPremium', 'fullyEarnedPremium', 'proRataPremium', 'returnPremium'] as const) {
    const e = expected.term[name];
    const a = actual.term[name];
    if (!same(e, a)) {
      out.push({ kind: 'premium', name, expected: e, actual: a, message: `${name}: expected ${e}, got ${a}` });
    }
  }
  const expectedRisks = new Map([...worksheetRisks(expected.root)].map((r) => [r.path, r]));
  const actualRisks = new Map([...worksheetRisks(actual.root)].map((r) => [r.path, r]));
  for (const [path, e] of expectedRisks) {
    const a = actualRisks.get(path);
    if (!a) out.push({ kind: 'risk_missing', path, message: `Risk ${path} is missing` });
    else diffRisk(e, a, out);
  }
  for (const path of actualRisks.keys()) {
    if (!expectedRisks.has(path)) out.push({ kind: 'risk_added', path, message: `Risk ${path} was not expected` });
  }
  return out;
}

function diffRisk(expected: WorksheetRisk, actual: WorksheetRisk, out: WorksheetDifference[]): void {
  const path = expected.path;
  const lines = (r: WorksheetRisk) => new Map([...r.computedFields, ...r.calculations].map((l) => [l.name, l]));
  const e = lines(expected);
  const a = lines(actual);
  for (const [name, line] of e) {
    const other = a.get(name);
    if (!other) {
      out.push({ kind: 'calculation_missing', path, calculation: name, message: `${path} › ${name} is missing` });
    } else diffLine(path, line, other, out);
  }
  for (const name of a.keys()) {
    if (!e.has(name)) {
      out.push({ kind: 'calculation_added', path, calculation: name, message: `${path} › ${name} was not expected` });
    }
  }
}

function diffLine(path: string, e: WorksheetLine, a: WorksheetLine, out: WorksheetDifference[]): void {
  const at = `${path} › ${e.name}`;
  const base = { path, calculation: e.name };
  if (e.formula !== a.formula) {
    out.push({ ...base, kind: 'formula', expected: e.formula, actual: a.formula, message: `${at}: formula changed` });
  }
  if (!same(e.value, a.value)) {
    out.push({
      ...base,
      kind: 'value',
      expected: e.value,
      actual: a.value,
      message: `${at}: expected ${e.value}, got ${a.value}`,
    });
  }
  const inputs = new Map(a.inputs.map((i) => [`${i.kind}:${i.name}`, i]));
  for (const input of e.inputs) {
    const other = inputs.get(`${input.kind}:${input.name}`);
    if (!other || !same(input.value, other.value)) {
      out.push({
        ...base,
        kind: 'input',
        name: input.name,
        expected: input.value,
        actual: other?.value,
        message: `${at}: ${input.kind} ${input.name} expected ${input.value}, got ${other?.value ?? 'nothing'}`,
      });
    }
  }
  const count = Math.max(e.tables.length, a.tables.length);
  for (let i = 0; i < count; i++) {
    const te = e.tables[i];
    const ta = a.tables[i];
    const ke = te && tableText(te);
    const ka = ta && tableText(ta);
    if (ke !== ka || !same(te?.value, ta?.value)) {
      out.push({
        ...base,
        kind: 'table',
        name: (te ?? ta)!.table,
        expected: te && `${ke} = ${te.value}`,
        actual: ta && `${ka} = ${ta.value}`,
        message: `${at}: rate table read ${te ? `${ke} = ${te.value}` : 'none'} became ${ta ? `${ka} = ${ta.value}` : 'none'}`,
      });
    }
  }
}
