import { describe, expect, it } from 'vitest';
import { parseBrl, type Ontology, type TemplateComponent } from '@atrium/rating/rules';
import {
  appliesToOf,
  brlDiagnostics,
  completionsAt,
  formatBrl,
  hoverAt,
  templateDefinitionAt,
  type BrlSuggestions,
} from './brl-service.js';

const ontology: Ontology = {
  product: 'personal_auto',
  riskTypes: [
    { name: 'policy', fields: [{ name: 'state', type: 'string' }], items: [] },
    {
      name: 'vehicle',
      parent: 'policy',
      fields: [
        { name: 'usage', type: 'enum', options: ['personal', 'business'] },
        { name: 'vin', type: 'string' },
        { name: 'model_year', type: 'number' },
      ],
      items: ['roadside'],
    },
    { name: 'driver', parent: 'policy', fields: [{ name: 'age', type: 'number' }], items: [] },
  ],
};
const template = parseBrl(`template minimum_model_year "Model year not before a minimum"
  parameter earliest: number "Earliest model year" default 1981 documentation 'Older vehicles have no VIN'
  category validation
  applies to vehicle
when
  it is true that model_year < {{earliest}}
then
  mark model_year invalid
end
`) as TemplateComponent;
const suggestions: BrlSuggestions = {
  product: 'personal_auto',
  effective_date: '2026-07-01',
  ontology,
  templates: [template],
};

const rule = `rule business_use "Business use"
  category ui-control
  applies to vehicle
when
  it is true that usage = 'business'
then
  hide roadside
  make vin mandatory
end
`;

/** Line and column (1-based) just after `marker` in the text, which is then removed. */
function at(text: string, marker = '|'): { text: string; line: number; column: number } {
  const index = text.indexOf(marker);
  const before = text.slice(0, index).split('\n');
  return { text: text.replace(marker, ''), line: before.length, column: before[before.length - 1]!.length + 1 };
}
const labels = (entries: { label: string }[]) => entries.map((e) => e.label);

describe('BRL completion', () => {
  it('offers the tools on a when line and the actions on a then line, with the section keywords', () => {
    const when = at(rule.replace("  it is true that usage = 'business'", '  |'));
    const tools = completionsAt(when.text, when.line, when.column, suggestions);
    expect(labels(tools)).toEqual(
      expect.arrayContaining(['always', 'it is true that', 'there is a risk', 'there are', 'count risks', 'then']),
    );
    expect(tools.find((t) => t.label === 'there is a risk')).toMatchObject({ kind: 'tool', snippet: true });
    const then = at(rule.replace('  hide roadside', '  |'));
    const actions = labels(completionsAt(then.text, then.line, then.column, suggestions));
    expect(actions).toEqual(expect.arrayContaining(['show', 'hide', 'make', 'raise issue', 'otherwise', 'end']));
    expect(actions).not.toContain('there is a risk');
  });

  it('offers risk types after applies to and risk, the fields and items of the type in scope, and options', () => {
    const applies = at(rule.replace('applies to vehicle', 'applies to |'));
    expect(labels(completionsAt(applies.text, applies.line, applies.column, suggestions))).toEqual([
      'policy',
      'vehicle',
      'driver',
    ]);
    const fields = at(rule.replace("usage = 'business'", 'mo|'));
    const inFormula = completionsAt(fields.text, fields.line, fields.column, suggestions);
    // The vehicle's own fields, its parent's, its items and the functions.
    expect(labels(inFormula)).toEqual(
      expect.arrayContaining(['usage', 'vin', 'model_year', 'state', 'roadside', 'years_between', 'any_risk']),
    );
    expect(inFormula.find((e) => e.label === 'usage')?.detail).toBe('vehicle field · enum: personal, business');
    const where = at(rule.replace("it is true that usage = 'business'", 'there is a risk driver where |'));
    const driverFields = labels(completionsAt(where.text, where.line, where.column, suggestions));
    expect(driverFields).toContain('age');
    expect(driverFields).not.toContain('vin');
    const element = at(rule.replace('hide roadside', 'hide |'));
    expect(labels(completionsAt(element.text, element.line, element.column, suggestions))).toEqual([
      'usage',
      'vin',
      'model_year',
      'state',
      'roadside',
    ]);
    const options = at(rule.replace('hide roadside', 'only allow usage options |'));
    expect(completionsAt(options.text, options.line, options.column, suggestions)).toEqual([
      expect.objectContaining({ label: 'personal', insertText: "'personal'" }),
      expect.objectContaining({ label: 'business', insertText: "'business'" }),
    ]);
    const template = at('rule x from template |\nend\n');
    expect(labels(completionsAt(template.text, template.line, template.column, suggestions))).toEqual([
      'minimum_model_year',
    ]);
  });

  it('still offers the tools and functions without an ontology', () => {
    const formula = at(rule.replace("usage = 'business'", '|'));
    const entries = completionsAt(formula.text, formula.line, formula.column, { ...suggestions, ontology: null });
    expect(entries.every((e) => e.kind === 'function')).toBe(true);
    expect(appliesToOf(rule)).toBe('vehicle');
  });
});

