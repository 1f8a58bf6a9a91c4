import type {
  Action,
  ArgumentValue,
  Condition,
  Expr,
  Name,
  ParameterType,
  RuleComponent,
  TemplateComponent,
  TemplateUseComponent,
} from './tree.js';

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** The arguments of a use, defaults filled in and checked against the parameters' types. */
export function templateArguments(template: TemplateComponent, use: TemplateUseComponent): Map<string, ArgumentValue> {
  const args = new Map<string, ArgumentValue>();
  for (const name of Object.keys(use.values)) {
    if (!template.parameters.some((p) => p.name === name)) {
      throw new TemplateError(`Template '${template.name}' has no parameter '${name}'.`);
    }
  }
  for (const p of template.parameters) {
    const value = Object.hasOwn(use.values, p.name) ? use.values[p.name] : p.default;
    if (value === undefined) throw new TemplateError(`Template '${template.name}' needs a value for '${p.name}'.`);
    const ok =
      p.type === 'number'
        ? typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
        : p.type === 'boolean'
          ? typeof value === 'boolean'
          : p.type === 'date'
            ? typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
            : typeof value === 'string';
    if (!ok)
      throw new TemplateError(
        `'${p.name}' of template '${template.name}' must be a ${p.type}; got ${JSON.stringify(value)}.`,
      );
    args.set(p.name, value);
  }
  return args;
}

function literal(type: ParameterType, value: ArgumentValue): Expr {
  switch (type) {
    case 'number':
      return { type: 'number', value: String(value) };
    case 'boolean':
      return { type: 'boolean', value: value === true };
    case 'field':
      return { type: 'reference', name: String(value) };
    default:
      return { type: 'string', value: String(value) };
  }
}

/**
 * Makes the rule a use describes: every placeholder of the template's tree is replaced by a node
 * (a number, text, boolean or field reference by the parameter's type) — never by pasting text.
 */
export function instantiateTemplate(template: TemplateComponent, use: TemplateUseComponent): RuleComponent {
  const args = templateArguments(template, use);
  const types = new Map(template.parameters.map((p) => [p.name, p.type]));
  const name = (n: Name): string => {
    if (typeof n === 'string') return n;
    const v = args.get(n.param);
    if (v === undefined)
      throw new TemplateError(`Template '${template.name}' uses '{{${n.param}}}', which is not a parameter.`);
    return String(v);
  };
  const expr = (e: Expr): Expr => {
    switch (e.type) {
      case 'param': {
        const v = args.get(e.name);
        if (v === undefined)
          throw new TemplateError(`Template '${template.name}' uses '{{${e.name}}}', which is not a parameter.`);
        return literal(types.get(e.name)!, v);
      }
      case 'unary':
        return { ...e, arg: expr(e.arg) };
      case 'binary':
        return { ...e, left: expr(e.left), right: expr(e.right) };
      case 'in':
        return { ...e, value: expr(e.value), list: e.list.map(expr) };
      case 'call':
        return { ...e, args: e.args.map(expr) };
      default:
        return e;
    }
  };
  const condition = (c: Condition): Condition => {
    switch (c.tool) {
      case 'always':
      case 'user-role-is':
        return c;
      case 'it-is-true-that':
        return { ...c, expr: expr(c.expr) };
      default:
        return { ...c, riskType: name(c.riskType), ...(c.where ? { where: expr(c.where) } : {}) };
    }
  };
  const action = (a: Action): Action => {
    switch (a.action) {
      case 'raise-issue':
      case 'attach-form':
        return a;
      case 'set-value':
        return { ...a, element: name(a.element), value: expr(a.value) };
      default:
        return { ...a, element: name(a.element) };
    }
  };
  return {
    kind: 'rule',
    name: use.name,
    ...(use.label !== undefined ? { label: use.label } : template.label !== undefined ? { label: template.label } : {}),
    category: template.category,
    appliesTo: name(template.appliesTo),
    priority: use.priority ?? template.priority,
    when: template.when.map(condition),
    then: template.then.map(action),
    otherwise: template.otherwise.map(action),
  };
}
