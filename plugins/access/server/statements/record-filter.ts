import type { Principal, RecordFilter, RecordFilterTerm } from '@atrium/sdk/server';
import type { Comparison, Condition, Operand } from '../../shared/statement-schema.js';
import { compileCondition, compileGetter, FALSE, TRUE, type ConditionInput } from './condition-compiler.js';

/**
 * Partial evaluation of conditions for lists: the principal and the context are known, the record
 * is not. Every `user.*` and `context.*` reference is replaced by its value now (a missing one makes
 * its comparison unknown, exactly as the evaluator does), comparisons without a record attribute are
 * decided now by the very closures `decide()` uses, and what is left is a residual filter over
 * `record.*` attributes (the SDK's RecordFilter, which `recordFilterToSql` turns into SQL).
 *
 * The filter is three-valued like the conditions themselves; a record is visible exactly when the
 * filter is TRUE. A statement set's filter is built as
 *   all(not deny₁, …, not denyₙ, any(allow₁, …, allowₘ))
 * which is TRUE exactly when every deny's conditions are FALSE (a deny applies unless they are FALSE)
 * and some allow's conditions are TRUE (an allow applies only when they are TRUE).
 */

export interface StatementForFilter {
  deny: boolean;
  conditions: Condition[] | undefined;
}

const isRecordPath = (path: string) => path.startsWith('record.');
const recordName = (path: string) => path.slice('record.'.length);

/** Reads of user.* and context.* for one principal and context, compiled once per path. */
class KnownValues {
  readonly input: ConditionInput;
  constructor(principal: Principal, context: Record<string, unknown> | undefined) {
    this.input = { record: undefined, context, principal };
  }
  /** The value, or not found when the path is missing (the evaluator's MISSING). */
  read(path: string): { found: true; value: unknown } | { found: false } {
    const value = compileGetter(path)(this.input);
    // compileGetter answers a private MISSING symbol for absent values (and for undefined).
    return typeof value === 'symbol' ? { found: false } : { found: true, value };
  }
}

function term(path: string, known: KnownValues): RecordFilterTerm | null {
  if (isRecordPath(path)) return { record: recordName(path) };
  const read = known.read(path);
  return read.found ? { value: read.value } : null;
}

function partialComparison(condition: Comparison, known: KnownValues): RecordFilter {
  const operand = condition.value as Operand | undefined;
  const operandRef =
    operand !== null && typeof operand === 'object' && !Array.isArray(operand) ? operand.ref : undefined;
  const touchesRecord = isRecordPath(condition.attribute) || (operandRef !== undefined && isRecordPath(operandRef));
  if (!touchesRecord) {
    // Nothing about the record: decided now, by the evaluator's own closure.
    const truth = compileCondition(condition)(known.input);
    return truth === TRUE ? true : truth === FALSE ? false : null;
  }
  const left = term(condition.attribute, known);
  if (condition.operator === 'exists') return { operator: 'exists', left: left! };
  const right: RecordFilterTerm | null = operandRef !== undefined ? term(operandRef, known) : { value: operand };
  // A missing user or context value makes the comparison unknown (never widening access).
  if (left === null || right === null) return null;
  return { operator: condition.operator, left, right };
}

export function partialCondition(condition: Condition, known: KnownValues): RecordFilter {
  if ('all' in condition) return allOf(condition.all.map((c) => partialCondition(c, known)));
  if ('any' in condition) return anyOf(condition.any.map((c) => partialCondition(c, known)));
  if ('not' in condition) return notOf(partialCondition(condition.not, known));
  return partialComparison(condition, known);
}

/** Kleene AND, folding known parts: FALSE wins, TRUE parts drop out. */
export function allOf(parts: RecordFilter[]): RecordFilter {
  const kept: RecordFilter[] = [];
  let unknown = false;
  for (const part of parts) {
    if (part === false) return false;
    if (part === true) continue;
    if (part === null) unknown = true;
    else kept.push(part);
  }
  if (kept.length === 0) return unknown ? null : true;
  if (unknown) kept.push(null);
  return kept.length === 1 ? kept[0]! : { all: kept };
}

/** Kleene OR, folding known parts: TRUE wins, FALSE parts drop out. */
export function anyOf(parts: RecordFilter[]): RecordFilter {
  const kept: RecordFilter[] = [];
  let unknown = false;
  for (const part of parts) {
    if (part === true) return true;
    if (part === false) continue;
    if (part === null) unknown = true;
    else kept.push(part);
  }
  if (kept.length === 0) return unknown ? null : false;
  if (unknown) kept.push(null);
  return kept.length === 1 ? kept[0]! : { any: kept };
}

export function notOf(part: RecordFilter): RecordFilter {
  if (part === null) return null;
  if (typeof part === 'boolean') return !part;
  if (typeof part === 'object' && 'not' in part) return part.not;
  return { not: part };
}

/**
 * The residual filter of the statements that match a resource and action, for a principal and
 * context. `true`: every record; `false`: none (also when the filter could only be unknown).
 */
export function recordFilterOf(
  statements: readonly StatementForFilter[],
  principal: Principal,
  context: Record<string, unknown> | undefined,
): RecordFilter {
  const known = new KnownValues(principal, context);
  const denies: RecordFilter[] = [];
  const allows: RecordFilter[] = [];
  for (const statement of statements) {
    const residual = statement.conditions?.length
      ? allOf(statement.conditions.map((c) => partialCondition(c, known)))
      : true;
    if (statement.deny) {
      // Applies unless FALSE: a deny that is TRUE or unknown for every record hides them all.
      if (residual !== false) denies.push(notOf(residual));
    } else {
      allows.push(residual);
    }
  }
  const filter = allOf([...denies, anyOf(allows)]);
  // At the top, unknown means "not allowed".
  return filter === null ? false : filter;
}
