import { Decimal, isNumericString, roundDecimal, isRoundingMode } from '../decimal.js';
import { instantiateTemplate } from './template.js';
import type {
  Action,
  AttachFormAction,
  BlockingPoint,
  BrlComponent,
  Condition,
  Expr,
  RuleComponent,
  Severity,
  TemplateComponent,
} from './tree.js';

/**
 * The one interpreter of rule components — pure TypeScript, no I/O, run by the server (UI controls,
 * underwriting) and in the browser (previews, tests). Deterministic: the as-of date is injected and
 * the clock is never read; inputs are copied and frozen (or read in place when they are a parsed
 * request body, RunOptions.plainJson); every rule has a step budget and a depth
 * limit, and a rule that exceeds them stops with an error naming it (the others still run).
 */
export type Value = Decimal | string | boolean | null;

export interface RiskItemModel {
  name: string;
  limit?: string | number | null;
  deductible?: string | number | null;
  limits?: Record<string, string | number>;
  deductibles?: Record<string, string | number>;
}

/** A risk of the view model: quote's risk state shape (`field_answers`, `items`, child risks). */
export interface RiskModel {
  id?: string | number;
  type: string | { name: string };
  field_answers?: Record<string, unknown>;
  answers?: Record<string, unknown>;
  items?: RiskItemModel[];
  children?: RiskModel[];
  risk_quotes?: RiskModel[];
}

export interface RuleUser {
  username?: string;
  roles?: string[];
}

export interface RuleRunContext {
  /** YYYY-MM-DD: what as_of_date() gives; the rules never read the clock. */
  asOf: string;
  user?: RuleUser;
  viewId?: string;
  /** The risk tree on screen (its root is the risk the page edits). */
  risk: RiskModel;
  extra?: Record<string, unknown>;
  /** The policy a document is assembled for (form inclusion); absent while quoting. */
  policy?: PolicyContext;
}

