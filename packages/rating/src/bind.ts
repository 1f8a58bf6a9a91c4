import type { Formula, Node } from './ast.js';
import { BUILTINS } from './builtins.js';
import type { CompiledFormulaStep, CompiledRiskType } from './compiled-product.js';
import type { RoundSpec } from './decimal.js';
import { FormulaSyntaxError, positionText, type DefinitionProblem } from './errors.js';
import { parseFormula } from './parser.js';
import type { CompiledRateTable } from './rate-tables.js';

/** Binds names in formulas of one risk type and records what each formula depends on. */
export class Binder {
  constructor(
    private readonly rt: CompiledRiskType,
    private readonly riskTypes: Map<string, CompiledRiskType>,
    private readonly tables: Map<string, CompiledRateTable>,
    private readonly problems: DefinitionProblem[],
  ) {}

  step(
    name: string,
    source: string,
    kind: 'field' | 'calculation',
    round?: RoundSpec,
    item?: string,
  ): CompiledFormulaStep | null {
    let formula: Formula;
    const where = kind === 'field' ? { field: name } : { calculation: name };
    try {
      formula = parseFormula(source);
    } catch (error) {
      if (!(error instanceof FormulaSyntaxError)) throw error;
      this.problems.push({
        code: 'formula_syntax',
        riskType: this.rt.name,
        ...where,
        position: error.position,
        message: `${kind === 'field' ? 'Computed field' : 'Calculation'} '${name}' of '${this.rt.name}': ${error.message}`,
      });
      return null;
    }
    const deps = new Set<string>();
    const before = this.problems.length;
    this.bind(formula.ast, kind, deps, (message, node) =>
      this.problems.push({
        code: 'unknown_reference',
        riskType: this.rt.name,
        ...where,
        position: node.pos,
        message: `${kind === 'field' ? 'Computed field' : 'Calculation'} '${name}' of '${this.rt.name}': ${message} at ${positionText(node.pos)}`,
      }),
    );
    if (this.problems.length > before) return null;
    return { name, formula, round, item, dependsOn: [...deps] };
  }

  private bind(
    node: Node,
    scope: 'field' | 'calculation',
    deps: Set<string>,
    report: (message: string, node: Node) => void,
  ): void {
    const rt = this.rt;
    const recurse = (n: Node) => this.bind(n, scope, deps, report);
    switch (node.type) {
      case 'number':
      case 'string':
      case 'boolean':
        return;
      case 'unary':
        return recurse(node.arg);
      case 'binary':
        recurse(node.left);
        return recurse(node.right);
      case 'in':
        recurse(node.value);
        return node.list.forEach(recurse);
      case 'reference': {
        const calcs = scope === 'calculation' && node.namespace !== 'field';
        const fields = node.namespace !== 'calc';
        if (calcs && rt.definition.calculations.some((c) => c.name === node.name)) {
          node.kind = 'calculation';
          deps.add(node.name);
        } else if (fields && rt.fields.has(node.name)) {
          node.kind = 'field';
          if (scope === 'field' && rt.fields.get(node.name)!.formula !== undefined) deps.add(node.name);
        } else if (fields && rt.ancestorFields.has(node.name)) {
          node.kind = 'ancestor_field';
        } else if (node.name === 'children') {
          report("'children' can only be used inside sum(…) or count(…)", node);
        } else {
          const what = node.namespace === 'calc' ? 'calculation' : node.namespace === 'field' ? 'field' : 'reference';
          report(`Unknown ${what} '${node.name}'`, node);
        }
        return;
      }
      case 'call':
        return this.bindCall(node, scope, deps, report, recurse);
    }
  }

  private bindCall(
    node: Extract<Node, { type: 'call' }>,
    scope: 'field' | 'calculation',
    deps: Set<string>,
    report: (message: string, node: Node) => void,
    recurse: (n: Node) => void,
  ): void {
    const rt = this.rt;
    const name = node.fn;
    const builtin = BUILTINS[name];
    if (!builtin) {
      const table = this.tables.get(node.name);
      if (!table) return report(`Unknown function or rate table '${node.name}'`, node);
      node.table = node.name;
      node.keyStart = 0;
      if (node.args.length !== table.keyNames.length) {
        report(
          `Rate table '${node.name}' takes ${table.keyNames.length} key(s) (${table.keyNames.join(', ')}), got ${node.args.length}`,
          node,
        );
      }
      return node.args.forEach(recurse);
    }
    if (node.args.length < builtin.min || (builtin.max >= 0 && node.args.length > builtin.max)) {
      const count =
        builtin.max < 0
          ? `at least ${builtin.min}`
          : builtin.min === builtin.max
            ? `${builtin.min}`
            : `${builtin.min} to ${builtin.max}`;
      return report(`${name}() takes ${count} argument(s), got ${node.args.length}`, node);
    }
    const first = node.args[0]!;
    switch (name) {
      case 'table':
      case 'lookup': {
        const tableName =
          first.type === 'string'
            ? first.value
            : first.type === 'reference' && !first.namespace
              ? first.name
              : undefined;
        if (tableName === undefined) return report(`${name}() needs a rate table name first`, first);
        const table = this.tables.get(tableName);
        if (!table) return report(`Unknown rate table '${tableName}'`, first);
        node.table = tableName;
        node.keyStart = 1;
        const keys = node.args.slice(1);
        if (keys.length !== table.keyNames.length) {
          report(
            `Rate table '${tableName}' takes ${table.keyNames.length} key(s) (${table.keyNames.join(', ')}), got ${keys.length}`,
            node,
          );
        }
        return keys.forEach(recurse);
      }
      case 'limit':
      case 'deductible':
      case 'has_item': {
        if (first.type !== 'string') return report(`${name}() needs an item name in quotes`, first);
        if (!rt.items.has(first.value)) return report(`Unknown item '${first.value}'`, first);
        const second = node.args[1];
        if (second && second.type !== 'string') return report(`${name}() needs a ${name} name in quotes`, second);
        return;
      }
      case 'sum':
      case 'count': {
        if (scope !== 'calculation') return report(`${name}() over children is only allowed in calculations`, node);
        const types = this.childrenTypes(first, report);
        if (!types) return;
        if (name === 'sum') {
          const calc = node.args[1]!;
          if (calc.type !== 'string') return report('sum() needs a calculation name in quotes', calc);
          const known = types.some((t) =>
            this.riskTypes.get(t)?.definition.calculations.some((c) => c.name === calc.value),
          );
          if (!known)
            return report(`Unknown calculation '${calc.value}' of child risks (${types.join(', ') || 'none'})`, calc);
        }
        return;
      }
      default:
        return node.args.forEach(recurse);
    }
  }

  private childrenTypes(node: Node, report: (message: string, node: Node) => void): string[] | null {
    if (node.type === 'reference' && node.name === 'children' && !node.namespace) return this.rt.childTypes;
    if (node.type === 'call' && node.name === 'children' && node.args.length === 1 && node.args[0]!.type === 'string') {
      const type = node.args[0]!.value;
      if (!this.rt.childTypes.includes(type)) {
        report(`'${type}' is not a child risk type of '${this.rt.name}'`, node.args[0]!);
        return null;
      }
      return [type];
    }
    report("expected children or children('risk type')", node);
    return null;
  }
}
