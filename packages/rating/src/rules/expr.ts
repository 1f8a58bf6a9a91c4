import type { Node } from '../ast.js';
import { FormulaSyntaxError, type SourcePosition } from '../errors.js';
import { parseFormula } from '../parser.js';
import type { Expr } from './tree.js';

/**
 * Expressions of rules are formulas of @atrium/rating: the same lexer and parser (parseFormula),
 * turned into plain JSON. Template placeholders `{{name}}` are swapped for same-length identifiers
 * before parsing (so positions stay right) and come back as `param` nodes.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const PARAM_PREFIX = '__p_';

/** Parses an expression; throws FormulaSyntaxError with positions relative to `source`. */
export function parseExpr(source: string): Expr {
  const masked = source.replace(PLACEHOLDER, (match, name: string) => (PARAM_PREFIX + name).padEnd(match.length, ' '));
  const formula = parseFormula(masked);
  return fromAst(formula.ast);
}

/** Converts a rating AST node into the JSON expression tree. */
export function fromAst(node: Node): Expr {
  switch (node.type) {
    case 'number':
      return { type: 'number', value: node.text };
    case 'string':
      return { type: 'string', value: node.value };
    case 'boolean':
      return { type: 'boolean', value: node.value };
    case 'reference':
      if (node.name.startsWith(PARAM_PREFIX) && !node.namespace) {
        return { type: 'param', name: node.name.slice(PARAM_PREFIX.length) };
      }
      return node.namespace
        ? { type: 'reference', name: node.name, namespace: node.namespace }
        : { type: 'reference', name: node.name };
    case 'unary':
      return { type: 'unary', op: node.op, arg: fromAst(node.arg) };
    case 'binary':
      return { type: 'binary', op: node.op, left: fromAst(node.left), right: fromAst(node.right) };
    case 'in':
      return { type: 'in', value: fromAst(node.value), list: node.list.map(fromAst), negated: node.negated };
    case 'call':
      return { type: 'call', fn: node.fn, args: node.args.map(fromAst) };
  }
}

const PRECEDENCE: Record<string, number> = {
  or: 1,
  and: 2,
  '=': 4,
  '!=': 4,
  '<': 4,
  '<=': 4,
  '>': 4,
  '>=': 4,
  '+': 5,
  '-': 5,
  '*': 6,
  '/': 6,
  '%': 6,
  '^': 8,
};

function precedence(expr: Expr): number {
  switch (expr.type) {
    case 'binary':
      return PRECEDENCE[expr.op]!;
    case 'in':
      return 4;
    case 'unary':
      return expr.op === 'not' ? 3 : 7;
    default:
      return 9;
  }
}

export function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Prints an expression with the fewest parentheses that parse back to the same tree. */
export function printExpr(expr: Expr): string {
  const wrap = (child: Expr, needs: boolean) => (needs ? `(${printExpr(child)})` : printExpr(child));
  switch (expr.type) {
    case 'number':
      return expr.value;
    case 'string':
      return quoteString(expr.value);
    case 'boolean':
      return String(expr.value);
    case 'reference':
      return expr.namespace ? `${expr.namespace}:${expr.name}` : expr.name;
    case 'param':
      return `{{${expr.name}}}`;
    case 'unary':
      return expr.op === 'not'
        ? `not ${wrap(expr.arg, precedence(expr.arg) < 3)}`
        : `-${wrap(expr.arg, precedence(expr.arg) < 7)}`;
    case 'in':
      return `${wrap(expr.value, precedence(expr.value) < 5)} ${expr.negated ? 'not in' : 'in'} (${expr.list
        .map(printExpr)
        .join(', ')})`;
    case 'call':
      return `${expr.fn}(${expr.args.map(printExpr).join(', ')})`;
    case 'binary': {
      const p = PRECEDENCE[expr.op]!;
      let left: boolean;
      let right: boolean;
      if (p === 8) {
        left = precedence(expr.left) <= 8;
        right = precedence(expr.right) < 7;
      } else if (p === 4) {
        left = precedence(expr.left) < 5;
        right = precedence(expr.right) < 5;
      } else if (p === 2 || p === 1) {
        left = precedence(expr.left) < p;
        right = precedence(expr.right) <= p || (p === 2 && precedence(expr.right) < 3);
      } else {
        left = precedence(expr.left) < p;
        right = precedence(expr.right) <= p;
      }
      return `${wrap(expr.left, left)} ${expr.op} ${wrap(expr.right, right)}`;
    }
  }
}

/** Every node of an expression, depth first. */
export function* walkExpr(expr: Expr): Generator<Expr> {
  yield expr;
  switch (expr.type) {
    case 'unary':
      yield* walkExpr(expr.arg);
      break;
    case 'binary':
      yield* walkExpr(expr.left);
      yield* walkExpr(expr.right);
      break;
    case 'in':
      yield* walkExpr(expr.value);
      for (const item of expr.list) yield* walkExpr(item);
      break;
    case 'call':
      for (const arg of expr.args) yield* walkExpr(arg);
      break;
    default:
  }
}

/** Re-bases a syntax error found in an expression that starts at `start` of a larger text. */
export function shiftPosition(pos: SourcePosition, start: SourcePosition): SourcePosition {
  return pos.line === 1
    ? { line: start.line, column: start.column + pos.column - 1, offset: start.offset + pos.offset }
    : { line: start.line + pos.line - 1, column: pos.column, offset: start.offset + pos.offset };
}

export { FormulaSyntaxError };