export const TRANSACTION_KINDS = ['new_business', 'change', 'renewal'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/**
 * What form-inclusion rules read of the policy: `policy_state()`, `transaction_type()`,
 * `has_mortgagee()` and `data_point('policy.premium')` (the documents data-point catalogue's paths).
 */
export interface PolicyContext {
  state?: string | null;
  transaction?: TransactionKind;
  hasMortgagee?: boolean;
  dataPoints?: Record<string, unknown>;
}

/**
 * A form the rules attach, merged over the rules that attach it: the highest priority decides; at
 * equal priority suppressing wins over printing, and a form prints on renewals when one of the
 * deciding rules says "always print on renewal". `prints` applies that to the context's transaction.
 */
export interface FormInclusion {
  form: string;
  printing: 'print' | 'suppress';
  printOnRenewal: boolean;
  prints: boolean;
  /** The rules that decided, by name. */
  rules: string[];
}

export interface RunOptions {
  /** Steps (expression nodes evaluated, risks visited) one rule may take on one risk. Default 10,000. */
  maxSteps?: number;
  /** Deepest nesting of expression evaluation and of the risk tree. Default 64. */
  maxDepth?: number;
  /** Only these elements are answered (untouched ones with their defaults); default every element a rule touched. */
  elements?: string[];
  /**
   * The input is already plain JSON that nothing else holds (a request body just parsed): the run
   * reads it in place instead of copying and freezing it first. Safe because a run is synchronous
   * and never writes to its input; the copy exists for callers whose objects carry getters, class
   * instances or values JSON would change (Dates, undefined), so that every runtime sees the same.
   */
  plainJson?: boolean;
}

export interface ElementState {
  name: string;
  readonly: boolean;
  visible: boolean;
  mandatory: boolean;
  isValid: boolean;
  validationMessage: string | null;
  /** Set only when a rule sets the value. */
  value?: string | boolean | null;
  optionsWhitelist: string[] | null;
  optionsBlacklist: string[] | null;
}

export interface UnderwritingIssue {
  code: string;
  severity: Severity;
  blocking: BlockingPoint;
  message: string;
  rule: string;
  /** The risk the rule ran on (`type#id` path; empty for the root). */
  risk: string;
}

export interface RuleRunError {
  rule: string;
  risk: string;
  code: 'step_budget' | 'depth_limit' | 'evaluation';
  message: string;
}

export interface RunResult {
  actions: ElementState[];
  issues: UnderwritingIssue[];
  /** The forms form-inclusion rules attach, by name. */
  forms: FormInclusion[];
  fired: { rule: string; risk: string; branch: 'then' | 'otherwise' }[];
  errors: RuleRunError[];
  /** Two rules of the same priority setting different values: the first by name won. */
  conflicts: { element: string; property: 'value'; rules: string[] }[];
  steps: number;
}

/** A deployable set of rules: templates applied, disabled components left out, ordered by name. */
export interface RuleBundle {
  rules: RuleComponent[];
}

export function compileBundle(components: BrlComponent[]): RuleBundle {
  const templates = new Map<string, TemplateComponent>();
  for (const c of components) if (c.kind === 'template') templates.set(c.name, c);
  const rules: RuleComponent[] = [];
  for (const c of components) {
    if (c.kind === 'rule') rules.push(c);
    else if (c.kind === 'use') {
      const t = templates.get(c.template);
      if (!t) throw new Error(`Rule '${c.name}': there is no template '${c.template}'.`);
      rules.push(instantiateTemplate(t, c));
    }
  }
  rules.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { rules };
}

class Stop extends Error {
  constructor(
    readonly code: RuleRunError['code'],
    message: string,
  ) {
    super(message);
  }
}

interface RiskNode {
  type: string;
  path: string;
  fields: Map<string, Value>;
  items: Map<string, RiskItemModel>;
  parent: RiskNode | null;
  children: RiskNode[];
  /** Descendants by risk type, filled on first use: many rules count the same risks. */
  below?: Map<string, RiskNode[]>;
  /**
   * Element keys (`path.element`) made on this risk, one string each: proposals are grouped by
   * key, and a string built anew for every proposal was hashed anew for every lookup.
   */
  keys?: Map<string, string>;
}

function toValue(v: unknown): Value {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? fromDouble(v) : null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v;
  return null;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function buildTree(
  model: RiskModel,
  parent: RiskNode | null,
  index: number,
  depth: number,
  maxDepth: number,
): RiskNode {
  if (depth > maxDepth) throw new Stop('depth_limit', `The risk tree is deeper than ${maxDepth} levels.`);
  const type = typeof model.type === 'string' ? model.type : (model.type?.name ?? '');
  const segment = model.id !== undefined && model.id !== null ? `${type}#${model.id}` : `${type}[${index}]`;
  const node: RiskNode = {
    type,
    path: parent === null ? '' : parent.path ? `${parent.path}/${segment}` : segment,
    fields: new Map(),
    items: new Map(),
    parent,
    children: [],
  };
  for (const [k, v] of Object.entries(model.field_answers ?? model.answers ?? {})) node.fields.set(k, toValue(v));
  for (const item of model.items ?? []) node.items.set(item.name, item);
  (model.children ?? model.risk_quotes ?? []).forEach((child, i) =>
    node.children.push(buildTree(child, node, i, depth + 1, maxDepth)),
  );
  return node;
}

/** Risks of `type` below `node` at any depth, in document order (cached on the node for the run). */
function descendants(node: RiskNode, type: string): RiskNode[] {
  node.below ??= new Map();
  let found = node.below.get(type);
  if (!found) {
    found = [];
    const visit = (n: RiskNode) => {
      for (const child of n.children) {
        if (child.type === type) found!.push(child);
        visit(child);
      }
    };
    visit(node);
    node.below.set(type, found);
  }
  return found;
}

function* allRisks(node: RiskNode): Generator<RiskNode> {
  yield node;
  for (const child of node.children) yield* allRisks(child);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function dayNumber(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3]))
    return null;
  return Math.round(ms / 86_400_000);
}
function dayText(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A data point of the policy by its catalogue path (`policy.premium`, `policy.coverages[0].limit`):
 * text stays text (money arrives as decimal text and compares as a number), a list or object is
 * empty, a missing one is empty.
 */
function dataPoint(data: Record<string, unknown> | undefined, path: string): Value {
  let at: unknown = data;
  for (const segment of path.split('.')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)$/.exec(segment);
    if (!m) return null;
    at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[m[1]!] : undefined;
    for (const index of m[2]!.match(/\d+/g) ?? []) at = Array.isArray(at) ? at[Number(index)] : undefined;
  }
  return toValue(at);
}