describe('BRL hover', () => {
  it('documents functions, fields, risk types, tools and template arguments', () => {
    const fn = at(rule.replace("usage = 'business'", "years_b|etween(date('2000-01-01'), as_of_date()) > 1"));
    expect(hoverAt(fn.text, fn.line, fn.column, suggestions)?.contents).toContain('whole years');
    const field = at(rule.replace("usage = 'business'", "us|age = 'business'"));
    expect(hoverAt(field.text, field.line, field.column, suggestions)).toMatchObject({
      contents: '**usage** — field of vehicle: enum: personal, business',
      startColumn: 19,
      endColumn: 24,
    });
    const type = at(rule.replace('applies to vehicle', 'applies to veh|icle'));
    expect(hoverAt(type.text, type.line, type.column, suggestions)?.contents).toContain('below policy');
    const tool = at(rule.replace('hide roadside', 'hi|de roadside'));
    expect(hoverAt(tool.text, tool.line, tool.column, suggestions)?.contents).toContain('visible: false');
    const arg = at('rule y "Y" from template minimum_model_year\n  with earl|iest = 1990\nend\n');
    expect(hoverAt(arg.text, arg.line, arg.column, suggestions)?.contents).toBe(
      '**earliest** (number) — Earliest model year\n\nOlder vehicles have no VIN\n\nDefault: 1981',
    );
    expect(hoverAt(rule, 1, 200, suggestions)).toBeNull();
  });
});

describe('BRL diagnostics', () => {
  it('reports nothing for a good rule, and a syntax error at its line and column', () => {
    expect(brlDiagnostics(rule, suggestions, 'business_use')).toEqual([]);
    const broken = rule.replace('make vin mandatory', 'make vin compulsory');
    expect(brlDiagnostics(broken, suggestions)).toEqual([
      {
        severity: 'error',
        message: "Line 8, column 12: expected a property (readonly, editable, mandatory, optional), found 'compulsory'",
        startLine: 8,
        startColumn: 12,
        endLine: 8,
        endColumn: 22,
      },
    ]);
  });

  it('places type-check problems on the name they are about, like the validate job words them', () => {
    const wrong = rule.replace("usage = 'business'", "usag = 'business'");
    expect(brlDiagnostics(wrong, suggestions)).toEqual([
      {
        severity: 'error',
        message: "Rule 'business_use': 'usag' is not a field of 'vehicle' or the risks it belongs to.",
        startLine: 5,
        startColumn: 19,
        endLine: 5,
        endColumn: 23,
      },
    ]);
    const option = rule.replace("usage = 'business'", "usage = 'fleet'");
    expect(brlDiagnostics(option, suggestions)[0]).toMatchObject({
      message: "Rule 'business_use': 'fleet' is not an option of 'usage' (personal, business).",
      startLine: 5,
      startColumn: 28,
    });
    expect(brlDiagnostics(rule, suggestions, 'other')[0]?.message).toBe(
      "The text names 'business_use'; the component is 'other'.",
    );
    expect(brlDiagnostics(rule, { ...suggestions, ontology: null })).toEqual([
      expect.objectContaining({ severity: 'warning', startLine: 1 }),
    ]);
    // A template use is checked as the rule it makes, with the date's templates.
    const use = 'rule y from template minimum_model_year\n  with earliest = true\nend\n';
    expect(brlDiagnostics(use, suggestions).length).toBeGreaterThan(0);
    expect(brlDiagnostics(use.replace('true', '1990'), suggestions)).toEqual([]);
  });
});

describe('BRL format', () => {
  it('prints the canonical layout, or null when the text does not parse', () => {
    const messy =
      'rule business_use   "Business use"\napplies to vehicle\n category ui-control\nwhen\nit is true that usage=\'business\'\nthen\n hide roadside\n   make vin mandatory\nend';
    expect(formatBrl(messy)).toBe(rule.replace('"Business use"', "'Business use'"));
    expect(formatBrl('rule x')).toBeNull();
  });
});

describe('BRL go to definition', () => {
  it('leads from a template use to the template, and from an argument to its parameter', () => {
    const name = at('rule y "Y" from template minimum_mod|el_year\n  with earliest = 1990\nend\n');
    const found = templateDefinitionAt(name.text, name.line, name.column, suggestions);
    expect(found).toMatchObject({ line: 1, startColumn: 26, endColumn: 44 });
    expect(found?.text.split('\n')[0]).toBe("template minimum_model_year 'Model year not before a minimum'");
    const arg = at('rule y "Y" from template minimum_model_year\n  with ear|liest = 1990\nend\n');
    const parameter = templateDefinitionAt(arg.text, arg.line, arg.column, suggestions);
    expect(parameter?.text.split('\n')[parameter.line - 1]).toMatch(/^ {2}parameter earliest: number/);
    expect(templateDefinitionAt(rule, 3, 14, suggestions)).toBeNull();
  });
});
