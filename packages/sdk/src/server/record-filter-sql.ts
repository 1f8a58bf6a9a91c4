import { is, sql, Column, SQL } from 'drizzle-orm';
import type { RecordFilter, RecordFilterTerm } from './access.js';

/**
 * Turns a record filter (the access evaluator's `recordFilter`, a residual condition over
 * `record.*`) into a Drizzle `SQL` condition for a list query, so that the database returns only the
 * rows the caller may see and counts and pages stay right.
 *
 * The SQL mirrors the evaluator's in-memory semantics exactly, three-valued: SQL NULL is UNKNOWN, and
 * a WHERE keeps a row only when its condition is TRUE — the evaluator's "allowed". Where SQL cannot
 * mirror a case exactly (a record string like '1e5000' that the evaluator reads as a decimal beyond
 * what PostgreSQL's numeric accepts) the comparison is UNKNOWN, which never widens access: in Kleene
 * logic an UNKNOWN leaf can only turn a TRUE result into UNKNOWN, never the other way round.
 *
 * `columns` maps record attribute names (the part after `record.`) to SQL expressions. A record
 * attribute that is not mapped is UNKNOWN. Each mapping says what JavaScript type the evaluator sees
 * in the record for it: a Drizzle column carries it (integer → number, text/date/numeric → string,
 * boolean → boolean); other expressions give it (`{ sql, type }`). SQL NULL is the record's `null`.
 * Every literal is a bound parameter.
 */
export type RecordColumnType = 'string' | 'number' | 'boolean';
/**
 * An attribute held by a related row (a claim's loss state, in its loss location): `key` is the
 * foreign key on the listed row (NULL: no related row, the attribute is null), `id` the related
 * table's key and `column` the attribute there. Comparisons with it become semi-joins
 * (`key in (select id from related where …)`), which the planner runs as one hash join instead of a
 * lookup per listed row.
 */
export interface RelatedRecordColumn {
  related: { key: Column | SQL; id: Column; column: Column };
}
export type RecordColumn = Column | { sql: SQL | Column; type: RecordColumnType } | RelatedRecordColumn;
export type RecordColumns = Record<string, RecordColumn>;

/** A three-valued SQL condition folded where it is known: true, false, null (UNKNOWN) or SQL. */
type B = boolean | null | SQL;

type TermType = RecordColumnType | 'null' | 'object' | 'other';

interface Term {
  /** Literal known now, or a column (whose value may be NULL at run time). */
  column: boolean;
  type: TermType;
  sql: SQL | null;
  value?: unknown;
}

/** Whitespace String.prototype.trim removes, which parseDecimal trims before reading a decimal. */
const JS_TRIM =
  '\t\n\u000b\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** What parseDecimal reads (after trimming). */
const DECIMAL_TEXT = '^[+-]?([0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]{1,4})?|\\.[0-9]+)$';
/** The part of it PostgreSQL's numeric input accepts (exponents up to ±1000). */
const NUMERIC_TEXT = '^[+-]?([0-9]+(\\.[0-9]*)?([eE][+-]?([0-9]{1,3}|0[0-9]{3}))?|\\.[0-9]+)$';
const ISO_DATE_TEXT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
const LEADING_FRACTION = /^([+-]?)\.(\d+)$/;

/** The evaluator's parseDecimal, answering the canonical decimal text (e.g. "-12.5") or null. */
export function canonicalDecimal(value: unknown): string | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.length > 0 && value.length <= 100 ? value.trim() : '';
  } else {
    return null;
  }
  let sign: string;
  let whole: string;
  let part: string;
  let exponent = 0;
  const match = DECIMAL.exec(text);
  if (match) {
    [sign, whole, part] = [match[1]!, match[2]!, match[3] ?? ''];
    if (match[4]) exponent = Number(match[4]);
  } else {
    const short = LEADING_FRACTION.exec(text);
    if (!short) return null;
    [sign, whole, part] = [short[1]!, '0', short[2]!];
  }
  let digits = whole + part;
  let point = whole.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const integer = digits.slice(0, point).replace(/^0+/, '');
  const fraction = digits.slice(point).replace(/0+$/, '');
  if (integer === '' && fraction === '') return '0';
  return `${sign === '-' ? '-' : ''}${integer || '0'}${fraction ? `.${fraction}` : ''}`;
}