/**
 * A number literal's value, parsed once per syntax-tree node: a deployed bundle is run thousands of
 * times and Decimal values are immutable, so every run can share them.
 */
const literals = new WeakMap<object, Decimal>();
function literal(e: { value: string | number }): Decimal {
  let value = literals.get(e);
  if (!value) {
    value = typeof e.value === 'number' ? fromDouble(e.value) : new Decimal(e.value);
    if (typeof e.value === 'string') noteExactDouble(value);
    literals.set(e, value);
  }
  return value;
}

/**
 * Numbers that a double holds exactly enough to be compared as doubles: those made from a double
 * (an answer, a count) and those of at most 15 significant digits within the doubles' normal range.
 * Comparing two of them as doubles orders them exactly as comparing the decimals does (15 digits
 * survive a round trip through a double, and a double's shortest text is unique), and it avoids
 * decimal.js's comparison, which copies its argument: comparisons are most of what rules do.
 */
const exactDoubles = new WeakMap<Decimal, number>();
/** Small whole numbers (counts, years, ages) made once: a Decimal never changes, so runs share them. */
const smallIntegers: Decimal[] = [];
function fromDouble(n: number): Decimal {
  const small = Number.isInteger(n) && n >= 0 && n <= 4096;
  if (small && smallIntegers[n]) return smallIntegers[n];
  const d = new Decimal(n);
  exactDoubles.set(d, n);
  if (small) smallIntegers[n] = d;
  return d;
}
function noteExactDouble(d: Decimal): void {
  if (d.sd() > 15) return;
  const n = d.toNumber();
  if (n === 0 || (Math.abs(n) >= 1e-300 && Math.abs(n) <= 1e300)) exactDoubles.set(d, n);
}
function compareNumbers(a: Decimal, b: Decimal): number {
  const x = exactDoubles.get(a);
  if (x !== undefined) {
    const y = exactDoubles.get(b);
    if (y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  }
  return a.comparedTo(b);
}

// A Value that is an object is a Decimal (`instanceof Decimal` runs decimal.js's slower hasInstance).
const asNumber = (v: Value): Decimal | null =>
  typeof v === 'object' && v !== null ? v : typeof v === 'string' && isNumericString(v) ? new Decimal(v.trim()) : null;

export function valueEquals(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  // The same text is the same value, as a number or not.
  if (typeof a === 'string' && a === b) return true;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na && nb) return compareNumbers(na, nb) === 0;
  return String(a) === String(b);
}

export function valueText(v: Value): string | boolean | null {
  return v instanceof Decimal ? v.toFixed() : v;
}

class RuleEvaluator {
  steps = 0;
  private depth = 0;
  /** `as` names of the conditions run so far; made on first use (most rules name nothing). */
  private variables: Map<string, Value> | null = null;

  constructor(
    private readonly rule: string,
    private readonly context: RuleRunContext,
    private readonly maxSteps: number,
    private readonly maxDepth: number,
  ) {}

  tick(): void {
    if (++this.steps > this.maxSteps) {
      throw new Stop(
        'step_budget',
        `Rule '${this.rule}' stopped: it took more than its budget of ${this.maxSteps} steps.`,
      );
    }
  }

  private fail(message: string): never {
    throw new Stop('evaluation', `Rule '${this.rule}': ${message}`);
  }

  truth(e: Expr, risk: RiskNode): boolean {
    const v = this.eval(e, risk);
    if (v === null) return false;
    if (typeof v !== 'boolean') this.fail(`expected true or false, got ${String(valueText(v))}`);
    return v;
  }

  private num(e: Expr, risk: RiskNode): Decimal | null {
    const v = this.eval(e, risk);
    if (v === null) return null;
    const n = asNumber(v);
    if (!n) this.fail(`expected a number, got ${JSON.stringify(valueText(v))}`);
    return n;
  }

