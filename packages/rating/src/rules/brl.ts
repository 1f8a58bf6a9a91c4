import { FormulaSyntaxError, type SourcePosition } from '../errors.js';
import { parseExpr, printExpr, quoteString, shiftPosition } from './expr.js';
import {
  BLOCKING_POINTS,
  INPUT_TYPES,
  PARAMETER_TYPES,
  RULE_CATEGORIES,
  SEVERITIES,
  type Action,
  type ArgumentValue,
  type BrlComponent,
  type BrlProblem,
  type Condition,
  type Name,
  type RuleBody,
  type TemplateParameter,
} from './tree.js';

/**
 * BRL, the text form of a rule component (docs/rules.md): line based — a header, properties, then
 * `when` / `then` / `otherwise` sections of one condition or action per line, and `end`.
 * Conditions and action values are expressions of the formula language (expr.ts).
 */
export class BrlSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: SourcePosition,
  ) {
    super(`Line ${position.line}, column ${position.column}: ${message}`);
    this.name = 'BrlSyntaxError';
  }
}

interface Tok {
  kind: 'word' | 'string' | 'number' | 'punct' | 'param';
  text: string;
  value: string;
  col: number; // 0-based within the line
}

interface Line {
  text: string;
  number: number; // 1-based
  offset: number; // of the line start in the whole text
}

function lineTokens(line: Line): Tok[] {
  const tokens: Tok[] = [];
  const s = line.text;
  let i = 0;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '#') break;
    const start = i;
    if (s.startsWith('{{', i)) {
      const m = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/.exec(s.slice(i));
      if (!m) throw syntax(line, i, "a placeholder such as '{{name}}'");
      i += m[0].length;
      tokens.push({ kind: 'param', text: m[0], value: m[1]!, col: start });
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      while (i < s.length && /[A-Za-z0-9_.-]/.test(s[i]!)) i++;
      tokens.push({ kind: 'word', text: s.slice(start, i), value: s.slice(start, i), col: start });
      continue;
    }
    if (/[0-9-]/.test(ch) && /^-?\d+(\.\d+)?/.test(s.slice(i))) {
      const m = /^-?\d+(\.\d+)?/.exec(s.slice(i))!;
      i += m[0].length;
      tokens.push({ kind: 'number', text: m[0], value: m[0], col: start });
      continue;
    }
    if (ch === "'" || ch === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= s.length) throw syntax(line, start, `closing ${ch} of the text`);
        const c = s[i]!;
        if (c === '\\' && i + 1 < s.length) {
          value += s[i + 1];
          i += 2;
          continue;
        }
        i++;
        if (c === ch) break;
        value += c;
      }
      tokens.push({ kind: 'string', text: s.slice(start, i), value, col: start });
      continue;
    }
    tokens.push({ kind: 'punct', text: ch, value: ch, col: start });
    i++;
  }
  return tokens;
}

function pos(line: Line, col: number): SourcePosition {
  return { line: line.number, column: col + 1, offset: line.offset + col };
}

function syntax(line: Line, col: number, expected: string, found?: string): BrlSyntaxError {
  const rest = line.text.slice(col).trim();
  const what = found ?? (rest ? `'${rest.split(/\s+/)[0]}'` : 'end of line');
  return new BrlSyntaxError(`expected ${expected}, found ${what}`, pos(line, col));
}

