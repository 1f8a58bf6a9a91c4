import { describe, expect, it } from 'vitest';
import { autoContext, autoOntology, autoRules, autoTests } from './fixtures/auto.js';
import {
  BrlSyntaxError,
  checkComponent,
  compileBundle,
  instantiateTemplate,
  parseBrl,
  parseExpr,
  printBrl,
  printExpr,
  runRules,
  runRuleTest,
  type BrlComponent,
  type TemplateComponent,
  type TemplateUseComponent,
} from './index.js';

const all = () => Object.values(autoRules).map((text) => parseBrl(text));
const templates = () =>
  new Map(
    all()
      .filter((c): c is TemplateComponent => c.kind === 'template')
      .map((t) => [t.name, t]),
  );

describe('expressions are formulas of the rating language', () => {
  it.each([
    'a + b * c',
    '(a + b) * c',
    '-2 ^ 2',
    '(-2) ^ 2',
    'a ^ b ^ c',
    '(a ^ b) ^ c',
    'a - (b - c)',
    'not (a and b) or c',
    'a and (b or c)',
    "usage not in ('business', 'commute')",
    "if(x > 1, 'a', 'b')",
    "count_risks('driver', age < 25) >= 2",
    '{{field}} < {{minimum}}',
    'field:age > calc:base',
  ])('prints %s back to the same tree', (source) => {
    const tree = parseExpr(source);
    expect(parseExpr(printExpr(tree))).toEqual(tree);
  });

  it('keeps decimals exact and placeholders as nodes', () => {
    expect(parseExpr('0.1 + {{x}}')).toEqual({
      type: 'binary',
      op: '+',
      left: { type: 'number', value: '0.1' },
      right: { type: 'param', name: 'x' },
    });
  });
});

describe('BRL text and tree', () => {
  it.each(Object.entries(autoRules))('%s round-trips text → tree → text → tree', (_name, text) => {
    const tree = parseBrl(text);
    const printed = printBrl(tree);
    expect(parseBrl(printed)).toEqual(tree);
    expect(printBrl(parseBrl(printed))).toBe(printed);
  });

  it('gives the typed tree of the tools and actions', () => {
    const rule = parseBrl(autoRules.manyVehicles);
    expect(rule).toMatchObject({
      kind: 'rule',
      name: 'many_vehicles',
      category: 'underwriting',
      appliesTo: 'policy',
      when: [
        { tool: 'count', riskType: 'vehicle', as: 'vehicles' },
        { tool: 'it-is-true-that', expr: { type: 'binary', op: '>=' } },
      ],
      then: [{ action: 'raise-issue', code: 'UW-FLEET', severity: 'decline', blocking: 'submit' }],
    });
  });

  it('reports syntax errors with the line and column in the component', () => {
    const bad = 'rule x\n  applies to vehicle\nwhen\n  it is true that model_year < \nthen\n  hide vin\nend\n';
    expect(() => parseBrl(bad)).toThrow(BrlSyntaxError);
    try {
      parseBrl(bad);
    } catch (error) {
      expect((error as BrlSyntaxError).position.line).toBe(4);
      expect((error as BrlSyntaxError).message).toMatch(/^Line 4, column \d+: expected an expression/);
    }
    expect(() => parseBrl('rule x\n  applies to vehicle\nwhen\n  sometimes\nthen\n  hide vin\nend')).toThrow(
      /Line 4, column 3: expected a condition/,
    );
    expect(() => parseBrl('rule x\nwhen\n  always\nthen\n  hide vin\nend')).toThrow(/applies to/);
  });
});