  private date(e: Expr, risk: RiskNode): number | null {
    const v = this.eval(e, risk);
    if (v === null) return null;
    const d = typeof v === 'string' ? dayNumber(v) : null;
    if (d === null) this.fail(`expected a date (YYYY-MM-DD), got ${JSON.stringify(valueText(v))}`);
    return d;
  }

  eval(e: Expr, risk: RiskNode): Value {
    this.tick();
    if (++this.depth > this.maxDepth) {
      throw new Stop(
        'depth_limit',
        `Rule '${this.rule}' stopped: expressions nest deeper than ${this.maxDepth} levels.`,
      );
    }
    try {
      return this.evalInner(e, risk);
    } finally {
      this.depth--;
    }
  }

  private evalInner(e: Expr, risk: RiskNode): Value {
    switch (e.type) {
      case 'number':
        return literal(e);
      case 'string':
        return e.value;
      case 'boolean':
        return e.value;
      case 'param':
        return this.fail(`the template placeholder {{${e.name}}} has no value`);
      case 'reference': {
        if (!e.namespace && this.variables?.has(e.name)) return this.variables.get(e.name)!;
        for (let r: RiskNode | null = risk; r; r = r.parent) if (r.fields.has(e.name)) return r.fields.get(e.name)!;
        return null;
      }
      case 'unary': {
        if (e.op === '-') return this.num(e.arg, risk)?.negated() ?? null;
        return !this.truth(e.arg, risk);
      }
      case 'in': {
        const v = this.eval(e.value, risk);
        const found = e.list.some((item) => valueEquals(v, this.eval(item, risk)));
        return e.negated ? !found : found;
      }
      case 'binary':
        return this.binary(e, risk);
      case 'call':
        return this.call(e, risk);
    }
  }

