import type { ContextValue } from './context-keys.js';

/**
 * The `when` language: `!inputFocus && role == 'Administrator'`, `a || (b && c.d != 'x')`.
 * Operands: context keys (letters, digits, `_`, `-`, `.`), single- or double-quoted strings, numbers,
 * `true`, `false`, `null`. A bare key is true when its value is truthy.
 * Expressions are parsed once into a closure tree; evaluating is then a few function calls with no
 * string work, which matters because the palette evaluates every command's clause on each open.
 */

export type WhenAst =
  | { type: 'key'; key: string }
  | { type: 'literal'; value: ContextValue }
  | { type: 'not'; operand: WhenAst }
  | { type: 'and'; left: WhenAst; right: WhenAst }
  | { type: 'or'; left: WhenAst; right: WhenAst }
  | { type: 'eq' | 'neq'; left: WhenAst; right: WhenAst };

export type ContextLookup = (key: string) => ContextValue;

export interface CompiledWhen {
  readonly source: string;
  readonly ast: WhenAst;
  /** The context keys the expression reads. */
  readonly keys: readonly string[];
  evaluate(lookup: ContextLookup): boolean;
}

export class WhenParseError extends Error {
  constructor(
    readonly source: string,
    /** 0-based character offset of the offending token. */
    readonly position: number,
    reason: string,
  ) {
    super(`Invalid when expression at position ${position}: ${reason} in "${source}"`);
    this.name = 'WhenParseError';
  }
}

type Token =
  | { kind: 'key'; text: string; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'op'; text: '!' | '&&' | '||' | '==' | '!=' | '(' | ')'; pos: number }
  | { kind: 'end'; pos: number };

const isKeyStart = (c: string) => /[A-Za-z_$]/.test(c);
const isKeyChar = (c: string) => /[A-Za-z0-9_$.\-:]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const two = source.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '==' || two === '!=') {
      tokens.push({ kind: 'op', text: two, pos: i });
      i += 2;
      continue;
    }
    if (c === '!' || c === '(' || c === ')') {
      tokens.push({ kind: 'op', text: c, pos: i });
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = i;
      let value = '';
      i++;
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\' && i + 1 < source.length) i++;
        value += source[i];
        i++;
      }
      if (i >= source.length) throw new WhenParseError(source, start, 'unterminated string');
      i++;
      tokens.push({ kind: 'string', value, pos: start });
      continue;
    }
    if (isDigit(c) || (c === '-' && isDigit(source[i + 1] ?? ''))) {
      const start = i;
      i++;
      while (i < source.length && (isDigit(source[i]!) || source[i] === '.')) i++;
      const text = source.slice(start, i);
      const value = Number(text);
      if (Number.isNaN(value)) throw new WhenParseError(source, start, `malformed number '${text}'`);
      tokens.push({ kind: 'number', value, pos: start });
      continue;
    }
    if (isKeyStart(c)) {
      const start = i;
      while (i < source.length && isKeyChar(source[i]!)) i++;
      tokens.push({ kind: 'key', text: source.slice(start, i), pos: start });
      continue;
    }
    if (c === '&' || c === '|' || c === '=') {
      throw new WhenParseError(source, i, `unexpected '${c}' (did you mean '${c}${c}'?)`);
    }
    throw new WhenParseError(source, i, `unexpected character '${c}'`);
  }
  tokens.push({ kind: 'end', pos: source.length });
  return tokens;
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of expression';
    case 'key':
    case 'op':
      return `'${token.text}'`;
    case 'string':
      return `string '${token.value}'`;
    case 'number':
      return `number ${token.value}`;
  }
}

/** Recursive descent; precedence (low → high): `||`, `&&`, `==`/`!=`, `!`, primary. */
export function parseWhenAst(source: string): WhenAst {
  const tokens = tokenize(source);
  let index = 0;
  const peek = () => tokens[index]!;
  const isOp = (text: string) => {
    const t = peek();
    return t.kind === 'op' && t.text === text;
  };
  const fail = (token: Token, expected: string): never => {
    throw new WhenParseError(source, token.pos, `expected ${expected} but found ${describe(token)}`);
  };

  const parseOr = (): WhenAst => {
    let left = parseAnd();
    while (isOp('||')) {
      index++;
      left = { type: 'or', left, right: parseAnd() };
    }
    return left;
  };
  const parseAnd = (): WhenAst => {
    let left = parseEquality();
    while (isOp('&&')) {
      index++;
      left = { type: 'and', left, right: parseEquality() };
    }
    return left;
  };
  const parseEquality = (): WhenAst => {
    const left = parseUnary();
    if (isOp('==') || isOp('!=')) {
      const type = (peek() as { text: string }).text === '==' ? 'eq' : 'neq';
      index++;
      const right = parseUnary();
      if (isOp('==') || isOp('!=')) fail(peek(), "'&&', '||' or ')'");
      return { type, left, right };
    }
    return left;
  };
  const parseUnary = (): WhenAst => {
    if (isOp('!')) {
      index++;
      return { type: 'not', operand: parseUnary() };
    }
    return parsePrimary();
  };
  const parsePrimary = (): WhenAst => {
    const token = peek();
    if (token.kind === 'op' && token.text === '(') {
      index++;
      const inner = parseOr();
      if (!isOp(')')) fail(peek(), "')'");
      index++;
      return inner;
    }
    if (token.kind === 'string' || token.kind === 'number') {
      index++;
      return { type: 'literal', value: token.value };
    }
    if (token.kind === 'key') {
      index++;
      if (token.text === 'true') return { type: 'literal', value: true };
      if (token.text === 'false') return { type: 'literal', value: false };
      if (token.text === 'null') return { type: 'literal', value: null };
      return { type: 'key', key: token.text };
    }
    return fail(token, 'a context key, a value or (');
  };

  if (peek().kind === 'end') throw new WhenParseError(source, 0, 'empty expression');
  const ast = parseOr();
  if (peek().kind !== 'end') fail(peek(), "'&&', '||' or end of expression");
  return ast;
}