describe('type check against the ontology', () => {
  it('accepts the demo rules', () => {
    for (const c of all()) expect(checkComponent(c, autoOntology, templates())).toEqual([]);
  });

  it('finds unknown names, wrong types and options that do not exist', () => {
    const rule = parseBrl(`rule bad
  applies to vehicle
when
  it is true that colour = 'red' and usage = 'racing'
  and there is a risk trailer
  and it is true that model_year + 1
then
  hide sunroof
  set model_year to 'new'
  only allow usage options 'pleasure', 'space'
  make vin readonly
end
`);
    const messages = checkComponent(rule, autoOntology).map((p) => p.message);
    expect(messages).toEqual([
      "Rule 'bad': 'colour' is not a field of 'vehicle' or the risks it belongs to.",
      "Rule 'bad': 'racing' is not an option of 'usage' (pleasure, commute, business).",
      "Rule 'bad': 'trailer' is not a risk type of personal_auto.",
      "Rule 'bad': 'it is true that model_year + 1' needs a true/false condition, not a number.",
      "Rule 'bad': 'sunroof' is not a field or item of 'vehicle' or the risks it belongs to.",
      "Rule 'bad': 'model_year' takes a number; ''new'' is a string.",
      "Rule 'bad': 'space' is not an option of 'usage' (pleasure, commute, business).",
    ]);
  });

  it('checks a template use as the rule it makes', () => {
    const use = parseBrl('rule r from template minimum_value\n  with field = colour\nend') as TemplateUseComponent;
    expect(checkComponent(use, autoOntology, templates()).map((p) => p.message)).toEqual([
      "Rule 'r': 'colour' is not a field of 'vehicle' or the risks it belongs to.",
      "Rule 'r': 'colour' is not a field or item of 'vehicle' or the risks it belongs to.",
    ]);
    const missing = parseBrl('rule r from template nope\nend');
    expect(checkComponent(missing, autoOntology, templates())[0]!.message).toBe(
      "Rule 'r': there is no template 'nope'.",
    );
  });
});

describe('templates', () => {
  it('substitutes arguments as nodes, by type, with defaults', () => {
    const t = templates().get('minimum_value')!;
    const rule = instantiateTemplate(t, parseBrl(autoRules.modelYearUse) as TemplateUseComponent);
    expect(rule.when[0]).toEqual({
      tool: 'it-is-true-that',
      expr: {
        type: 'binary',
        op: '<',
        left: { type: 'reference', name: 'model_year' },
        right: { type: 'number', value: '1981' },
      },
    });
    expect(rule.then[0]).toEqual({
      action: 'invalid',
      element: 'model_year',
      message: 'The value is below the minimum.',
    });
    // A string argument with a quote cannot break out: it is one string node, never pasted text.
    const sneaky: TemplateUseComponent = {
      kind: 'use',
      name: 's',
      template: 'minimum_value',
      values: { field: "x') or true or ('" },
    };
    expect(instantiateTemplate(t, sneaky).when[0]).toMatchObject({
      expr: { left: { type: 'reference', name: "x') or true or ('" } },
    });
    expect(() =>
      instantiateTemplate(t, {
        kind: 'use',
        name: 'n',
        template: 'minimum_value',
        values: { minimum: 'ten' } as never,
      }),
    ).toThrow(/needs a value for 'field'/);
  });
});