// --- three-valued building blocks, folding what is known ---------------------------------------

const toSql = (b: B): SQL =>
  b === true ? sql`true` : b === false ? sql`false` : b === null ? sql`cast(null as boolean)` : b;

function and(...parts: B[]): B {
  const kept: SQL[] = [];
  let unknown = false;
  for (const part of parts) {
    if (part === false) return false;
    if (part === true) continue;
    if (part === null) unknown = true;
    else kept.push(part);
  }
  if (unknown) kept.push(toSql(null));
  if (kept.length === 0) return true;
  if (kept.length === 1) return unknown ? null : kept[0]!;
  return sql`(${sql.join(kept, sql` and `)})`;
}

function or(...parts: B[]): B {
  const kept: SQL[] = [];
  let unknown = false;
  for (const part of parts) {
    if (part === true) return true;
    if (part === false) continue;
    if (part === null) unknown = true;
    else kept.push(part);
  }
  if (unknown) kept.push(toSql(null));
  if (kept.length === 0) return false;
  if (kept.length === 1) return unknown ? null : kept[0]!;
  return sql`(${sql.join(kept, sql` or `)})`;
}

function not(part: B): B {
  if (part === null) return null;
  if (typeof part === 'boolean') return !part;
  return sql`(not ${part})`;
}

/** if w then t else e, for a two-valued w (never NULL): (w and t) or (not w and e). */
function when(w: B, t: B, e: B): B {
  if (w === true) return t;
  if (w === false || w === null) return e;
  return or(and(w, t), and(not(w), e));
}

// --- terms ---------------------------------------------------------------------------------------

function columnTerm(column: Column | { sql: SQL | Column; type: RecordColumnType }): Term {
  if (is(column, Column)) {
    const type = column.dataType;
    if (type !== 'string' && type !== 'number' && type !== 'boolean') {
      throw new Error(
        `Column ${column.name} (${type}) cannot be a record attribute as is; map it with { sql, type } instead.`,
      );
    }
    // Text columns compare as they are (their indexes stay usable); dates, numerics and the like are
    // strings to the evaluator, so SQL compares their text form.
    const text = type !== 'string' || column.columnType === 'PgText' || column.columnType === 'PgVarchar';
    return { column: true, type, sql: text ? sql`${column}` : sql`cast(${column} as text)` };
  }
  return { column: true, type: column.type, sql: sql`${column.sql}` };
}

function literalTerm(value: unknown): Term {
  switch (typeof value) {
    case 'string':
      return { column: false, type: 'string', sql: sql`cast(${value} as text)`, value };
    case 'number':
      return { column: false, type: 'number', sql: null, value };
    case 'boolean':
      return { column: false, type: 'boolean', sql: sql`cast(${value} as boolean)`, value };
    case 'object':
      return { column: false, type: value === null ? 'null' : 'object', sql: null, value };
    default:
      return { column: false, type: 'other', sql: null, value };
  }
}

/** Whether the value is null (two-valued). */
const isNull = (t: Term): B => (t.column ? sql`${t.sql} is null` : t.type === 'null');
/** Whether the value is of a JavaScript type (two-valued): a column's value is, unless it is NULL. */
const isType = (t: Term, type: TermType): B => (t.type !== type ? false : t.column ? sql`${t.sql} is not null` : true);

interface DecimalForm {
  /** parseDecimal reads it (two-valued). */
  ok: B;
  /** Its numeric value; NULL when not ok, or when PostgreSQL cannot hold it (then comparisons are UNKNOWN). */
  value: SQL | null;
}

function decimal(t: Term): DecimalForm {
  if (!t.column) {
    const canonical = canonicalDecimal(t.value);
    if (canonical === null) return { ok: false, value: null };
    // Integers compare with integer columns without casting the column (the planner keeps its index).
    const integral = /^-?\d{1,18}$/.test(canonical);
    return {
      ok: true,
      value: integral ? sql`cast(${canonical} as bigint)` : sql`cast(${canonical} as numeric)`,
    };
  }
  if (t.type === 'number') return { ok: sql`${t.sql} is not null`, value: t.sql };
  if (t.type === 'string') {
    const trimmed = sql`btrim(${t.sql}, ${JS_TRIM})`;
    const sized = sql`char_length(${t.sql}) between 1 and 100`;
    return {
      ok: sql`(${t.sql} is not null and ${sized} and ${trimmed} ~ ${DECIMAL_TEXT})`,
      value: sql`(case when ${sized} and ${trimmed} ~ ${NUMERIC_TEXT} then cast(${trimmed} as numeric) end)`,
    };
  }
  return { ok: false, value: null };
}

