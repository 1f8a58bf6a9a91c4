import type { ProblemIssue } from '@atrium/sdk/server';
import {
  ATTRIBUTE_PATH,
  CONDITION_OPERATORS,
  PATTERN,
  SID,
  STATEMENT_LIMITS,
  type ConditionOperator,
  type Statement,
} from '../../shared/statement-schema.js';
import { parseDecimal } from './decimal-compare.js';

/**
 * Checks a policy's statements and says exactly what is wrong where: every issue carries a JSON
 * pointer (`/statements/2/effect`) and a message naming the statement by index and sid. It reports
 * every problem it finds (up to a cap), so that the editor can mark them all at once.
 */
const MAX_ISSUES = 100;
const STATEMENT_KEYS = new Set(['sid', 'effect', 'actions', 'resources', 'conditions']);
const COMPARISON_KEYS = new Set(['attribute', 'operator', 'value']);
const OPERATORS = new Set<string>(CONDITION_OPERATORS);
const ORDERING = new Set<ConditionOperator>(['lt', 'lte', 'gt', 'gte']);
const LIST = new Set<ConditionOperator>(['in', 'not_in']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Json = unknown;

const isObject = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isLiteral = (value: Json) =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));
const describe = (value: Json) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

export function validateStatements(statements: Json, pointer = '/statements'): ProblemIssue[] {
  const issues: ProblemIssue[] = [];
  const report = (at: string, detail: string, code = 'invalid') => {
    if (issues.length < MAX_ISSUES) issues.push({ detail, source: { pointer: at }, code });
  };
  if (!Array.isArray(statements)) {
    report(pointer, `Statements must be a list, not ${describe(statements)}.`, 'invalid_type');
    return issues;
  }
  if (statements.length > STATEMENT_LIMITS.statementsPerPolicy) {
    report(pointer, `A policy holds at most ${STATEMENT_LIMITS.statementsPerPolicy} statements.`, 'too_big');
  }
  const sids = new Map<string, number>();
  statements.forEach((statement, index) => {
    const at = `${pointer}/${index}`;
    const sid = isObject(statement) && typeof statement.sid === 'string' ? statement.sid : undefined;
    const name = sid ? `Statement ${index} ('${sid}')` : `Statement ${index}`;
    if (!isObject(statement)) {
      report(at, `${name} must be an object, not ${describe(statement)}.`, 'invalid_type');
      return;
    }
    for (const key of Object.keys(statement)) {
      if (!STATEMENT_KEYS.has(key)) report(`${at}/${key}`, `${name}: unknown field '${key}'.`, 'unrecognized_keys');
    }
    if (statement.sid !== undefined) {
      if (
        typeof statement.sid !== 'string' ||
        !SID.test(statement.sid) ||
        statement.sid.length > STATEMENT_LIMITS.sidLength
      ) {
        report(
          `${at}/sid`,
          `${name}: sid must be letters, digits, '_', '-' or '.' (at most ${STATEMENT_LIMITS.sidLength}).`,
        );
      } else if (sids.has(statement.sid)) {
        report(
          `${at}/sid`,
          `${name}: sid '${statement.sid}' is already used by statement ${sids.get(statement.sid)}.`,
          'duplicate',
        );
      } else {
        sids.set(statement.sid, index);
      }
    }
    if (statement.effect === undefined)
      report(`${at}/effect`, `${name}: effect is required ('allow' or 'deny').`, 'required');
    else if (statement.effect !== 'allow' && statement.effect !== 'deny') {
      report(
        `${at}/effect`,
        `${name}: effect must be 'allow' or 'deny', not ${JSON.stringify(statement.effect)}.`,
        'invalid_value',
      );
    }
    for (const field of ['actions', 'resources'] as const) {
      const list = statement[field];
      const example = field === 'actions' ? "'read' or '*'" : "'claims:payment', 'claims:*' or '*'";
      if (list === undefined) {
        report(`${at}/${field}`, `${name}: ${field} is required (a list such as [${example}]).`, 'required');
      } else if (!Array.isArray(list)) {
        report(
          `${at}/${field}`,
          `${name}: ${field} must be a list of patterns, not ${describe(list)}.`,
          'invalid_type',
        );
      } else if (list.length === 0) {
        report(`${at}/${field}`, `${name}: ${field} must name at least one pattern.`, 'too_small');
      } else if (list.length > STATEMENT_LIMITS.patternsPerStatement) {
        report(`${at}/${field}`, `${name}: at most ${STATEMENT_LIMITS.patternsPerStatement} ${field}.`, 'too_big');
      } else {
        list.forEach((pattern, i) => {
          if (
            typeof pattern !== 'string' ||
            !PATTERN.test(pattern) ||
            pattern.length > STATEMENT_LIMITS.patternLength
          ) {
            report(
              `${at}/${field}/${i}`,
              `${name}: ${field} entry ${i} must be a pattern of letters, digits, '_ - . : /' and '*' wildcards, such as ${example}.`,
              'invalid_string',
            );
          }
        });
      }
    }
    if (statement.conditions !== undefined) {
      const conditions = statement.conditions;
      if (!Array.isArray(conditions)) {
        report(`${at}/conditions`, `${name}: conditions must be a list, not ${describe(conditions)}.`, 'invalid_type');
      } else if (conditions.length > STATEMENT_LIMITS.conditionsPerStatement) {
        report(
          `${at}/conditions`,
          `${name}: at most ${STATEMENT_LIMITS.conditionsPerStatement} conditions.`,
          'too_big',
        );
      } else {
        conditions.forEach((condition, i) => validateCondition(condition, `${at}/conditions/${i}`, name, 1, report));
      }
    }
  });
  return issues;
}

