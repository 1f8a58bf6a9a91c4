import type { Node } from './ast.js';
import { Decimal, decimalText, isNumericString, isRoundingMode, roundDecimal, toDecimal } from './decimal.js';
import { EvaluationError, positionText } from './errors.js';
import type { RiskItemInput } from './product.js';
import type { CompiledRateTable, KeyValue, TableRead } from './rate-tables.js';
import type { WorksheetInput } from './worksheet.js';

export type Value = Decimal | string | boolean;

/** What the evaluator needs of a risk being rated. */
export interface RiskScope {
  path: string;
  type: string;
  /** Field answers (normalized) and computed fields; undefined = no answer. */
  fields: Map<string, Value | undefined>;
  calculations: Map<string, Decimal>;
  items: Map<string, RiskItemInput>;
  parent: RiskScope | null;
  children: RiskScope[];
}

/** Collects what one formula read, for its worksheet line. */
export class Recorder {
  readonly inputs = new Map<string, WorksheetInput>();
  readonly tables: TableRead[] = [];

  input(kind: WorksheetInput['kind'], name: string, value: Value): void {
    const key = `${kind}:${name}`;
    if (!this.inputs.has(key)) this.inputs.set(key, { kind, name, value: valueText(value) });
  }
}

export function valueText(value: Value): string {
  if (value instanceof Decimal) return decimalText(value);
  return String(value);
}

const ZERO = new Decimal(0);

/** Evaluates a bound formula tree for one risk. */
export class Evaluator {
  constructor(
    private readonly tables: Map<string, CompiledRateTable>,
    private readonly risk: RiskScope,
    private readonly recorder: Recorder,
    private readonly step: string,
  ) {}

  private fail(message: string, node: Node): never {
    throw new EvaluationError(
      `${this.risk.path} › ${this.step}: ${message} at ${positionText(node.pos)}`,
      this.risk.path,
      this.step,
      node.pos,
    );
  }

  number(node: Node): Decimal {
    const v = this.eval(node);
    if (v instanceof Decimal) return v;
    if (typeof v === 'string' && isNumericString(v)) return new Decimal(v.trim());
    return this.fail(`expected a number, got ${typeof v === 'string' ? JSON.stringify(v) : v}`, node);
  }

  private bool(node: Node): boolean {
    const v = this.eval(node);
    if (typeof v === 'boolean') return v;
    return this.fail(`expected true or false, got ${valueText(v)}`, node);
  }

  eval(node: Node): Value {
    switch (node.type) {
      case 'number':
        return node.value;
      case 'string':
        return node.value;
      case 'boolean':
        return node.value;
      case 'reference':
        return this.reference(node);
      case 'unary':
        return node.op === '-' ? this.number(node.arg).negated() : !this.bool(node.arg);
      case 'binary':
        return this.binary(node);
      case 'in': {
        const v = this.eval(node.value);
        const found = node.list.some((item) => equals(v, this.eval(item)));
        return node.negated ? !found : found;
      }
      case 'call':
        return this.call(node);
    }
  }

  private reference(node: Extract<Node, { type: 'reference' }>): Value {
    const risk = this.risk;
    if (node.kind === 'calculation') {
      const v = risk.calculations.get(node.name);
      if (v === undefined) return this.fail(`calculation '${node.name}' has no value yet`, node);
      this.recorder.input('calculation', node.name, v);
      return v;
    }
    if (node.kind === 'field') {
      const v = risk.fields.get(node.name);
      if (v === undefined) return this.fail(`field '${node.name}' has no answer and no default`, node);
      this.recorder.input('field', node.name, v);
      return v;
    }
    for (let r = risk.parent; r; r = r.parent) {
      if (r.fields.has(node.name)) {
        const v = r.fields.get(node.name);
        if (v === undefined) return this.fail(`field '${node.name}' of ${r.path} has no answer and no default`, node);
        this.recorder.input('ancestor_field', node.name, v);
        return v;
      }
    }
    return this.fail(`field '${node.name}' is not answered on any enclosing risk`, node);
  }