  private binary(e: Extract<Expr, { type: 'binary' }>, risk: RiskNode): Value {
    switch (e.op) {
      case 'and':
        return this.truth(e.left, risk) && this.truth(e.right, risk);
      case 'or':
        return this.truth(e.left, risk) || this.truth(e.right, risk);
      case '=':
        return valueEquals(this.eval(e.left, risk), this.eval(e.right, risk));
      case '!=':
        return !valueEquals(this.eval(e.left, risk), this.eval(e.right, risk));
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const a = this.eval(e.left, risk);
        const b = this.eval(e.right, risk);
        if (a === null || b === null) return false;
        const na = asNumber(a);
        const nb = asNumber(b);
        let c: number;
        if (na && nb) c = compareNumbers(na, nb);
        else if (typeof a === 'string' && typeof b === 'string') c = a < b ? -1 : a > b ? 1 : 0;
        else return this.fail(`cannot compare ${JSON.stringify(valueText(a))} with ${JSON.stringify(valueText(b))}`);
        return e.op === '<' ? c < 0 : e.op === '<=' ? c <= 0 : e.op === '>' ? c > 0 : c >= 0;
      }
      default: {
        const a = this.num(e.left, risk);
        const b = this.num(e.right, risk);
        if (a === null || b === null) return null;
        switch (e.op) {
          case '+':
            return a.plus(b);
          case '-':
            return a.minus(b);
          case '*':
            return a.times(b);
          case '/':
            if (b.isZero()) return this.fail('division by zero');
            return a.dividedBy(b);
          case '%':
            if (b.isZero()) return this.fail('division by zero');
            return a.mod(b);
          default:
            return a.pow(b);
        }
      }
    }
  }

  private call(e: Extract<Expr, { type: 'call' }>, risk: RiskNode): Value {
    const arg = (i: number) => this.eval(e.args[i]!, risk);
    const text = (i: number) => {
      const v = arg(i);
      if (typeof v !== 'string') this.fail(`${e.fn}() needs text as argument ${i + 1}`);
      return v;
    };
    switch (e.fn) {
      case 'min':
      case 'max': {
        let best: Decimal | null = null;
        for (let i = 0; i < e.args.length; i++) {
          const n = this.num(e.args[i]!, risk);
          if (n === null) return null;
          if (!best || (e.fn === 'min' ? n.lessThan(best) : n.greaterThan(best))) best = n;
        }
        return best;
      }
      case 'round':
      case 'ceil':
      case 'floor': {
        const x = this.num(e.args[0]!, risk);
        const places = e.args[1] ? (this.num(e.args[1], risk)?.toNumber() ?? 0) : 0;
        if (x === null) return null;
        if (e.fn === 'ceil') return x.toDecimalPlaces(places, Decimal.ROUND_CEIL);
        if (e.fn === 'floor') return x.toDecimalPlaces(places, Decimal.ROUND_FLOOR);
        const mode = e.args[2] ? arg(2) : 'half-up';
        if (!isRoundingMode(mode)) return this.fail(`unknown rounding mode ${JSON.stringify(valueText(mode))}`);
        return roundDecimal(x, { places, mode });
      }
      case 'abs':
        return this.num(e.args[0]!, risk)?.abs() ?? null;
      case 'if':
        return this.truth(e.args[0]!, risk) ? arg(1) : arg(2);
      case 'and':
        return e.args.every((a) => this.truth(a, risk));
      case 'or':
        return e.args.some((a) => this.truth(a, risk));
      case 'not':
        return !this.truth(e.args[0]!, risk);
      case 'has_item':
        return risk.items.has(text(0));
      case 'limit':
      case 'deductible': {
        const item = risk.items.get(text(0));
        if (!item) return new Decimal(0);
        const raw = e.args[1] ? (e.fn === 'limit' ? item.limits : item.deductibles)?.[text(1)] : item[e.fn];
        if (raw === undefined || raw === null || raw === '') return null;
        const amount = asNumber(typeof raw === 'number' ? new Decimal(raw) : String(raw));
        if (!amount) return this.fail(`the ${e.fn} of '${text(0)}' is not a number: ${JSON.stringify(raw)}`);
        return amount;
      }
      case 'answered': {
        const name = text(0);
        for (let r: RiskNode | null = risk; r; r = r.parent) if (r.fields.has(name)) return r.fields.get(name) !== null;
        return false;
      }
      case 'any_risk':
      case 'no_risk':
      case 'count_risks': {
        const n = this.countRisks(risk, text(0), e.args[1], e.fn === 'count_risks' ? Infinity : 1);
        return e.fn === 'count_risks' ? fromDouble(n) : e.fn === 'any_risk' ? n > 0 : n === 0;
      }
      case 'user_role_is': {
        const roles = this.context.user?.roles ?? [];
        return e.args.some((_, i) => roles.includes(text(i)));
      }
      case 'as_of_date':
        return this.context.asOf;
      case 'policy_state':
        return this.context.policy?.state ?? null;
      case 'transaction_type':
        return this.context.policy?.transaction ?? null;
      case 'has_mortgagee':
        return this.context.policy?.hasMortgagee ?? null;
      case 'data_point':
        return dataPoint(this.context.policy?.dataPoints, text(0));
      case 'date': {
        const d = this.date(e.args[0]!, risk);
        return d === null ? null : dayText(d);
      }
      case 'days_between': {
        const a = this.date(e.args[0]!, risk);
        const b = this.date(e.args[1]!, risk);
        return a === null || b === null ? null : new Decimal(b - a);
      }
      case 'years_between': {
        const a = arg(0);
        const b = arg(1);
        if (a === null || b === null) return null;
        if (typeof a !== 'string' || typeof b !== 'string' || dayNumber(a) === null || dayNumber(b) === null) {
          return this.fail('years_between() needs two dates (YYYY-MM-DD)');
        }
        let years = Number(b.slice(0, 4)) - Number(a.slice(0, 4));
        if (b.slice(5) < a.slice(5)) years--;
        return new Decimal(years);
      }
      case 'add_days': {
        const d = this.date(e.args[0]!, risk);
        const n = this.num(e.args[1]!, risk);
        if (d === null || n === null) return null;
        if (!n.isInteger()) return this.fail('add_days() adds whole days');
        return dayText(d + n.toNumber());
      }
      case 'year': {
        const d = this.date(e.args[0]!, risk);
        return d === null ? null : new Decimal(Number(dayText(d).slice(0, 4)));
      }
      default:
        return this.fail(`unknown function ${e.fn}()`);
    }
  }

  /** Risks of `type` below `risk` (any depth) for which `where` holds; stops after `enough`. */
  countRisks(risk: RiskNode, type: string, where: Expr | undefined, enough: number): number {
    let n = 0;
    for (const r of descendants(risk, type)) {
      this.tick();
      if (!where || this.truth(where, r)) {
        n++;
        if (n >= enough) break;
      }
    }
    return n;
  }

  condition(c: Condition, risk: RiskNode): boolean {
    this.tick();
    switch (c.tool) {
      case 'always':
        return true;
      case 'it-is-true-that':
        return this.truth(c.expr, risk);
      case 'user-role-is':
        return c.roles.some((r) => (this.context.user?.roles ?? []).includes(r));
      case 'there-is-a-risk':
        return this.countRisks(risk, c.riskType as string, c.where, 1) > 0;
      case 'there-is-no-risk':
        return this.countRisks(risk, c.riskType as string, c.where, 1) === 0;
      case 'there-are': {
        const n = this.countRisks(
          risk,
          c.riskType as string,
          c.where,
          c.quantifier === 'at-least' ? c.count : Infinity,
        );
        return c.quantifier === 'at-least' ? n >= c.count : c.quantifier === 'at-most' ? n <= c.count : n === c.count;
      }
      case 'count':
        (this.variables ??= new Map()).set(
          c.as,
          fromDouble(this.countRisks(risk, c.riskType as string, c.where, Infinity)),
        );
        return true;
    }
  }
}