type Report = (at: string, detail: string, code?: string) => void;

function validateCondition(condition: Json, at: string, name: string, depth: number, report: Report): void {
  if (!isObject(condition)) {
    report(at, `${name}: a condition must be an object, not ${describe(condition)}.`, 'invalid_type');
    return;
  }
  if (depth > STATEMENT_LIMITS.conditionDepth) {
    report(at, `${name}: conditions nest at most ${STATEMENT_LIMITS.conditionDepth} deep.`, 'too_big');
    return;
  }
  const keys = Object.keys(condition);
  for (const group of ['all', 'any'] as const) {
    if (!(group in condition)) continue;
    if (keys.length !== 1) {
      report(at, `${name}: a '${group}' condition holds nothing but its list.`, 'unrecognized_keys');
      return;
    }
    const list = condition[group];
    if (!Array.isArray(list) || list.length === 0) {
      report(`${at}/${group}`, `${name}: '${group}' must be a non-empty list of conditions.`, 'invalid_type');
      return;
    }
    list.forEach((inner, i) => validateCondition(inner, `${at}/${group}/${i}`, name, depth + 1, report));
    return;
  }
  if ('not' in condition) {
    if (keys.length !== 1) {
      report(at, `${name}: a 'not' condition holds nothing but the condition it negates.`, 'unrecognized_keys');
      return;
    }
    validateCondition(condition.not, `${at}/not`, name, depth + 1, report);
    return;
  }
  for (const key of keys) {
    if (!COMPARISON_KEYS.has(key)) {
      report(
        `${at}/${key}`,
        `${name}: unknown condition field '${key}' (use attribute, operator and value, or all / any / not).`,
        'unrecognized_keys',
      );
    }
  }
  const { attribute, operator, value } = condition;
  if (typeof attribute !== 'string' || !ATTRIBUTE_PATH.test(attribute)) {
    report(
      `${at}/attribute`,
      `${name}: attribute must be a path such as 'record.loss_state', 'user.state' or 'context.amount'.`,
      attribute === undefined ? 'required' : 'invalid_string',
    );
  }
  if (typeof operator !== 'string' || !OPERATORS.has(operator)) {
    report(
      `${at}/operator`,
      `${name}: operator must be one of ${CONDITION_OPERATORS.join(', ')}.`,
      operator === undefined ? 'required' : 'invalid_value',
    );
    return;
  }
  const op = operator as ConditionOperator;
  if (op === 'exists') {
    if (value !== undefined) report(`${at}/value`, `${name}: 'exists' takes no value.`, 'unrecognized_keys');
    return;
  }
  if (value === undefined) {
    report(`${at}/value`, `${name}: '${op}' needs a value.`, 'required');
    return;
  }
  if (isObject(value)) {
    const ok = Object.keys(value).length === 1 && typeof value.ref === 'string' && ATTRIBUTE_PATH.test(value.ref);
    if (!ok) report(`${at}/value`, `${name}: an attribute value is written { "ref": "user.state" }.`, 'invalid_type');
    return;
  }
  if (LIST.has(op)) {
    if (!Array.isArray(value)) {
      report(`${at}/value`, `${name}: '${op}' needs a list of values.`, 'invalid_type');
    } else if (value.length > STATEMENT_LIMITS.listValues) {
      report(`${at}/value`, `${name}: at most ${STATEMENT_LIMITS.listValues} values.`, 'too_big');
    } else {
      value.forEach((item, i) => {
        if (!isLiteral(item))
          report(`${at}/value/${i}`, `${name}: list values are strings, numbers, booleans or null.`, 'invalid_type');
      });
    }
    return;
  }
  if (Array.isArray(value)) {
    report(`${at}/value`, `${name}: '${op}' compares with one value, not a list (use 'in').`, 'invalid_type');
    return;
  }
  if (!isLiteral(value)) {
    report(`${at}/value`, `${name}: the value must be a string, number, boolean or null.`, 'invalid_type');
    return;
  }
  if (ORDERING.has(op)) {
    const comparable =
      (typeof value === 'number' || typeof value === 'string') &&
      (parseDecimal(value) !== null || (typeof value === 'string' && ISO_DATE.test(value)));
    if (!comparable) {
      report(
        `${at}/value`,
        `${name}: '${op}' compares decimals (e.g. "5000.00") or dates (YYYY-MM-DD).`,
        'invalid_type',
      );
    }
    return;
  }
  if (op === 'starts_with' && typeof value !== 'string') {
    report(`${at}/value`, `${name}: 'starts_with' needs a string.`, 'invalid_type');
  }
}

/** Narrows validated input; call only after validateStatements found nothing. */
export function asStatements(value: unknown): Statement[] {
  return value as Statement[];
}