  private binary(node: Extract<Node, { type: 'binary' }>): Value {
    switch (node.op) {
      case 'and':
        return this.bool(node.left) && this.bool(node.right);
      case 'or':
        return this.bool(node.left) || this.bool(node.right);
      case '=':
        return equals(this.eval(node.left), this.eval(node.right));
      case '!=':
        return !equals(this.eval(node.left), this.eval(node.right));
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const c = this.compare(node);
        return node.op === '<' ? c < 0 : node.op === '<=' ? c <= 0 : node.op === '>' ? c > 0 : c >= 0;
      }
      default: {
        const a = this.number(node.left);
        const b = this.number(node.right);
        switch (node.op) {
          case '+':
            return a.plus(b);
          case '-':
            return a.minus(b);
          case '*':
            return a.times(b);
          case '/':
            if (b.isZero()) return this.fail('division by zero', node);
            return a.dividedBy(b);
          case '%':
            if (b.isZero()) return this.fail('division by zero', node);
            return a.modulo(b);
          case '^':
            return a.pow(b);
        }
      }
    }
  }

  private compare(node: Extract<Node, { type: 'binary' }>): number {
    const a = this.eval(node.left);
    const b = this.eval(node.right);
    const na = asNumber(a);
    const nb = asNumber(b);
    if (na && nb) return na.comparedTo(nb);
    if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
    return this.fail(`cannot compare ${valueText(a)} with ${valueText(b)}`, node);
  }

  private call(node: Extract<Node, { type: 'call' }>): Value {
    if (node.table !== undefined) {
      const keys: KeyValue[] = [];
      for (let i = node.keyStart ?? 0; i < node.args.length; i++) keys.push(this.eval(node.args[i]!));
      return this.lookup(node.table, keys);
    }
    const args = node.args;
    switch (node.fn) {
      case 'min':
      case 'max': {
        let best = this.number(args[0]!);
        for (let i = 1; i < args.length; i++) {
          const v = this.number(args[i]!);
          if (node.fn === 'min' ? v.lessThan(best) : v.greaterThan(best)) best = v;
        }
        return best;
      }
      case 'round': {
        const places = args[1] ? this.places(args[1]) : 0;
        const mode = args[2] ? this.eval(args[2]) : 'half-up';
        if (!isRoundingMode(mode)) return this.fail(`unknown rounding mode ${valueText(mode)}`, args[2]!);
        return roundDecimal(this.number(args[0]!), { places, mode });
      }
      case 'ceil':
        return this.number(args[0]!).toDecimalPlaces(args[1] ? this.places(args[1]) : 0, Decimal.ROUND_CEIL);
      case 'floor':
        return this.number(args[0]!).toDecimalPlaces(args[1] ? this.places(args[1]) : 0, Decimal.ROUND_FLOOR);
      case 'abs':
        return this.number(args[0]!).abs();
      case 'if':
        return this.bool(args[0]!) ? this.eval(args[1]!) : this.eval(args[2]!);
      case 'and':
        return args.every((a) => this.bool(a));
      case 'or':
        return args.some((a) => this.bool(a));
      case 'not':
        return !this.bool(args[0]!);
      case 'limit':
      case 'deductible':
        return this.itemAmount(node);
      case 'has_item': {
        const name = (args[0] as { value: string }).value;
        const has = this.risk.items.has(name);
        this.recorder.input('item', name, has);
        return has;
      }
      case 'sum':
      case 'count':
        return this.children(node);
      default:
        return this.fail(`unknown function ${node.name}`, node);
    }
  }

  private places(node: Node): number {
    const p = this.number(node);
    if (!p.isInteger() || p.isNegative()) return this.fail('decimal places must be a whole number ≥ 0', node);
    return p.toNumber();
  }

  lookup(table: string, keys: KeyValue[]): Decimal {
    const { value, read } = this.tables.get(table)!.lookup(keys);
    this.recorder.tables.push(read);
    return value;
  }

  private itemAmount(node: Extract<Node, { type: 'call' }>): Decimal {
    const kind = node.fn as 'limit' | 'deductible';
    const itemName = (node.args[0] as { value: string }).value;
    const sub = (node.args[1] as { value: string } | undefined)?.value;
    const label = sub ? `${itemName}.${sub}` : itemName;
    const item = this.risk.items.get(itemName);
    if (!item) {
      // An absent (optional) item has no limit or deductible: 0.
      this.recorder.input(kind, label, ZERO);
      return ZERO;
    }
    const raw = sub ? (kind === 'limit' ? item.limits : item.deductibles)?.[sub] : item[kind];
    if (raw === undefined || raw === null || raw === '') {
      return this.fail(`item '${itemName}' has no ${kind}${sub ? ` '${sub}'` : ''}`, node);
    }
    const value = toDecimal(raw);
    this.recorder.input(kind, label, value);
    return value;
  }

  private children(node: Extract<Node, { type: 'call' }>): Decimal {
    const selector = node.args[0]!;
    const type = selector.type === 'call' ? (selector.args[0] as { value: string }).value : null;
    const children = type ? this.risk.children.filter((c) => c.type === type) : this.risk.children;
    if (node.fn === 'count') {
      const n = new Decimal(children.length);
      this.recorder.input('children', `count(${type ?? '*'})`, n);
      return n;
    }
    const calc = (node.args[1] as { value: string }).value;
    let total = ZERO;
    for (const child of children) {
      const v = child.calculations.get(calc);
      if (v !== undefined) total = total.plus(v);
    }
    this.recorder.input('children', `sum(${type ?? '*'}.${calc})`, total);
    return total;
  }
}

function asNumber(v: Value): Decimal | null {
  if (v instanceof Decimal) return v;
  if (typeof v === 'string' && isNumericString(v)) return new Decimal(v.trim());
  return null;
}

/** Equality: numbers by value (a numeric string equals its number), text by text, booleans by value. */
export function equals(a: Value, b: Value): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na && nb) return na.equals(nb);
  return valueText(a) === valueText(b);
}