type Property = 'visible' | 'readonly' | 'mandatory' | 'invalid' | 'value' | 'whitelist' | 'blacklist';
interface Proposal {
  element: string;
  property: Property;
  value: unknown;
  priority: number;
  rule: string;
  /** The rule name's place in name order (ruleRanks): ties at a priority compare as integers. */
  rank: number;
}

const SEVERITY_RANK: Record<Severity, number> = { 'early-decline': 5, decline: 4, refer: 3, warning: 2, info: 1 };

export function defaultElement(name: string): ElementState {
  return {
    name,
    readonly: false,
    visible: true,
    mandatory: false,
    isValid: true,
    validationMessage: null,
    optionsWhitelist: null,
    optionsBlacklist: null,
  };
}

/**
 * Runs every rule of a bundle on every risk of its type in the view model and merges what they
 * say per element: the highest priority wins; at equal priority the most restrictive (hidden,
 * read-only, mandatory, invalid); whitelists are intersected and blacklists united.
 */
export function runRules(bundle: RuleBundle, input: RuleRunContext, options: RunOptions = {}): RunResult {
  const maxSteps = options.maxSteps ?? 10_000;
  const maxDepth = options.maxDepth ?? 64;
  // A plain JSON copy (no functions, getters or shared objects), frozen: rules cannot change inputs.
  const context = options.plainJson ? input : deepFreeze(JSON.parse(JSON.stringify(input)) as RuleRunContext);
  const result: RunResult = { actions: [], issues: [], forms: [], fired: [], errors: [], conflicts: [], steps: 0 };
  let root: RiskNode;
  try {
    root = buildTree(context.risk, null, 0, 1, maxDepth);
  } catch (error) {
    if (error instanceof Stop) {
      result.errors.push({ rule: '', risk: '', code: error.code, message: error.message });
      return result;
    }
    throw error;
  }
  const proposals: Proposal[] = [];
  const attached: AttachedForm[] = [];
  const ranks = ruleRanks(bundle);
  const risks = [...allRisks(root)];
  for (const rule of bundle.rules) {
    for (const risk of risks) {
      if (risk.type !== rule.appliesTo) continue;
      const ev = new RuleEvaluator(rule.name, context, maxSteps, maxDepth);
      // What this rule proposes on this risk is appended in place and cut back if the rule stops:
      // a rule that fails says nothing, as if it had not run.
      const proposed = proposals.length;
      const raised = result.issues.length;
      const formsAttached = attached.length;
      try {
        let holds = true;
        for (const c of rule.when) {
          if (!ev.condition(c, risk)) {
            holds = false;
            break;
          }
        }
        const branch = holds ? 'then' : 'otherwise';
        const actions: Action[] = rule[branch];
        for (const a of actions) applyAction(a, rule, risk, ev, proposals, result.issues, attached, ranks);
        if (actions.length > 0) result.fired.push({ rule: rule.name, risk: risk.path, branch });
      } catch (error) {
        proposals.length = proposed;
        result.issues.length = raised;
        attached.length = formsAttached;
        // Anything a rule runs into (a bad rounding argument, a number too large …) stops that rule only.
        const stop =
          error instanceof Stop ? error : new Stop('evaluation', `Rule '${rule.name}': ${(error as Error).message}`);
        result.errors.push({ rule: rule.name, risk: risk.path, code: stop.code, message: stop.message });
      }
      result.steps += ev.steps;
    }
  }
  result.actions = merge(proposals, options.elements, result);
  result.forms = mergeForms(attached, context.policy?.transaction);
  result.issues.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      byName.compare(a.code, b.code) ||
      byName.compare(a.risk, b.risk),
  );
  return result;
}

