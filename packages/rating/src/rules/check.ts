import { printExpr } from './expr.js';
import { RULE_FUNCTIONS } from './functions.js';
import { fieldOf, lineage, type Ontology, type OntologyField } from './ontology.js';
import { instantiateTemplate, TemplateError } from './template.js';
import type { Action, BrlComponent, BrlProblem, Condition, Expr, Name, RuleBody, TemplateComponent } from './tree.js';

type T = 'number' | 'string' | 'boolean' | 'date' | 'any';

interface Scope {
  /** Risk type the names resolve on; null when unknown (a template placeholder). */
  riskType: string | null;
  variables: Set<string>;
}

const fieldType = (f: OntologyField): T =>
  f.type === 'number'
    ? 'number'
    : f.type === 'boolean'
      ? 'boolean'
      : f.type === 'date'
        ? 'date'
        : f.type === 'computed'
          ? 'any'
          : 'string';

/**
 * Type-checks a component against the ontology of a product version: risk types, fields, items and
 * options must exist, operands must have fitting types, functions the right number of arguments.
 * Templates are checked with their placeholders as "any"; a use is checked as the rule it makes.
 */
export function checkComponent(
  component: BrlComponent,
  ontology: Ontology,
  templates: ReadonlyMap<string, TemplateComponent> = new Map(),
): BrlProblem[] {
  const problems: BrlProblem[] = [];
  const where = (name: string) => `'${name}'`;
  if (component.kind === 'use') {
    const template = templates.get(component.template);
    if (!template)
      return [
        { code: 'template', message: `Rule ${where(component.name)}: there is no template '${component.template}'.` },
      ];
    try {
      return checkComponent(instantiateTemplate(template, component), ontology, templates);
    } catch (error) {
      if (error instanceof TemplateError)
        return [{ code: 'template', message: `Rule ${where(component.name)}: ${error.message}` }];
      throw error;
    }
  }
  const prefix = `${component.kind === 'template' ? 'Template' : 'Rule'} ${where(component.name)}`;
  const report = (code: BrlProblem['code'], message: string) =>
    problems.push({ code, message: `${prefix}: ${message}` });
  checkBody(component, ontology, report);
  return problems;
}