/** A cursor over one line's tokens. */
class Cursor {
  i = 0;
  constructor(
    readonly line: Line,
    readonly tokens: Tok[],
  ) {}
  peek(ahead = 0): Tok | undefined {
    return this.tokens[this.i + ahead];
  }
  col(): number {
    return this.peek()?.col ?? this.line.text.replace(/\s*(#.*)?$/, '').length;
  }
  isWord(...words: string[]): boolean {
    const t = this.peek();
    return t?.kind === 'word' && words.includes(t.value.toLowerCase());
  }
  words(...words: string[]): boolean {
    return words.every((w, k) => {
      const t = this.peek(k);
      return t?.kind === 'word' && t.value.toLowerCase() === w;
    });
  }
  expectWords(...words: string[]): void {
    for (const w of words) {
      if (!this.isWord(w)) throw syntax(this.line, this.col(), `'${w}'`);
      this.i++;
    }
  }
  word(expected: string): string {
    const t = this.peek();
    if (t?.kind !== 'word') throw syntax(this.line, this.col(), expected);
    this.i++;
    return t.value;
  }
  name(expected: string): Name {
    const t = this.peek();
    if (t?.kind === 'param') {
      this.i++;
      return { param: t.value };
    }
    return this.word(expected);
  }
  string(expected: string): string {
    const t = this.peek();
    if (t?.kind !== 'string') throw syntax(this.line, this.col(), expected);
    this.i++;
    return t.value;
  }
  optionalString(): string | undefined {
    return this.peek()?.kind === 'string' ? this.string('') : undefined;
  }
  integer(expected: string): number {
    const t = this.peek();
    if (t?.kind !== 'number' || !/^-?\d+$/.test(t.value)) throw syntax(this.line, this.col(), expected);
    this.i++;
    return Number(t.value);
  }
  literal(expected: string): ArgumentValue {
    const t = this.peek();
    if (!t) throw syntax(this.line, this.col(), expected);
    this.i++;
    if (t.kind === 'string') return t.value;
    if (t.kind === 'number') return Number(t.value);
    if (t.kind === 'word' && (t.value === 'true' || t.value === 'false')) return t.value === 'true';
    if (t.kind === 'word') return t.value;
    this.i--;
    throw syntax(this.line, this.col(), expected);
  }
  oneOf<T extends string>(values: readonly T[], what: string): T {
    const t = this.peek();
    const v = t?.kind === 'word' ? t.value.toLowerCase() : undefined;
    if (!v || !values.includes(v as T)) throw syntax(this.line, this.col(), `${what} (${values.join(', ')})`);
    this.i++;
    return v as T;
  }
  punct(ch: string): boolean {
    const t = this.peek();
    if (t?.kind === 'punct' && t.value === ch) {
      this.i++;
      return true;
    }
    return false;
  }
  atEnd(): boolean {
    return this.i >= this.tokens.length;
  }
  end(): void {
    if (!this.atEnd()) throw syntax(this.line, this.col(), 'end of line');
  }
  /** The rest of the line from the current token as an expression. */
  expr(expected: string) {
    const t = this.peek();
    if (!t) throw syntax(this.line, this.col(), expected);
    const start = pos(this.line, t.col);
    this.i = this.tokens.length;
    try {
      return parseExpr(this.line.text.slice(t.col));
    } catch (error) {
      if (error instanceof FormulaSyntaxError) {
        throw new BrlSyntaxError(
          `expected ${error.expected}, found ${error.found}`,
          shiftPosition(error.position, start),
        );
      }
      throw error;
    }
  }
  stringList(expected: string): string[] {
    const list = [this.string(expected)];
    while (this.punct(',')) list.push(this.string(expected));
    return list;
  }
}

function parseCondition(c: Cursor): Condition {
  if (c.isWord('and')) c.i++;
  if (c.words('always')) {
    c.i++;
    c.end();
    return { tool: 'always' };
  }
  if (c.words('it', 'is', 'true', 'that')) {
    c.i += 4;
    return { tool: 'it-is-true-that', expr: c.expr('a condition after "it is true that"') };
  }
  if (c.words('user', 'role', 'is')) {
    c.i += 3;
    const roles = c.stringList("a role in quotes, e.g. 'Underwriter'");
    c.end();
    return { tool: 'user-role-is', roles };
  }
  const where = () => {
    if (c.atEnd()) return undefined;
    c.expectWords('where');
    return c.expr('a condition after "where"');
  };
  if (c.words('there', 'is', 'a', 'risk')) {
    c.i += 4;
    const riskType = c.name('a risk type');
    const w = where();
    return w ? { tool: 'there-is-a-risk', riskType, where: w } : { tool: 'there-is-a-risk', riskType };
  }
  if (c.words('there', 'is', 'no', 'risk')) {
    c.i += 4;
    const riskType = c.name('a risk type');
    const w = where();
    return w ? { tool: 'there-is-no-risk', riskType, where: w } : { tool: 'there-is-no-risk', riskType };
  }
  if (c.words('there', 'are')) {
    c.i += 2;
    let quantifier: 'at-least' | 'at-most' | 'exactly';
    if (c.words('at', 'least')) quantifier = 'at-least';
    else if (c.words('at', 'most')) quantifier = 'at-most';
    else if (c.words('exactly')) quantifier = 'exactly';
    else throw syntax(c.line, c.col(), "'at least', 'at most' or 'exactly'");
    c.i += quantifier === 'exactly' ? 1 : 2;
    const count = c.integer('a whole number of risks');
    if (count < 0) throw syntax(c.line, c.col(), 'a count of 0 or more');
    c.expectWords('risks');
    const riskType = c.name('a risk type');
    const w = where();
    return w
      ? { tool: 'there-are', quantifier, count, riskType, where: w }
      : { tool: 'there-are', quantifier, count, riskType };
  }
  if (c.words('count', 'risks')) {
    c.i += 2;
    const riskType = c.name('a risk type');
    c.expectWords('as');
    const as = c.word('a name for the count');
    const w = where();
    return w ? { tool: 'count', riskType, as, where: w } : { tool: 'count', riskType, as };
  }
  throw syntax(
    c.line,
    c.col(),
    "a condition ('always', 'it is true that', 'user role is', 'there is a risk', 'there is no risk', 'there are', 'count risks')",
  );
}

function parseAction(c: Cursor): Action {
  if (c.isWord('show', 'hide')) {
    const action = c.word('') === 'show' ? 'show' : 'hide';
    const element = c.name('an element (field or item)');
    c.end();
    return { action, element };
  }
  if (c.isWord('make')) {
    c.i++;
    const element = c.name('an element (field or item)');
    const action = c.oneOf(['readonly', 'editable', 'mandatory', 'optional'] as const, 'a property');
    c.end();
    return { action, element };
  }
  if (c.isWord('mark')) {
    c.i++;
    const element = c.name('an element (field or item)');
    c.expectWords('invalid');
    if (c.atEnd()) return { action: 'invalid', element };
    c.expectWords('message');
    const message = c.string('a message in quotes');
    c.end();
    return { action: 'invalid', element, message };
  }
  if (c.isWord('set')) {
    c.i++;
    const element = c.name('an element (field or item)');
    c.expectWords('to');
    return { action: 'set-value', element, value: c.expr('a value') };
  }
  if (c.words('only', 'allow')) {
    c.i += 2;
    const element = c.name('an element (field or item)');
    c.expectWords('options');
    const options = c.stringList('an option in quotes');
    c.end();
    return { action: 'options-whitelist', element, options };
  }
  if (c.isWord('disallow')) {
    c.i++;
    const element = c.name('an element (field or item)');
    c.expectWords('options');
    const options = c.stringList('an option in quotes');
    c.end();
    return { action: 'options-blacklist', element, options };
  }
  if (c.words('raise', 'issue')) {
    c.i += 2;
    const code = c.string('an issue code in quotes');
    c.expectWords('severity');
    const severity = c.oneOf(SEVERITIES, 'a severity');
    let blocking: (typeof BLOCKING_POINTS)[number] = 'none';
    if (c.isWord('blocking')) {
      c.i++;
      blocking = c.oneOf(BLOCKING_POINTS, 'a blocking point');
    }
    c.expectWords('message');
    const message = c.string('a message in quotes');
    c.end();
    return { action: 'raise-issue', code, severity, blocking, message };
  }
  if (c.words('attach', 'form')) {
    c.i += 2;
    const form = c.string('the form name in quotes');
    let printing: 'print' | 'suppress' = 'print';
    let onRenewal = false;
    if (c.words('suppress', 'printing')) {
      c.i += 2;
      printing = 'suppress';
    } else if (c.words('always', 'print')) {
      c.i += 2;
      c.expectWords('on', 'renewal');
      onRenewal = true;
    }
    c.end();
    return { action: 'attach-form', form, printing, onRenewal };
  }
  throw syntax(
    c.line,
    c.col(),
    "an action ('show', 'hide', 'make', 'mark', 'set', 'only allow', 'disallow', 'raise issue', 'attach form')",
  );
}

function parseParameter(c: Cursor): TemplateParameter {
  const name = c.word('a parameter name');
  if (!c.punct(':')) throw syntax(c.line, c.col(), "':' and the parameter's type");
  const type = c.oneOf(PARAMETER_TYPES, 'a parameter type');
  const p: TemplateParameter = { name, type };
  const label = c.optionalString();
  if (label !== undefined) p.label = label;
  while (!c.atEnd()) {
    if (c.isWord('input-type')) {
      c.i++;
      p.inputType = c.oneOf(INPUT_TYPES, 'an input type');
    } else if (c.isWord('default')) {
      c.i++;
      p.default = c.literal('a default value');
    } else if (c.isWord('documentation')) {
      c.i++;
      p.documentation = c.string('documentation in quotes');
    } else throw syntax(c.line, c.col(), "'input-type', 'default' or 'documentation'");
  }
  return p;
}

/** Parses one component's BRL text into its tree. Throws BrlSyntaxError at the first mistake. */
export function parseBrl(text: string): BrlComponent {
  const lines: Line[] = [];
  let offset = 0;
  text.split('\n').forEach((t, k) => {
    lines.push({ text: t, number: k + 1, offset });
    offset += t.length + 1;
  });
  const meaningful = lines.map((line) => ({ line, tokens: lineTokens(line) })).filter((l) => l.tokens.length > 0);
  const eof: Line = lines[lines.length - 1] ?? { text: '', number: 1, offset: 0 };
  let k = 0;
  const next = () => meaningful[k];
  if (!next()) throw new BrlSyntaxError("expected 'rule' or 'template', found end of text", pos(eof, 0));
  const head = new Cursor(next()!.line, next()!.tokens);
  k++;
  const kind = head.oneOf(['rule', 'template'] as const, "'rule' or 'template'");
  const name = head.word('the component name');
  const label = head.optionalString();
  if (kind === 'rule' && head.words('from', 'template')) {
    head.i += 2;
    const template = head.word('a template name');
    head.end();
    const values: Record<string, ArgumentValue> = {};
    let priority: number | undefined;
    for (; next(); k++) {
      const c = new Cursor(next()!.line, next()!.tokens);
      if (c.isWord('end')) break;
      if (c.isWord('priority')) {
        c.i++;
        priority = c.integer('a whole number');
        c.end();
        continue;
      }
      c.expectWords('with');
      do {
        const arg = c.word('an argument name');
        if (!c.punct('=')) throw syntax(c.line, c.col(), "'=' and the argument's value");
        values[arg] = c.literal('a value');
      } while (c.punct(','));
      c.end();
    }
    const endLine = next();
    if (!endLine) throw new BrlSyntaxError("expected 'end', found end of text", pos(eof, eof.text.length));
    new Cursor(endLine.line, endLine.tokens.slice(1)).end();
    k++;
    if (next()) throw syntax(next()!.line, next()!.tokens[0]!.col, 'nothing after end');
    return {
      kind: 'use',
      name,
      ...(label !== undefined ? { label } : {}),
      template,
      values,
      ...(priority !== undefined ? { priority } : {}),
    };
  }
  head.end();
  const body: RuleBody = { category: 'ui-control', appliesTo: '', priority: 0, when: [], then: [], otherwise: [] };
  if (label !== undefined) body.label = label;
  const parameters: TemplateParameter[] = [];
  let appliesSeen = false;
  for (; next(); k++) {
    const c = new Cursor(next()!.line, next()!.tokens);
    if (c.isWord('when', 'then', 'otherwise', 'end')) break;
    if (c.isWord('category')) {
      c.i++;
      body.category = c.oneOf(RULE_CATEGORIES, 'a category');
    } else if (c.words('applies', 'to')) {
      c.i += 2;
      body.appliesTo = c.name('a risk type');
      appliesSeen = true;
    } else if (c.isWord('priority')) {
      c.i++;
      body.priority = c.integer('a whole number');
    } else if (c.isWord('parameter') && kind === 'template') {
      c.i++;
      parameters.push(parseParameter(c));
    } else {
      throw syntax(
        c.line,
        c.col(),
        kind === 'template'
          ? "'category', 'applies to', 'priority', 'parameter' or 'when'"
          : "'category', 'applies to', 'priority' or 'when'",
      );
    }
    c.end();
  }
  const at = next();
  if (!appliesSeen) {
    const line = at?.line ?? eof;
    throw new BrlSyntaxError("expected 'applies to <risk type>' before the conditions", pos(line, 0));
  }
  let section: 'when' | 'then' | 'otherwise' | null = null;
  const seen = new Set<string>();
  for (; next(); k++) {
    const { line, tokens } = next()!;
    const c = new Cursor(line, tokens);
    if (c.isWord('when', 'then', 'otherwise') && tokens.length === 1) {
      const s = tokens[0]!.value.toLowerCase() as 'when' | 'then' | 'otherwise';
      const order = ['when', 'then', 'otherwise'];
      if (seen.has(s) || (section && order.indexOf(s) < order.indexOf(section))) {
        throw syntax(
          line,
          tokens[0]!.col,
          section === 'when' ? "a condition or 'then'" : "an action, 'otherwise' or 'end'",
        );
      }
      seen.add(s);
      section = s;
      continue;
    }
    if (c.isWord('end') && tokens.length === 1) break;
    if (!section) throw syntax(line, tokens[0]!.col, "'when'");
    if (section === 'when') body.when.push(parseCondition(c));
    else body[section].push(parseAction(c));
  }
  const endLine = next();
  if (!endLine) throw new BrlSyntaxError("expected 'end', found end of text", pos(eof, eof.text.length));
  if (!seen.has('then')) throw syntax(endLine.line, 0, "'then' and at least one action", "'end'");
  k++;
  if (next()) throw syntax(next()!.line, next()!.tokens[0]!.col, 'nothing after end');
  if (body.when.length === 0) body.when.push({ tool: 'always' });
  return kind === 'template' ? { kind: 'template', name, ...body, parameters } : { kind: 'rule', name, ...body };
}

/** Parses without throwing: the tree, or the problem. */
export function tryParseBrl(text: string): { component: BrlComponent | null; problems: BrlProblem[] } {
  try {
    return { component: parseBrl(text), problems: [] };
  } catch (error) {
    if (error instanceof BrlSyntaxError) {
      return { component: null, problems: [{ code: 'syntax', message: error.message, position: error.position }] };
    }
    throw error;
  }
}

const printName = (name: Name) => (typeof name === 'string' ? name : `{{${name.param}}}`);
const printLiteral = (v: ArgumentValue) => (typeof v === 'string' ? quoteString(v) : String(v));
const list = (items: string[]) => items.map(quoteString).join(', ');

export function printCondition(c: Condition): string {
  const where = 'where' in c && c.where ? ` where ${printExpr(c.where)}` : '';
  switch (c.tool) {
    case 'always':
      return 'always';
    case 'it-is-true-that':
      return `it is true that ${printExpr(c.expr)}`;
    case 'user-role-is':
      return `user role is ${list(c.roles)}`;
    case 'there-is-a-risk':
      return `there is a risk ${printName(c.riskType)}${where}`;
    case 'there-is-no-risk':
      return `there is no risk ${printName(c.riskType)}${where}`;
    case 'there-are':
      return `there are ${c.quantifier.replace('-', ' ')} ${c.count} risks ${printName(c.riskType)}${where}`;
    case 'count':
      return `count risks ${printName(c.riskType)} as ${c.as}${where}`;
  }
}

export function printAction(a: Action): string {
  switch (a.action) {
    case 'show':
    case 'hide':
      return `${a.action} ${printName(a.element)}`;
    case 'readonly':
    case 'editable':
    case 'mandatory':
    case 'optional':
      return `make ${printName(a.element)} ${a.action}`;
    case 'invalid':
      return `mark ${printName(a.element)} invalid${a.message !== undefined ? ` message ${quoteString(a.message)}` : ''}`;
    case 'set-value':
      return `set ${printName(a.element)} to ${printExpr(a.value)}`;
    case 'options-whitelist':
      return `only allow ${printName(a.element)} options ${list(a.options)}`;
    case 'options-blacklist':
      return `disallow ${printName(a.element)} options ${list(a.options)}`;
    case 'raise-issue':
      return `raise issue ${quoteString(a.code)} severity ${a.severity}${a.blocking === 'none' ? '' : ` blocking ${a.blocking}`} message ${quoteString(a.message)}`;
    case 'attach-form':
      return `attach form ${quoteString(a.form)}${a.printing === 'suppress' ? ' suppress printing' : a.onRenewal ? ' always print on renewal' : ''}`;
  }
}

/** Prints a component's tree as BRL in the canonical layout (two-space indentation). */
export function printBrl(component: BrlComponent): string {
  const label = component.label !== undefined ? ` ${quoteString(component.label)}` : '';
  if (component.kind === 'use') {
    const out = [`rule ${component.name}${label} from template ${component.template}`];
    if (component.priority !== undefined) out.push(`  priority ${component.priority}`);
    const args = Object.entries(component.values);
    if (args.length > 0) out.push(`  with ${args.map(([k, v]) => `${k} = ${printLiteral(v)}`).join(', ')}`);
    out.push('end');
    return out.join('\n') + '\n';
  }
  const out = [`${component.kind} ${component.name}${label}`];
  if (component.kind === 'template') {
    for (const p of component.parameters) {
      let line = `  parameter ${p.name}: ${p.type}`;
      if (p.label !== undefined) line += ` ${quoteString(p.label)}`;
      if (p.inputType) line += ` input-type ${p.inputType}`;
      if (p.default !== undefined) line += ` default ${printLiteral(p.default)}`;
      if (p.documentation !== undefined) line += ` documentation ${quoteString(p.documentation)}`;
      out.push(line);
    }
  }
  out.push(`  category ${component.category}`, `  applies to ${printName(component.appliesTo)}`);
  if (component.priority !== 0) out.push(`  priority ${component.priority}`);
  out.push('when');
  component.when.forEach((c, i) => out.push(`  ${i === 0 ? '' : 'and '}${printCondition(c)}`));
  out.push('then', ...component.then.map((a) => `  ${printAction(a)}`));
  if (component.otherwise.length > 0) out.push('otherwise', ...component.otherwise.map((a) => `  ${printAction(a)}`));
  out.push('end');
  return out.join('\n') + '\n';
}