function elementKey(risk: RiskNode, element: string): string {
  if (!risk.path) return element;
  risk.keys ??= new Map();
  let key = risk.keys.get(element);
  if (key === undefined) {
    key = `${risk.path}.${element}`;
    risk.keys.set(element, key);
  }
  return key;
}

function applyAction(
  a: Action,
  rule: RuleComponent,
  risk: RiskNode,
  ev: RuleEvaluator,
  out: Proposal[],
  issues: UnderwritingIssue[],
  forms: AttachedForm[],
  ranks: ReadonlyMap<string, number>,
): void {
  ev.tick();
  const propose = (property: Property, value: unknown): void => {
    const element = elementKey(
      risk,
      a.action === 'raise-issue' || a.action === 'attach-form' ? '' : (a.element as string),
    );
    out.push({ element, property, value, priority: rule.priority, rule: rule.name, rank: ranks.get(rule.name) ?? 0 });
  };
  switch (a.action) {
    case 'show':
    case 'hide':
      return propose('visible', a.action === 'show');
    case 'readonly':
    case 'editable':
      return propose('readonly', a.action === 'readonly');
    case 'mandatory':
    case 'optional':
      return propose('mandatory', a.action === 'mandatory');
    case 'invalid':
      return propose('invalid', a.message ?? rule.label ?? `${a.element as string} is not valid.`);
    case 'set-value':
      return propose('value', valueText(ev.eval(a.value, risk)));
    case 'options-whitelist':
      return propose('whitelist', a.options);
    case 'options-blacklist':
      return propose('blacklist', a.options);
    case 'raise-issue':
      issues.push({
        code: a.code,
        severity: a.severity,
        blocking: a.blocking,
        message: a.message,
        rule: rule.name,
        risk: risk.path,
      });
      return;
    case 'attach-form':
      forms.push({ ...a, priority: rule.priority, rule: rule.name });
  }
}

type AttachedForm = AttachFormAction & { priority: number; rule: string };

function mergeForms(attached: AttachedForm[], transaction: string | undefined): FormInclusion[] {
  const byForm = new Map<string, AttachedForm[]>();
  for (const a of attached) byForm.set(a.form, [...(byForm.get(a.form) ?? []), a]);
  return [...byForm.keys()].sort().map((form) => {
    const list = byForm.get(form)!;
    const top = Math.max(...list.map((a) => a.priority));
    const deciding = list.filter((a) => a.priority === top);
    const printing = deciding.some((a) => a.printing === 'suppress') ? 'suppress' : 'print';
    const printOnRenewal = printing === 'print' && deciding.some((a) => a.onRenewal);
    return {
      form,
      printing,
      printOnRenewal,
      prints: printing === 'print' && (transaction !== 'renewal' || printOnRenewal),
      rules: [...new Set(deciding.map((a) => a.rule))].sort(),
    };
  });
}

/** The order of `a.localeCompare(b)` (ECMA-402: the same default collator), built once. */
const byName = new Intl.Collator();

