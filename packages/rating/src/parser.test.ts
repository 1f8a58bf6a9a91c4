import { describe, expect, it } from 'vitest';
import type { Node } from './ast.js';
import { FormulaSyntaxError } from './errors.js';
import { parseFormula } from './parser.js';

/** A compact text form of the tree, to check precedence. */
function show(node: Node): string {
  switch (node.type) {
    case 'number':
      return node.text;
    case 'string':
      return JSON.stringify(node.value);
    case 'boolean':
      return String(node.value);
    case 'reference':
      return node.namespace ? `${node.namespace}:${node.name}` : node.name;
    case 'unary':
      return `(${node.op} ${show(node.arg)})`;
    case 'binary':
      return `(${show(node.left)} ${node.op} ${show(node.right)})`;
    case 'in':
      return `(${show(node.value)} ${node.negated ? 'not in' : 'in'} [${node.list.map(show).join(', ')}])`;
    case 'call':
      return `${node.name}(${node.args.map(show).join(', ')})`;
  }
}

function syntaxError(source: string): FormulaSyntaxError {
  try {
    parseFormula(source);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a syntax error for ${source}`);
}

describe('parseFormula', () => {
  it('parses the example formula with the usual precedence', () => {
    const f = parseFormula('base_rate * territory_factor(zip) * max(1, coverage_a / 100000) - deductible_credit');
    expect(show(f.ast)).toBe(
      '(((base_rate * territory_factor(zip)) * max(1, (coverage_a / 100000))) - deductible_credit)',
    );
  });

  it('binds unary minus tighter than * and looser than ^, and ^ to the right', () => {
    expect(show(parseFormula('-a * b').ast)).toBe('((- a) * b)');
    expect(show(parseFormula('-2 ^ 2').ast)).toBe('(- (2 ^ 2))');
    expect(show(parseFormula('2 ^ 3 ^ 2').ast)).toBe('(2 ^ (3 ^ 2))');
    expect(show(parseFormula('(1 + 2) * 3').ast)).toBe('((1 + 2) * 3)');
  });

  it('parses logic, comparisons, in-lists, strings and namespaced references', () => {
    expect(show(parseFormula('not a = 1 and b in (\'x\', "y") or field:c >= calc:d').ast)).toBe(
      '(((not (a = 1)) and (b in ["x", "y"])) or (field:c >= calc:d))',
    );
    expect(show(parseFormula("construction not in ('frame')").ast)).toBe('(construction not in ["frame"])');
    expect(show(parseFormula('a && !b || c <> 2').ast)).toBe('((a and (not b)) or (c != 2))');
    expect(show(parseFormula('if(and(x, y), 1, 0)').ast)).toBe('if(and(x, y), 1, 0)');
    // After an operand, `and` / `or` before a parenthesis are the operators, not calls.
    expect(show(parseFormula('a and (b or c)').ast)).toBe('(a and (b or c))');
    expect(show(parseFormula('a or (b and c)').ast)).toBe('(a or (b and c))');
    expect(show(parseFormula("lookup(territory, zip, 'frame')").ast)).toBe('lookup(territory, zip, "frame")');
    expect(show(parseFormula('1.5e2 + .25 # a comment\n + true').ast)).toBe('((1.5e2 + .25) + true)');
  });

  it('names line, column and offset and what was expected', () => {
    const e = syntaxError('base_rate * (territory + 2');
    expect(e.position).toEqual({ offset: 26, line: 1, column: 27 });
    expect(e.expected).toBe("')'");
    expect(e.found).toBe('end of formula');
    expect(e.message).toBe("Syntax error at line 1, column 27 (offset 26): expected ')', found end of formula");

    const multi = syntaxError('a *\n  b +\n  * c');
    expect(multi.position).toEqual({ offset: 12, line: 3, column: 3 });
    expect(multi.expected).toBe('an expression');
    expect(multi.found).toBe("'*'");
  });

  it('refuses formulas nested deeper than the limit instead of overflowing the stack', () => {
    expect(show(parseFormula('('.repeat(50) + '1' + ')'.repeat(50)).ast)).toBe('1');
    const e = syntaxError('('.repeat(150) + '1' + ')'.repeat(150));
    expect(e.expected).toBe('at most 100 nested levels');
    expect(e.position.offset).toBe(100);
    expect(syntaxError('-'.repeat(5000) + '1').expected).toBe('at most 100 nested levels');
    expect(syntaxError('2' + ' ^ 2'.repeat(500)).expected).toBe('at most 100 nested levels');
  });

  it('reports other syntax errors precisely', () => {
    expect(syntaxError('max(1, 2').expected).toBe("',' or ')' closing the arguments of max(");
    expect(syntaxError('a b').position.offset).toBe(2);
    expect(syntaxError('a b').expected).toBe('an operator or end of formula');
    expect(syntaxError("'open").message).toContain("closing ' of the string");
    expect(syntaxError('a $ b').position).toEqual({ offset: 2, line: 1, column: 3 });
    expect(syntaxError('x in 1').expected).toBe("'(' starting the list after 'in'");
    expect(syntaxError('foo:bar').expected).toBe("'field:' or 'calc:' before ':'");
    expect(syntaxError('12abc').position.offset).toBe(2);
  });
});
