import { parseBrl, BrlSyntaxError } from './brl.js';
import { parseExpr, printExpr } from './expr.js';
import type { Condition, Expr } from './tree.js';

/**
 * formula ⇄ BRL: a formula is one expression of the shared language; its BRL form is the condition
 * `it is true that <formula>`. A rule's conditions convert back to one formula: the tools become
 * functions (there is a risk → any_risk, there are at least n → count_risks(…) >= n, user role is
 * → user_role_is), `count … as x` is inlined where x is read, and the conditions are joined by `and`.
 */
export function formulaToBrl(formula: string): string {
  return `it is true that ${printExpr(parseExpr(formula))}`;
}

const str = (value: string): Expr => ({ type: 'string', value });
const num = (value: number): Expr => ({ type: 'number', value: String(value) });

function substitute(e: Expr, variables: Map<string, Expr>): Expr {
  switch (e.type) {
    case 'reference':
      return !e.namespace && variables.has(e.name) ? variables.get(e.name)! : e;
    case 'unary':
      return { ...e, arg: substitute(e.arg, variables) };
    case 'binary':
      return { ...e, left: substitute(e.left, variables), right: substitute(e.right, variables) };
    case 'in':
      return { ...e, value: substitute(e.value, variables), list: e.list.map((x) => substitute(x, variables)) };
    case 'call':
      return { ...e, args: e.args.map((x) => substitute(x, variables)) };
    default:
      return e;
  }
}

export function conditionsToExpr(conditions: Condition[]): Expr {
  const variables = new Map<string, Expr>();
  const parts: Expr[] = [];
  for (const c of conditions) {
    const type =
      'riskType' in c
        ? typeof c.riskType === 'string'
          ? str(c.riskType)
          : ({ type: 'param', name: c.riskType.param } as Expr)
        : null;
    const args = (where?: Expr) => (where ? [type!, substitute(where, variables)] : [type!]);
    switch (c.tool) {
      case 'always':
        break;
      case 'it-is-true-that':
        parts.push(substitute(c.expr, variables));
        break;
      case 'user-role-is':
        parts.push({ type: 'call', fn: 'user_role_is', args: c.roles.map(str) });
        break;
      case 'there-is-a-risk':
        parts.push({ type: 'call', fn: 'any_risk', args: args(c.where) });
        break;
      case 'there-is-no-risk':
        parts.push({ type: 'call', fn: 'no_risk', args: args(c.where) });
        break;
      case 'there-are':
        parts.push({
          type: 'binary',
          op: c.quantifier === 'at-least' ? '>=' : c.quantifier === 'at-most' ? '<=' : '=',
          left: { type: 'call', fn: 'count_risks', args: args(c.where) },
          right: num(c.count),
        });
        break;
      case 'count':
        variables.set(c.as, { type: 'call', fn: 'count_risks', args: args(c.where) });
        break;
    }
  }
  if (parts.length === 0) return { type: 'boolean', value: true };
  return parts.reduce((left, right) => ({ type: 'binary', op: 'and', left, right }));
}

/**
 * A whole rule (its When part) or condition lines (one per line, as under `when`) to one formula.
 * Throws BrlSyntaxError with the line of the mistake.
 */
export function brlToFormula(brl: string): string {
  const text = brl.trim();
  if (/^(rule|template)\b/i.test(text)) {
    const component = parseBrl(text);
    if (component.kind === 'use')
      throw new BrlSyntaxError('a rule made from a template has no conditions of its own', {
        line: 1,
        column: 1,
        offset: 0,
      });
    return printExpr(conditionsToExpr(component.when));
  }
  // Condition lines: parse them as the When part of a throw-away rule, then map line numbers back.
  const head = 'rule formula\n  applies to x\nwhen\n';
  const wrapped = `${head}${brl}\nthen\n  hide x\nend\n`;
  try {
    const component = parseBrl(wrapped);
    return printExpr(conditionsToExpr(component.kind === 'use' ? [] : component.when));
  } catch (error) {
    if (error instanceof BrlSyntaxError) {
      const line = error.position.line - 3;
      const position = { ...error.position, line, offset: Math.max(0, error.position.offset - head.length) };
      throw new BrlSyntaxError(error.message.replace(/^Line \d+, column \d+: /, ''), position);
    }
    throw error;
  }
}