type ValueFn = (lookup: ContextLookup) => ContextValue;
type BoolFn = (lookup: ContextLookup) => boolean;

function compileValue(ast: WhenAst): ValueFn {
  switch (ast.type) {
    case 'key': {
      const key = ast.key;
      return (lookup) => lookup(key);
    }
    case 'literal': {
      const value = ast.value;
      return () => value;
    }
    default: {
      const fn = compileBool(ast);
      return (lookup) => fn(lookup);
    }
  }
}

// undefined and null are the same "unset" for comparisons, so `role == null` works before sign-in.
const same = (a: ContextValue, b: ContextValue) => a === b || (a == null && b == null);

function compileBool(ast: WhenAst): BoolFn {
  switch (ast.type) {
    case 'key': {
      const key = ast.key;
      return (lookup) => Boolean(lookup(key));
    }
    case 'literal': {
      const value = Boolean(ast.value);
      return () => value;
    }
    case 'not': {
      const operand = compileBool(ast.operand);
      return (lookup) => !operand(lookup);
    }
    case 'and': {
      const left = compileBool(ast.left);
      const right = compileBool(ast.right);
      return (lookup) => left(lookup) && right(lookup);
    }
    case 'or': {
      const left = compileBool(ast.left);
      const right = compileBool(ast.right);
      return (lookup) => left(lookup) || right(lookup);
    }
    case 'eq':
    case 'neq': {
      const left = compileValue(ast.left);
      const right = compileValue(ast.right);
      const negate = ast.type === 'neq';
      return (lookup) => same(left(lookup), right(lookup)) !== negate;
    }
  }
}

function collectKeys(ast: WhenAst, into: Set<string>): Set<string> {
  switch (ast.type) {
    case 'key':
      into.add(ast.key);
      break;
    case 'not':
      collectKeys(ast.operand, into);
      break;
    case 'and':
    case 'or':
    case 'eq':
    case 'neq':
      collectKeys(ast.left, into);
      collectKeys(ast.right, into);
      break;
    case 'literal':
      break;
  }
  return into;
}

// Commands and bindings share a handful of clauses; compiling each distinct text once keeps
// registering 10,000 commands cheap.
const cache = new Map<string, CompiledWhen>();
const CACHE_LIMIT = 5000;

export function parseWhen(source: string): CompiledWhen {
  const cached = cache.get(source);
  if (cached) return cached;
  const ast = parseWhenAst(source);
  const evaluate = compileBool(ast);
  const compiled: CompiledWhen = Object.freeze({
    source,
    ast,
    keys: [...collectKeys(ast, new Set())],
    evaluate,
  });
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

/** Always-true clause for commands and bindings without `when`. */
export const ALWAYS: CompiledWhen = Object.freeze({
  source: '',
  ast: { type: 'literal', value: true } as WhenAst,
  keys: [],
  evaluate: () => true,
});

export function compileWhen(source: string | undefined): CompiledWhen {
  return source === undefined || source.trim() === '' ? ALWAYS : parseWhen(source);
}

type Constraint = { key: string; op: 'eq' | 'neq'; value: ContextValue } | { key: string; op: 'truthy' | 'falsy' };

/** Top-level `&&` conjuncts reduced to key constraints; anything more complex is ignored. */
function constraints(ast: WhenAst, out: Constraint[] = []): Constraint[] {
  if (ast.type === 'and') {
    constraints(ast.left, out);
    constraints(ast.right, out);
  } else if (ast.type === 'key') {
    out.push({ key: ast.key, op: 'truthy' });
  } else if (ast.type === 'not' && ast.operand.type === 'key') {
    out.push({ key: ast.operand.key, op: 'falsy' });
  } else if ((ast.type === 'eq' || ast.type === 'neq') && ast.left.type === 'key' && ast.right.type === 'literal') {
    out.push({ key: ast.left.key, op: ast.type, value: ast.right.value });
  } else if ((ast.type === 'eq' || ast.type === 'neq') && ast.right.type === 'key' && ast.left.type === 'literal') {
    out.push({ key: ast.right.key, op: ast.type, value: ast.left.value });
  }
  return out;
}

function contradict(x: Constraint, y: Constraint): boolean {
  if (x.op === 'eq' && y.op === 'eq') return !same(x.value, y.value);
  if (x.op === 'eq' && y.op === 'neq') return same(x.value, y.value);
  if (x.op === 'truthy' && y.op === 'falsy') return true;
  if (x.op === 'eq' && y.op === 'falsy') return Boolean(x.value);
  if (x.op === 'eq' && y.op === 'truthy') return !x.value;
  return false;
}

/**
 * Whether two clauses can both be true at once. Conservative: only clauses whose top-level `&&`
 * parts pin the same key to contradicting values (`x` vs `!x`, `role == 'A'` vs `role == 'B'`,
 * `k == 'a'` vs `k != 'a'`) are disjoint; anything the check cannot decide counts as overlapping, so
 * a listed conflict may be harmless but a real one is never hidden.
 */
export function whenClausesOverlap(a: CompiledWhen, b: CompiledWhen): boolean {
  const left = constraints(a.ast);
  const right = constraints(b.ast);
  for (const x of left) {
    for (const y of right) {
      if (x.key === y.key && (contradict(x, y) || contradict(y, x))) return false;
    }
  }
  return true;
}
