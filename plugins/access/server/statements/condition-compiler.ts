import type { Principal } from '@atrium/sdk/server';
import type { Condition, ConditionOperator, Operand } from '../../shared/statement-schema.js';
import { compareDecimals, parseDecimal, type Decimal } from './decimal-compare.js';

/**
 * Turns validated conditions into closures, once per policy change, so that evaluating a request is
 * a few property reads and comparisons.
 *
 * Conditions are three-valued: TRUE, FALSE, or UNKNOWN when a value they need is missing or of a
 * type the operator cannot compare (a deny must never silently stop applying because the record
 * lacks a field). `all`, `any` and `not` follow Kleene's logic. What UNKNOWN means for a statement
 * is decided by the policy set (see policy-set.ts).
 */
export const FALSE = 0;
export const TRUE = 1;
export const UNKNOWN = 2;
export type Truth = typeof FALSE | typeof TRUE | typeof UNKNOWN;

export interface ConditionInput {
  record: Record<string, unknown> | undefined;
  context: Record<string, unknown> | undefined;
  principal: Principal;
}

export type CompiledCondition = (input: ConditionInput) => Truth;

/** Returned by an attribute read that found nothing. */
const MISSING: unique symbol = Symbol('missing');
type Value = unknown | typeof MISSING;
type Getter = (input: ConditionInput) => Value;

const hasOwn = Object.prototype.hasOwnProperty;

/** The user as conditions see it: the principal's own fields, then its attributes. */
function userField(principal: Principal, key: string): Value {
  switch (key) {
    case 'username':
      return principal.username;
    case 'subject':
      return principal.subject;
    case 'kind':
      return principal.kind;
    case 'roles':
      return principal.roles;
    case 'effective_role':
      return principal.effectiveRole;
  }
  const attributes = principal.attributes;
  return attributes && hasOwn.call(attributes, key) ? attributes[key] : MISSING;
}

function step(value: Value, key: string): Value {
  if (value === MISSING || value === null || typeof value !== 'object') return MISSING;
  if (Array.isArray(value)) {
    const index = /^\d+$/.test(key) ? Number(key) : -1;
    return index >= 0 && index < value.length ? value[index] : MISSING;
  }
  return hasOwn.call(value, key) ? (value as Record<string, unknown>)[key] : MISSING;
}

export function compileGetter(path: string): Getter {
  const [root, first, ...rest] = path.split('.') as [string, string, ...string[]];
  const walk = (start: Value): Value => {
    let value = start;
    for (const key of rest) value = step(value, key);
    return value === undefined ? MISSING : value;
  };
  if (root === 'user') return (input) => walk(userField(input.principal, first));
  if (root === 'record') return (input) => walk(step(input.record ?? MISSING, first));
  return (input) => walk(step(input.context ?? MISSING, first));
}