describe('the interpreter', () => {
  const bundle = () => compileBundle(all());

  it('runs the rules over the risk tree and merges per element', () => {
    const result = runRules(bundle(), autoContext());
    expect(result.errors).toEqual([]);
    const byName = Object.fromEntries(result.actions.map((a) => [a.name, a]));
    expect(byName['vehicle#v1.roadside']).toMatchObject({ visible: false });
    expect(byName['vehicle#v2.roadside']).toMatchObject({ visible: true });
    expect(byName['vehicle#v1.vin']).toMatchObject({ mandatory: true, readonly: false, isValid: true });
    expect(byName['vehicle#v1.usage']).toMatchObject({ optionsBlacklist: ['business'], optionsWhitelist: null });
    expect(byName['vehicle#v1.garaging_zip']!.value).toBe('00000');
    expect(result.issues.map((i) => [i.code, i.severity, i.blocking])).toEqual([
      ['UW-UNDERAGE', 'early-decline', 'rate'],
      ['UW-YOUNG', 'refer', 'bind'],
    ]);
  });

  it('passes the fixtures’ rule tests and shows each difference of a failing one', () => {
    for (const test of autoTests)
      expect(runRuleTest(bundle(), test)).toMatchObject({ testPassed: true, differences: [] });
    const failing = runRuleTest(bundle(), {
      ...autoTests[0]!,
      expect: { actions: { 'vehicle#v1.roadside': { visible: true } }, issues: ['UW-YOUNG'] },
    });
    expect(failing.testPassed).toBe(false);
    expect(failing.differences.map((d) => d.message)).toEqual([
      'vehicle#v1.roadside › visible: expected true, got false',
      'underwriting issues: expected ["UW-YOUNG"], got ["UW-UNDERAGE","UW-YOUNG"]',
    ]);
  });

  it('merges by priority, then the most restrictive; whitelists intersect', () => {
    const rules = [
      "rule a\n  applies to vehicle\n  priority 1\nwhen\n  always\nthen\n  hide vin\n  only allow usage options 'pleasure', 'commute'\nend",
      "rule b\n  applies to vehicle\n  priority 2\nwhen\n  always\nthen\n  show vin\n  only allow usage options 'commute', 'business'\nend",
      "rule c\n  applies to vehicle\n  priority 2\nwhen\n  always\nthen\n  make vin readonly\n  mark vin invalid message 'c says no'\nend",
      "rule d\n  applies to vehicle\n  priority 2\nwhen\n  always\nthen\n  make vin editable\n  mark vin invalid message 'd says no'\nend",
    ].map((t) => parseBrl(t));
    const context = autoContext({ risk: { id: 'v', type: 'vehicle', field_answers: {} } });
    const [vin, usage] = runRules(compileBundle(rules), context, { elements: ['vin', 'usage'] }).actions;
    expect(vin).toMatchObject({ visible: true, readonly: true, isValid: false, validationMessage: 'c says no' });
    expect(usage!.optionsWhitelist).toEqual(['commute']);
  });

  it('is deterministic: the as-of date is injected and inputs are frozen copies', () => {
    const context = autoContext();
    const first = runRules(bundle(), context);
    expect(runRules(bundle(), autoContext({ asOf: '2026-06-01' }))).toEqual(first);
    expect(runRules(bundle(), autoContext({ asOf: '2027-01-01' })).issues.map((i) => i.code)).toEqual(['UW-YOUNG']);
    expect(Object.isFrozen(context)).toBe(false); // the caller's object is not touched
  });

  it('treats unanswered fields as empty: comparisons are false, arithmetic is empty', () => {
    const rule = parseBrl(
      'rule r\n  applies to vehicle\nwhen\n  it is true that model_year + 1 > 2000\nthen\n  hide vin\notherwise\n  show vin\nend',
    );
    const [vin] = runRules(compileBundle([rule]), autoContext({ risk: { type: 'vehicle' } }), {
      elements: ['vin'],
    }).actions;
    expect(vin!.visible).toBe(true);
  });

  it('stops only the rule that fails, with its name, when an input or argument is bad', () => {
    const rules = [
      "rule a\n  applies to vehicle\nwhen\n  it is true that limit('collision') > 0\nthen\n  hide vin\nend",
      'rule b\n  applies to vehicle\nwhen\n  it is true that round(1.5, -1) > 0\nthen\n  hide vin\nend',
      'rule c\n  applies to vehicle\nwhen\n  always\nthen\n  make vin mandatory\nend',
    ].map((t) => parseBrl(t));
    const risk = { type: 'vehicle', items: [{ name: 'collision', limit: 'lots' }] };
    const result = runRules(compileBundle(rules), autoContext({ risk }), { elements: ['vin'] });
    expect(result.errors.map((e) => [e.rule, e.code])).toEqual([
      ['a', 'evaluation'],
      ['b', 'evaluation'],
    ]);
    expect(result.errors[0]!.message).toBe("Rule 'a': the limit of 'collision' is not a number: \"lots\"");
    expect(result.actions[0]).toMatchObject({ visible: true, mandatory: true });
  });

  it('stops a runaway component at its budget with a clear error and runs the others', () => {
    const runaway = parseBrl(`rule runaway
  applies to policy
when
  it is true that count_risks('driver', age > 0 and age < 200) > 0
then
  raise issue 'X' severity info message 'never'
end
`);
    const drivers = Array.from({ length: 1000 }, (_, i) => ({
      id: `d${i}`,
      type: 'driver',
      field_answers: { age: 30 },
    }));
    const result = runRules(
      compileBundle([runaway, parseBrl(autoRules.noDrivers)]),
      autoContext({ risk: { type: 'policy', children: drivers } }),
      {
        maxSteps: 5_000,
      },
    );
    expect(result.errors).toEqual([
      {
        rule: 'runaway',
        risk: '',
        code: 'step_budget',
        message: "Rule 'runaway' stopped: it took more than its budget of 5000 steps.",
      },
    ]);
    expect(result.issues).toEqual([]);
    const deep = parseBrl(
      `rule deep\n  applies to policy\nwhen\n  it is true that ${'('.repeat(40)}1${')'.repeat(40)} + ${'abs('.repeat(70)}1${')'.repeat(70)} > 0\nthen\n  hide x\nend`,
    );
    expect(runRules(compileBundle([deep]), autoContext()).errors[0]).toMatchObject({ code: 'depth_limit' });
  });
});

export type { BrlComponent };
