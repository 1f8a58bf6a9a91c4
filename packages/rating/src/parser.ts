import type { BinaryOperator, Formula, Node } from './ast.js';
import type { Decimal } from './decimal.js';
import { FormulaSyntaxError } from './errors.js';
import { describeToken, tokenize, type Token } from './lexer.js';

/**
 * Recursive-descent parser of the formula language (see docs/rating.md). Precedence, lowest first:
 * `or` / `||`; `and` / `&&`; `not` / `!`; comparisons and `in` (not chained); `+ -`; `* / %`;
 * unary minus; `^` (right-associative); primaries.
 */
export function parseFormula(source: string): Formula {
  const parser = new Parser(source, tokenize(source));
  const ast = parser.parseExpression();
  parser.expectEnd();
  return { source, ast };
}

const COMPARISONS: Record<string, BinaryOperator> = {
  '=': '=',
  '==': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** Deepest nesting of parentheses, calls and prefix operators a formula may have. */
export const MAX_FORMULA_DEPTH = 100;

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.type !== 'end') this.index++;
    return token;
  }

  private fail(expected: string, token = this.peek()): never {
    throw new FormulaSyntaxError(this.source, token.pos, expected, describeToken(token));
  }

  private isOp(text: string, token = this.peek()): boolean {
    return token.type === 'operator' && token.text === text;
  }

  private isPunct(text: string, token = this.peek()): boolean {
    return token.type === 'punct' && token.text === text;
  }

  private isWord(word: string, token = this.peek()): boolean {
    return token.type === 'identifier' && token.text.toLowerCase() === word;
  }

  private expectPunct(text: string, expected = `'${text}'`): Token {
    if (!this.isPunct(text)) this.fail(expected);
    return this.next();
  }

  expectEnd(): void {
    if (this.peek().type !== 'end') this.fail('an operator or end of formula');
  }

  parseExpression(): Node {
    if (++this.depth > MAX_FORMULA_DEPTH) this.fail(`at most ${MAX_FORMULA_DEPTH} nested levels`);
    try {
      return this.parseOr();
    } finally {
      this.depth--;
    }
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    // After an operand `or` is always the operator, also before '(' (`a or (b and c)`); `or(…)` is a
    // call only where an operand starts (parsePrimary).
    while (this.isWord('or') || this.isOp('||')) {
      const op = this.next();
      left = { type: 'binary', op: 'or', left, right: this.parseAnd(), pos: op.pos };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseNot();
    while (this.isWord('and') || this.isOp('&&')) {
      const op = this.next();
      left = { type: 'binary', op: 'and', left, right: this.parseNot(), pos: op.pos };
    }
    return left;
  }

  private parseNot(): Node {
    if (this.isWord('not') || this.isOp('!')) {
      const op = this.next();
      if (++this.depth > MAX_FORMULA_DEPTH) this.fail(`at most ${MAX_FORMULA_DEPTH} nested levels`);
      const arg = this.parseNot();
      this.depth--;
      return { type: 'unary', op: 'not', arg, pos: op.pos };
    }
    return this.parseComparison();
  }

  private parseComparison(): Node {
    const left = this.parseAdditive();
    const token = this.peek();
    if (token.type === 'operator' && COMPARISONS[token.text]) {
      this.next();
      return { type: 'binary', op: COMPARISONS[token.text]!, left, right: this.parseAdditive(), pos: token.pos };
    }
    const negated = this.isWord('not') && this.isWord('in', this.peek(1));
    if (negated || this.isWord('in')) {
      if (negated) this.next();
      this.next();
      this.expectPunct('(', "'(' starting the list after 'in'");
      const list: Node[] = [this.parseExpression()];
      while (this.isPunct(',')) {
        this.next();
        list.push(this.parseExpression());
      }
      this.expectPunct(')', "',' or ')' closing the list");
      return { type: 'in', value: left, list, negated, pos: token.pos };
    }
    return left;
  }

  private parseAdditive(): Node {
    let left = this.parseMultiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next();
      left = {
        type: 'binary',
        op: op.text as BinaryOperator,
        left,
        right: this.parseMultiplicative(),
        pos: op.pos,
      };
    }
    return left;
  }

  private parseMultiplicative(): Node {
    let left = this.parseUnary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = this.next();
      left = { type: 'binary', op: op.text as BinaryOperator, left, right: this.parseUnary(), pos: op.pos };
    }
    return left;
  }

  private parseUnary(): Node {
    if (this.isOp('-')) {
      const op = this.next();
      if (++this.depth > MAX_FORMULA_DEPTH) this.fail(`at most ${MAX_FORMULA_DEPTH} nested levels`);
      const arg = this.parseUnary();
      this.depth--;
      return { type: 'unary', op: '-', arg, pos: op.pos };
    }
    if (this.isOp('+')) {
      this.next();
      if (++this.depth > MAX_FORMULA_DEPTH) this.fail(`at most ${MAX_FORMULA_DEPTH} nested levels`);
      const arg = this.parseUnary();
      this.depth--;
      return arg;
    }
    return this.parsePower();
  }

  private parsePower(): Node {
    const base = this.parsePrimary();
    if (this.isOp('^')) {
      const op = this.next();
      if (++this.depth > MAX_FORMULA_DEPTH) this.fail(`at most ${MAX_FORMULA_DEPTH} nested levels`);
      const right = this.parseUnary();
      this.depth--;
      return { type: 'binary', op: '^', left: base, right, pos: op.pos };
    }
    return base;
  }

  private parsePrimary(): Node {
    const token = this.peek();
    switch (token.type) {
      case 'number':
        this.next();
        return { type: 'number', value: token.value as Decimal, text: token.text, pos: token.pos };
      case 'string':
        this.next();
        return { type: 'string', value: token.value as string, pos: token.pos };
      case 'identifier': {
        this.next();
        const lower = token.text.toLowerCase();
        if (this.isPunct('(')) {
          this.next();
          const args: Node[] = [];
          if (!this.isPunct(')')) {
            args.push(this.parseExpression());
            while (this.isPunct(',')) {
              this.next();
              args.push(this.parseExpression());
            }
          }
          this.expectPunct(')', `',' or ')' closing the arguments of ${token.text}(`);
          return { type: 'call', name: token.text, fn: lower, args, pos: token.pos };
        }
        if (lower === 'true' || lower === 'false') return { type: 'boolean', value: lower === 'true', pos: token.pos };
        if (['and', 'or', 'not', 'in'].includes(lower)) this.fail('an expression', token);
        if (this.isPunct(':')) {
          if (lower !== 'field' && lower !== 'calc') this.fail("'field:' or 'calc:' before ':'", token);
          this.next();
          const name = this.peek();
          if (name.type !== 'identifier') this.fail(`a ${lower} name after '${token.text}:'`);
          this.next();
          return { type: 'reference', name: name.text, namespace: lower, pos: token.pos };
        }
        return { type: 'reference', name: token.text, pos: token.pos };
      }
      case 'punct':
        if (token.text === '(') {
          this.next();
          const inner = this.parseExpression();
          this.expectPunct(')', "')'");
          return inner;
        }
        return this.fail('an expression');
      default:
        return this.fail('an expression');
    }
  }
}