function compileOperand(operand: Operand): Getter {
  if (operand !== null && typeof operand === 'object' && !Array.isArray(operand)) return compileGetter(operand.ref);
  return () => operand;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Equality: a number on either side compares as a decimal; otherwise values must be identical. */
function equals(left: unknown, right: unknown): boolean {
  if (typeof left === 'number' || typeof right === 'number') {
    const a = parseDecimal(left);
    const b = parseDecimal(right);
    return a !== null && b !== null && compareDecimals(a, b) === 0;
  }
  return left === right;
}

/** Order of two decimals, or of two ISO dates; null when they cannot be ordered. */
function order(left: unknown, right: unknown, rightDecimal: Decimal | null): number | null {
  const b = rightDecimal ?? parseDecimal(right);
  if (b !== null) {
    const a = parseDecimal(left);
    return a === null ? null : compareDecimals(a, b);
  }
  if (typeof left === 'string' && typeof right === 'string' && ISO_DATE.test(left) && ISO_DATE.test(right)) {
    return left < right ? -1 : left > right ? 1 : 0;
  }
  return null;
}

function compileComparison(
  attribute: string,
  operator: ConditionOperator,
  operand: Operand | undefined,
): CompiledCondition {
  const left = compileGetter(attribute);
  if (operator === 'exists') {
    const recordRooted = attribute.startsWith('record.');
    return (input) => {
      if (recordRooted && input.record === undefined) return UNKNOWN;
      const value = left(input);
      return value === MISSING || value === null ? FALSE : TRUE;
    };
  }
  const right = compileOperand(operand as Operand);
  const literal = operand === null || typeof operand !== 'object';
  // A literal's decimal form is worked out once, here, not on every evaluation.
  const rightDecimal = literal ? parseDecimal(operand) : null;
  switch (operator) {
    case 'eq':
    case 'ne': {
      const want = operator === 'eq';
      return (input) => {
        const a = left(input);
        const b = right(input);
        if (a === MISSING || b === MISSING) return UNKNOWN;
        if (a !== null && typeof a === 'object') return UNKNOWN;
        return equals(a, b) === want ? TRUE : FALSE;
      };
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const test =
        operator === 'lt'
          ? (o: number) => o < 0
          : operator === 'lte'
            ? (o: number) => o <= 0
            : operator === 'gt'
              ? (o: number) => o > 0
              : (o: number) => o >= 0;
      return (input) => {
        const a = left(input);
        const b = right(input);
        if (a === MISSING || b === MISSING) return UNKNOWN;
        const o = order(a, b, rightDecimal);
        return o === null ? UNKNOWN : test(o) ? TRUE : FALSE;
      };
    }
    case 'in':
    case 'not_in': {
      const want = operator === 'in';
      const set =
        Array.isArray(operand) && operand.every((v) => typeof v === 'string') ? new Set(operand as string[]) : null;
      return (input) => {
        const a = left(input);
        const list = right(input);
        if (a === MISSING || list === MISSING) return UNKNOWN;
        if (!Array.isArray(list) || (a !== null && typeof a === 'object')) return UNKNOWN;
        const found = set && typeof a === 'string' ? set.has(a) : list.some((item) => equals(a, item));
        return found === want ? TRUE : FALSE;
      };
    }
    case 'contains':
      return (input) => {
        const a = left(input);
        const b = right(input);
        if (a === MISSING || b === MISSING) return UNKNOWN;
        if (Array.isArray(a)) return a.some((item) => equals(item, b)) ? TRUE : FALSE;
        if (typeof a === 'string' && typeof b === 'string') return a.includes(b) ? TRUE : FALSE;
        return UNKNOWN;
      };
    case 'starts_with':
      return (input) => {
        const a = left(input);
        const b = right(input);
        if (a === MISSING || b === MISSING) return UNKNOWN;
        if (typeof a === 'string' && typeof b === 'string') return a.startsWith(b) ? TRUE : FALSE;
        return UNKNOWN;
      };
  }
}

export function compileCondition(condition: Condition): CompiledCondition {
  if ('all' in condition) return compileAll(condition.all.map(compileCondition));
  if ('any' in condition) {
    const parts = condition.any.map(compileCondition);
    return (input) => {
      let result: Truth = FALSE;
      for (const part of parts) {
        const value = part(input);
        if (value === TRUE) return TRUE;
        if (value === UNKNOWN) result = UNKNOWN;
      }
      return result;
    };
  }
  if ('not' in condition) {
    const inner = compileCondition(condition.not);
    return (input) => {
      const value = inner(input);
      return value === UNKNOWN ? UNKNOWN : value === TRUE ? FALSE : TRUE;
    };
  }
  return compileComparison(condition.attribute, condition.operator, condition.value);
}

export function compileAll(parts: CompiledCondition[]): CompiledCondition {
  if (parts.length === 1) return parts[0]!;
  return (input) => {
    let result: Truth = TRUE;
    for (const part of parts) {
      const value = part(input);
      if (value === FALSE) return FALSE;
      if (value === UNKNOWN) result = UNKNOWN;
    }
    return result;
  };
}