const compare = (a: SQL | null, operator: string, b: SQL | null): B =>
  a === null || b === null ? null : sql`${a} ${sql.raw(operator)} ${b}`;

/** The evaluator's equals(): decimals when either side is a number, otherwise identical values. */
function equals(a: Term, b: Term): B {
  const numeric = or(isType(a, 'number'), isType(b, 'number'));
  const da = decimal(a);
  const db = decimal(b);
  const byDecimal = and(da.ok, db.ok, compare(da.value, '=', db.value));
  const identical = or(
    and(isNull(a), isNull(b)),
    and(isType(a, 'string'), isType(b, 'string'), compare(a.sql, '=', b.sql)),
    and(isType(a, 'boolean'), isType(b, 'boolean'), compare(a.sql, '=', b.sql)),
  );
  return when(numeric, byDecimal, identical);
}

/** Order of two decimals (when the right one is a decimal), else of two ISO dates; else UNKNOWN. */
function order(a: Term, b: Term, operator: '<' | '<=' | '>' | '>='): B {
  const da = decimal(a);
  const db = decimal(b);
  const isoDate = (t: Term): B =>
    t.column
      ? and(isType(t, 'string'), sql`${t.sql} ~ ${ISO_DATE_TEXT}`)
      : typeof t.value === 'string' && ISO_DATE.test(t.value);
  const byDate = compare(sql`${a.sql} collate "C"`, operator, sql`${b.sql} collate "C"`);
  // The value of a decimal form is NULL when it is not ok, so the comparison is then UNKNOWN.
  return when(db.ok, compare(da.value, operator, db.value), when(and(isoDate(a), isoDate(b)), byDate, null));
}

function memberOf(a: Term, items: unknown[]): B {
  if (a.column && a.type === 'string' && items.every((item) => typeof item === 'string')) {
    if (items.length === 0) return false;
    const list = sql.join(
      (items as string[]).map((item) => sql`${item}`),
      sql`, `,
    );
    return and(sql`${a.sql} is not null`, sql`${a.sql} in (${list})`);
  }
  return or(...items.map((item) => equals(a, literalTerm(item))));
}

type Comparison = Extract<RecordFilter, { operator: string }>;

/** A comparison of two resolved terms (exact, three-valued). */
function compareTerms(operator: Comparison['operator'], a: Term, b: Term): B {
  switch (operator) {
    case 'exists':
      return a.column ? sql`${a.sql} is not null` : a.value !== null && a.value !== undefined;
    case 'eq':
    case 'ne': {
      if (a.type === 'object') return null;
      const result = equals(a, b);
      return operator === 'eq' ? result : not(result);
    }
    case 'lt':
      return order(a, b, '<');
    case 'lte':
      return order(a, b, '<=');
    case 'gt':
      return order(a, b, '>');
    case 'gte':
      return order(a, b, '>=');
    case 'in':
    case 'not_in': {
      if (b.column || !Array.isArray(b.value) || a.type === 'object') return null;
      const found = memberOf(a, b.value);
      return operator === 'in' ? found : not(found);
    }
    case 'contains':
      if (!a.column && Array.isArray(a.value)) return memberOf(b, a.value);
      if (a.type === 'string' && b.type === 'string') return compare(sql`strpos(${a.sql}, ${b.sql})`, '>', sql`0`);
      return null;
    case 'starts_with':
      if (a.type === 'string' && b.type === 'string') return sql`starts_with(${a.sql}, ${b.sql})`;
      return null;
  }
}

const isRelated = (column: RecordColumn | undefined): column is RelatedRecordColumn =>
  column !== undefined && !is(column, Column) && 'related' in column;

function relatedColumnTerm({ related }: RelatedRecordColumn): Term {
  return columnTerm(related.column);
}

