import { Decimal } from './decimal.js';
import { FormulaSyntaxError, type SourcePosition } from './errors.js';

export type TokenType = 'number' | 'string' | 'identifier' | 'operator' | 'punct' | 'end';

export interface Token {
  type: TokenType;
  text: string;
  pos: SourcePosition;
  /** Parsed value of number and string tokens. */
  value?: Decimal | string;
}

const OPERATORS = ['<=', '>=', '!=', '<>', '==', '&&', '||', '+', '-', '*', '/', '%', '^', '=', '<', '>', '!'];

export function describeToken(token: Token): string {
  if (token.type === 'end') return 'end of formula';
  if (token.type === 'string') return `string ${JSON.stringify(token.value)}`;
  return `'${token.text}'`;
}

/** Splits a formula into tokens, each with its line, column and offset. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (offset: number): SourcePosition => ({ offset, line, column: offset - lineStart + 1 });
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '#') {
      // Comment to end of line.
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i))!;
      i += m[0].length;
      if (/[A-Za-z_]/.test(source[i] ?? '')) {
        throw new FormulaSyntaxError(source, pos(i), 'an operator or end of number', `'${source[i]}'`);
      }
      tokens.push({ type: 'number', text: m[0], pos: pos(start), value: new Decimal(m[0]) });
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i]!)) i++;
      tokens.push({ type: 'identifier', text: source.slice(start, i), pos: pos(start) });
      continue;
    }
    if (ch === "'" || ch === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length || source[i] === '\n') {
          throw new FormulaSyntaxError(source, pos(start), `closing ${ch} of the string`, 'end of line');
        }
        const c = source[i]!;
        if (c === '\\' && i + 1 < source.length) {
          value += source[i + 1];
          i += 2;
          continue;
        }
        if (c === ch) {
          i++;
          break;
        }
        value += c;
        i++;
      }
      tokens.push({ type: 'string', text: source.slice(start, i), pos: pos(start), value });
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op) {
      i += op.length;
      tokens.push({ type: 'operator', text: op, pos: pos(start) });
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',' || ch === ':') {
      i++;
      tokens.push({ type: 'punct', text: ch, pos: pos(start) });
      continue;
    }
    throw new FormulaSyntaxError(source, pos(start), 'a number, name, string, operator or parenthesis', `'${ch}'`);
  }
  tokens.push({ type: 'end', text: '', pos: pos(i) });
  return tokens;
}