function checkBody(body: RuleBody, ontology: Ontology, report: (code: BrlProblem['code'], message: string) => void) {
  const riskTypeOf = (name: Name): string | null => {
    if (typeof name !== 'string') return null;
    if (!ontology.riskTypes.some((t) => t.name === name)) {
      report('unknown_reference', `'${name}' is not a risk type of ${ontology.product}.`);
      return null;
    }
    return name;
  };
  const scope: Scope = { riskType: riskTypeOf(body.appliesTo), variables: new Set() };
  const unknownScope = typeof body.appliesTo !== 'string';

  const expr = (e: Expr, s: Scope): T => {
    switch (e.type) {
      case 'number':
        return 'number';
      case 'string':
        return /^\d{4}-\d{2}-\d{2}$/.test(e.value) ? 'date' : 'string';
      case 'boolean':
        return 'boolean';
      case 'param':
        return 'any';
      case 'reference': {
        if (s.variables.has(e.name)) return 'number';
        if (!s.riskType) return 'any';
        const f = fieldOf(ontology, s.riskType, e.name);
        if (!f) {
          report('unknown_reference', `'${e.name}' is not a field of '${s.riskType}' or the risks it belongs to.`);
          return 'any';
        }
        return fieldType(f);
      }
      case 'unary': {
        const t = expr(e.arg, s);
        const want = e.op === '-' ? 'number' : 'boolean';
        if (t !== 'any' && t !== want) report('type', `'${printExpr(e)}' needs a ${want}, not a ${t}.`);
        return want;
      }
      case 'in': {
        expr(e.value, s);
        for (const item of e.list) expr(item, s);
        enumCheck(e.value, e.list, s);
        return 'boolean';
      }
      case 'binary': {
        const a = expr(e.left, s);
        const b = expr(e.right, s);
        const fits = (x: T, want: T) => x === 'any' || x === want;
        switch (e.op) {
          case 'and':
          case 'or':
            if (!fits(a, 'boolean') || !fits(b, 'boolean'))
              report('type', `'${printExpr(e)}': '${e.op}' needs true/false on both sides.`);
            return 'boolean';
          case '=':
          case '!=':
            enumCheck(e.left, [e.right], s);
            enumCheck(e.right, [e.left], s);
            if (
              a !== 'any' &&
              b !== 'any' &&
              a !== b &&
              !(a === 'date' && b === 'string') &&
              !(a === 'string' && b === 'date')
            ) {
              report('type', `'${printExpr(e)}' compares a ${a} with a ${b}.`);
            }
            return 'boolean';
          case '<':
          case '<=':
          case '>':
          case '>=':
            if (a !== 'any' && b !== 'any' && (a !== b || a === 'boolean')) {
              report('type', `'${printExpr(e)}' compares a ${a} with a ${b}.`);
            }
            return 'boolean';
          default:
            if (!fits(a, 'number') || !fits(b, 'number')) report('type', `'${printExpr(e)}': '${e.op}' needs numbers.`);
            return 'number';
        }
      }
      case 'call':
        return call(e, s);
    }
  };

  const enumCheck = (value: Expr, others: Expr[], s: Scope) => {
    if (value.type !== 'reference' || !s.riskType || s.variables.has(value.name)) return;
    const f = fieldOf(ontology, s.riskType, value.name);
    if (!f?.options) return;
    for (const o of others) {
      if (o.type === 'string' && !f.options.includes(o.value)) {
        report('type', `'${o.value}' is not an option of '${value.name}' (${f.options.join(', ')}).`);
      }
    }
  };

  const call = (e: Extract<Expr, { type: 'call' }>, s: Scope): T => {
    const spec = RULE_FUNCTIONS[e.fn];
    if (!spec) {
      report('unknown_reference', `'${e.fn}' is not a function of the rules language.`);
      return 'any';
    }
    if (e.args.length < spec.min || (spec.max >= 0 && e.args.length > spec.max)) {
      report(
        'type',
        `${e.fn}() takes ${spec.min === spec.max ? spec.min : `${spec.min} to ${spec.max < 0 ? 'any number of' : spec.max}`} argument(s), not ${e.args.length}.`,
      );
      return spec.returns;
    }
    const literalArg = (i: number) => {
      const a = e.args[i];
      return a?.type === 'string' ? a.value : a?.type === 'param' ? null : undefined;
    };
    if (e.fn === 'any_risk' || e.fn === 'no_risk' || e.fn === 'count_risks') {
      const t = literalArg(0);
      if (t === undefined) report('type', `${e.fn}() needs the risk type in quotes first.`);
      const inner: Scope = { riskType: t ? riskTypeOf(t) : null, variables: s.variables };
      if (e.args[1] && expr(e.args[1], inner) === 'number')
        report('type', `The condition of ${e.fn}() must be true/false.`);
      return spec.returns;
    }
    if (e.fn === 'has_item' || e.fn === 'limit' || e.fn === 'deductible') {
      const item = literalArg(0);
      if (item === undefined) report('type', `${e.fn}() needs the item name in quotes.`);
      else if (item && s.riskType && !lineage(ontology, s.riskType)[0]?.items.includes(item)) {
        report('unknown_reference', `'${item}' is not an item of '${s.riskType}'.`);
      }
      return spec.returns;
    }
    if (e.fn === 'answered') {
      const f = literalArg(0);
      if (f === undefined) report('type', 'answered() needs the field name in quotes.');
      else if (f && s.riskType && !fieldOf(ontology, s.riskType, f)) {
        report('unknown_reference', `'${f}' is not a field of '${s.riskType}' or the risks it belongs to.`);
      }
      return spec.returns;
    }
    const types = e.args.map((a) => expr(a, s));
    if (e.fn === 'if') return types[1] === types[2] ? types[1]! : 'any';
    return spec.returns;
  };

  const condition = (c: Condition) => {
    switch (c.tool) {
      case 'always':
      case 'user-role-is':
        return;
      case 'it-is-true-that': {
        const t = expr(c.expr, scope);
        if (t !== 'any' && t !== 'boolean')
          report('type', `'it is true that ${printExpr(c.expr)}' needs a true/false condition, not a ${t}.`);
        return;
      }
      default: {
        const inner: Scope = { riskType: riskTypeOf(c.riskType), variables: scope.variables };
        if (c.where) {
          const t = expr(c.where, inner);
          if (t !== 'any' && t !== 'boolean')
            report('type', `'where ${printExpr(c.where)}' needs a true/false condition, not a ${t}.`);
        }
        if (c.tool === 'count') {
          if (scope.riskType && fieldOf(ontology, scope.riskType, c.as))
            report('type', `The count '${c.as}' hides the field of the same name.`);
          scope.variables.add(c.as);
        }
      }
    }
  };

  const action = (a: Action) => {
    if (a.action === 'attach-form') {
      if (body.category !== 'form-inclusion')
        report('type', `'attach form' belongs in a rule of category form-inclusion, not ${body.category}.`);
      return;
    }
    if (a.action === 'raise-issue') return;
    if (typeof a.element !== 'string' || unknownScope || !scope.riskType) return;
    const f = fieldOf(ontology, scope.riskType, a.element);
    const isItem = lineage(ontology, scope.riskType)[0]?.items.includes(a.element) ?? false;
    if (!f && !isItem) {
      report(
        'unknown_reference',
        `'${a.element}' is not a field or item of '${scope.riskType}' or the risks it belongs to.`,
      );
      return;
    }
    if (a.action === 'set-value') {
      const t = expr(a.value, scope);
      const want = f ? fieldType(f) : 'any';
      if (t !== 'any' && want !== 'any' && t !== want && !(want === 'date' && t === 'string')) {
        report('type', `'${a.element}' takes a ${want}; '${printExpr(a.value)}' is a ${t}.`);
      }
      if (f) enumCheck({ type: 'reference', name: a.element }, [a.value], scope);
    }
    if (a.action === 'options-whitelist' || a.action === 'options-blacklist') {
      if (!f?.options) report('type', `'${a.element}' has no options to allow or disallow.`);
      else
        for (const o of a.options)
          if (!f.options.includes(o))
            report('type', `'${o}' is not an option of '${a.element}' (${f.options.join(', ')}).`);
    }
  };

  body.when.forEach(condition);
  body.then.forEach(action);
  body.otherwise.forEach(action);
}