/** The related attribute as a scalar subquery (a lookup per row), for comparisons of two record attributes. */
function relatedScalarTerm({ related }: RelatedRecordColumn): Term {
  const term = columnTerm(related.column);
  const table = related.column.table;
  return { ...term, sql: sql`(select ${term.sql} from ${table} where ${related.id} = ${related.key})` };
}

/**
 * A comparison of a related attribute with a value, as a semi-join. `positive`: the comparison sits
 * under an even number of `not`s, where only its being TRUE matters (FALSE and UNKNOWN act alike);
 * otherwise only its being FALSE matters. Either way the answer is exact for what matters.
 */
function relatedComparison(
  operator: Comparison['operator'],
  column: RelatedRecordColumn,
  other: Term,
  relatedOnLeft: boolean,
  positive: boolean,
): B {
  const { key, id } = column.related;
  const table = column.related.column.table;
  const onRow = relatedOnLeft
    ? compareTerms(operator, relatedColumnTerm(column), other)
    : compareTerms(operator, other, relatedColumnTerm(column));
  // Without a related row the attribute is null: decided now.
  const nullTerm = literalTerm(null);
  const onNull = relatedOnLeft ? compareTerms(operator, nullTerm, other) : compareTerms(operator, other, nullTerm);
  // Rows where the comparison is TRUE (positive) or FALSE (negative).
  const wanted = positive ? onRow : not(onRow);
  const found =
    wanted === false || wanted === null ? false : sql`${key} in (select ${id} from ${table} where ${toSql(wanted)})`;
  const whenNull = positive ? onNull : not(onNull);
  const matches = or(found, and(sql`${key} is null`, whenNull === null ? false : whenNull));
  // Negative: FALSE exactly when the comparison is FALSE; TRUE stands for TRUE or UNKNOWN.
  return positive ? matches : not(matches);
}

const valueOf = (side: RecordFilterTerm | undefined): unknown =>
  side !== undefined && 'value' in side ? side.value : undefined;

function comparison(filter: Comparison, columns: RecordColumns, positive: boolean): B {
  const lookup = (name: string) => (Object.prototype.hasOwnProperty.call(columns, name) ? columns[name] : undefined);
  const left = 'record' in filter.left ? lookup(filter.left.record) : undefined;
  const right = filter.right && 'record' in filter.right ? lookup(filter.right.record) : undefined;
  const rightIsValue = filter.right === undefined || 'value' in filter.right;
  const leftIsValue = 'value' in filter.left;
  if (isRelated(left) && rightIsValue) {
    return relatedComparison(filter.operator, left, literalTerm(valueOf(filter.right)), true, positive);
  }
  if (isRelated(right) && leftIsValue) {
    return relatedComparison(filter.operator, right, literalTerm(valueOf(filter.left)), false, positive);
  }
  const resolve = (side: RecordFilterTerm | undefined, column: RecordColumn | undefined): Term | undefined => {
    if (side === undefined) return literalTerm(undefined);
    if ('record' in side) {
      if (column === undefined) return undefined;
      return isRelated(column) ? relatedScalarTerm(column) : columnTerm(column);
    }
    return literalTerm(side.value);
  };
  const a = resolve(filter.left, left);
  if (a === undefined) return null;
  if (filter.operator === 'exists') return compareTerms('exists', a, a);
  const b = resolve(filter.right, right);
  if (b === undefined) return null;
  return compareTerms(filter.operator, a, b);
}

function compile(filter: RecordFilter, columns: RecordColumns, positive: boolean): B {
  if (filter === null || typeof filter === 'boolean') return filter;
  if ('all' in filter) return and(...filter.all.map((part) => compile(part, columns, positive)));
  if ('any' in filter) return or(...filter.any.map((part) => compile(part, columns, positive)));
  if ('not' in filter) return not(compile(filter.not, columns, !positive));
  return comparison(filter, columns, positive);
}

/** The SQL condition that is TRUE exactly for the rows the filter allows (UNKNOWN counts as not allowed). */
export function recordFilterToSql(filter: RecordFilter, columns: RecordColumns): SQL {
  const compiled = compile(filter, columns, true);
  return toSql(compiled === null ? false : compiled);
}