/**
 * Each rule name's place in `localeCompare` order, per bundle (computed once: a deployed bundle
 * runs thousands of times). Names the collator finds equal share a place, as the comparison did.
 */
const ranksByBundle = new WeakMap<RuleBundle, ReadonlyMap<string, number>>();
function ruleRanks(bundle: RuleBundle): ReadonlyMap<string, number> {
  let ranks = ranksByBundle.get(bundle);
  if (!ranks) {
    const names = [...new Set(bundle.rules.map((r) => r.name))].sort(byName.compare);
    const map = new Map<string, number>();
    names.forEach((name, i) =>
      map.set(name, i > 0 && byName.compare(names[i - 1]!, name) === 0 ? map.get(names[i - 1]!)! : i),
    );
    ranksByBundle.set(bundle, map);
    ranks = map;
  }
  return ranks;
}

function merge(proposals: Proposal[], wanted: string[] | undefined, result: RunResult): ElementState[] {
  // Only the wanted elements' proposals are grouped: a view asks for a few of the many elements
  // its rules touch.
  const only = wanted ? new Set(wanted) : null;
  const byElement = new Map<string, Proposal[]>();
  for (const p of proposals) {
    if (only && !only.has(p.element)) continue;
    const list = byElement.get(p.element);
    if (list) list.push(p);
    else byElement.set(p.element, [p]);
  }
  const names = wanted ?? [...byElement.keys()].sort();
  return names.map((name) => {
    const state = defaultElement(name);
    const list = byElement.get(name);
    if (!list) return state;
    // One pass splits an element's proposals by property. The flags need only the highest
    // priority and whether a proposal there is restrictive; the rest are put in order (highest
    // priority first, ties by rule name, then as proposed) so that the outcome never depends on
    // storage order. Sorting each property's few proposals gives the order sorting them all did.
    const top = { visible: -Infinity, readonly: -Infinity, mandatory: -Infinity };
    const restricts = { visible: false, readonly: false, mandatory: false };
    const RESTRICTIVE = { visible: false, readonly: true, mandatory: true } as const;
    const ordered: Partial<Record<'invalid' | 'value' | 'whitelist' | 'blacklist', Proposal[]>> = {};
    for (const p of list) {
      const property = p.property;
      if (property === 'visible' || property === 'readonly' || property === 'mandatory') {
        if (p.priority > top[property]) {
          top[property] = p.priority;
          restricts[property] = p.value === RESTRICTIVE[property];
        } else if (p.priority === top[property] && p.value === RESTRICTIVE[property]) {
          restricts[property] = true;
        }
      } else {
        (ordered[property] ??= []).push(p);
      }
    }
    for (const property of ['visible', 'readonly', 'mandatory'] as const) {
      if (top[property] !== -Infinity) {
        state[property] = restricts[property] ? RESTRICTIVE[property] : !RESTRICTIVE[property];
      }
    }
    const inOrder = (property: 'invalid' | 'value' | 'whitelist' | 'blacklist'): Proposal[] => {
      const ps = ordered[property] ?? [];
      return ps.length > 1 ? ps.sort((a, b) => b.priority - a.priority || a.rank - b.rank) : ps;
    };
    const invalid = inOrder('invalid');
    if (invalid.length > 0) {
      state.isValid = false;
      state.validationMessage = invalid[0]!.value as string;
    }
    const values = inOrder('value');
    if (values.length > 0) {
      state.value = values[0]!.value as string | boolean | null;
      const tied = values.filter((p) => p.priority === values[0]!.priority);
      if (tied.some((p) => p.value !== values[0]!.value)) {
        result.conflicts.push({ element: name, property: 'value', rules: tied.map((p) => p.rule) });
      }
    }
    const white = inOrder('whitelist');
    if (white.length > 0) {
      let allowed = white[0]!.value as string[];
      for (const p of white.slice(1)) allowed = allowed.filter((o) => (p.value as string[]).includes(o));
      state.optionsWhitelist = [...allowed];
    }
    const black = ordered.blacklist ?? [];
    if (black.length > 0) state.optionsBlacklist = [...new Set(black.flatMap((p) => p.value as string[]))].sort();
    return state;
  });
}
