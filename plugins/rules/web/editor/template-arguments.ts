import {
  printBrl,
  tryParseBrl,
  type ArgumentValue,
  type Ontology,
  type TemplateComponent,
  type TemplateParameter,
  type TemplateUseComponent,
} from '@atrium/rating/rules';

/** A template use in the text, with the template it names (null when the text is no use, or the template is unknown). */
export interface TemplateUse {
  use: TemplateUseComponent;
  template: TemplateComponent | null;
}

export function templateUseOf(text: string, templates: TemplateComponent[]): TemplateUse | null {
  const { component } = tryParseBrl(text);
  if (component?.kind !== 'use') return null;
  return { use: component, template: templates.find((t) => t.name === component.template) ?? null };
}

/** What a form field holds: text for every input but a checkbox. */
export type FormValue = string | boolean;

/** How a parameter is entered: its `input-type`, else from its type. */
export function inputTypeOf(p: TemplateParameter): 'text' | 'number' | 'select' | 'checkbox' | 'date' {
  if (p.inputType) return p.inputType;
  switch (p.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'date':
      return 'date';
    case 'field':
    case 'risk-type':
      return 'select';
    default:
      return 'text';
  }
}

/** The form's starting values: the use's value, else the parameter's default, else empty. */
export function initialValues(template: TemplateComponent, use: TemplateUseComponent): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const p of template.parameters) {
    const v = Object.hasOwn(use.values, p.name) ? use.values[p.name] : p.default;
    out[p.name] = p.type === 'boolean' ? v === true : v === undefined ? '' : String(v);
  }
  return out;
}

/** The choices of a `select`: a field parameter's fields of the template's risk type, a risk type parameter's risk types. */
export function optionsOf(p: TemplateParameter, template: TemplateComponent, ontology: Ontology | null): string[] {
  if (!ontology) return [];
  if (p.type === 'risk-type') return ontology.riskTypes.map((r) => r.name);
  if (p.type === 'field') {
    const appliesTo = typeof template.appliesTo === 'string' ? template.appliesTo : null;
    const risk = ontology.riskTypes.find((r) => r.name === appliesTo);
    return risk ? risk.fields.map((f) => f.name) : ontology.riskTypes.flatMap((r) => r.fields.map((f) => f.name));
  }
  return [];
}

/** The problem with one value, in words, or null: the checks the server's template expansion makes. */
export function argumentError(p: TemplateParameter, value: FormValue, options: string[]): string | null {
  const label = p.label ?? p.name;
  if (p.type === 'boolean') return null;
  const text = String(value).trim();
  if (text === '') return p.default === undefined ? `${label} is required.` : null;
  if (p.type === 'number' && !/^-?\d+(\.\d+)?$/.test(text)) return `${label} must be a number.`;
  if (p.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${label} must be a date (YYYY-MM-DD).`;
  if ((p.type === 'field' || p.type === 'risk-type') && options.length > 0 && !options.includes(text))
    return `${label} must be one of ${options.join(', ')}.`;
  return null;
}

function argumentValue(p: TemplateParameter, value: FormValue): ArgumentValue | undefined {
  if (p.type === 'boolean') return value === true;
  const text = String(value).trim();
  if (text === '') return undefined;
  // A number that prints back as written stays a number; any other decimal stays exact as text.
  if (p.type === 'number') return String(Number(text)) === text ? Number(text) : text;
  return text;
}

/**
 * The use with the form's values written into its tree (an empty value leaves the template's
 * default in force), printed in the canonical layout — never by pasting into the text.
 */
export function withArguments(
  template: TemplateComponent,
  use: TemplateUseComponent,
  values: Record<string, FormValue>,
): string {
  const next: Record<string, ArgumentValue> = {};
  for (const p of template.parameters) {
    const v = argumentValue(p, values[p.name] ?? '');
    if (v !== undefined) next[p.name] = v;
  }
  return printBrl({ ...use, values: next });
}
