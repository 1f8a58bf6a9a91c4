import { describe, expect, it } from 'vitest';
import { checkProduct, compileProduct } from './compile.js';
import { ProductDefinitionError } from './errors.js';
import type { CalculationDefinition, ProductDefinition } from './product.js';

function product(calculations: CalculationDefinition[], extra: Partial<ProductDefinition> = {}): ProductDefinition {
  return {
    name: 'test',
    rootRiskType: 'risk',
    riskTypes: [
      {
        name: 'risk',
        fields: [
          { name: 'age', type: 'number' },
          { name: 'zip', type: 'string' },
        ],
        items: [{ name: 'building' }],
        calculations,
      },
    ],
    rateTables: [{ name: 'territory', keys: [{ name: 'zip' }], rows: [{ keys: { zip: '1' }, value: 1 }] }],
    ...extra,
  };
}

describe('compileProduct', () => {
  it('orders calculations by declared order, moving a calculation after what it reads', () => {
    const compiled = compileProduct(
      product([
        { name: 'premium', formula: 'base * factor', order: 1 },
        { name: 'factor', formula: 'territory(zip) * 2', order: 3 },
        { name: 'base', formula: "limit('building') / 100", order: 2 },
        { name: 'fee', formula: '25', order: 0 },
      ]),
    );
    expect(compiled.riskTypes.get('risk')!.calculations.map((c) => c.name)).toEqual([
      'fee',
      'base',
      'factor',
      'premium',
    ]);
    expect(compiled.riskTypes.get('risk')!.calculations[3]!.dependsOn).toEqual(['base', 'factor']);
  });

  it('names an unknown reference and its position', () => {
    const { problems } = checkProduct(product([{ name: 'premium', formula: 'age *\n  roof_agee + 1' }]));
    expect(problems).toEqual([
      {
        code: 'unknown_reference',
        riskType: 'risk',
        calculation: 'premium',
        position: { offset: 8, line: 2, column: 3 },
        message: "Calculation 'premium' of 'risk': Unknown reference 'roof_agee' at line 2, column 3 (offset 8)",
      },
    ]);
  });

  it('reports unknown tables, items, functions, key counts and namespaced names', () => {
    const formula = "table('nope', zip) + territory(zip, age) + limit('roof') + calc:age + frob(1)";
    const at = (text: string) => formula.indexOf(text);
    const { problems } = checkProduct(product([{ name: 'premium', formula }]));
    expect(problems.map((p) => [p.message.replace(/^.*?: (.*) at line.*$/, '$1'), p.position?.offset])).toEqual([
      ["Unknown rate table 'nope'", at("'nope'")],
      ["Rate table 'territory' takes 1 key(s) (zip), got 2", at('territory(')],
      ["Unknown item 'roof'", at("'roof'")],
      ["Unknown calculation 'age'", at('calc:age')],
      ["Unknown function or rate table 'frob'", at('frob')],
    ]);
    expect(problems[2]!.position).toEqual({ offset: 49, line: 1, column: 50 });
  });

  it('reports a syntax error with its position as a definition problem', () => {
    const { problems } = checkProduct(product([{ name: 'premium', formula: 'age * (2 +' }]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: 'formula_syntax',
      calculation: 'premium',
      position: { offset: 10, line: 1, column: 11 },
    });
    expect(problems[0]!.message).toContain('expected an expression, found end of formula');
  });

  it('reports a cycle naming the calculations in it', () => {
    const { problems } = checkProduct(
      product([
        { name: 'premium', formula: 'a + 1' },
        { name: 'a', formula: 'b * 2' },
        { name: 'b', formula: 'c - 1' },
        { name: 'c', formula: 'a / 2' },
        { name: 'own', formula: 'own + 1' },
      ]),
    );
    expect(problems.map((p) => [p.code, p.cycle, p.message])).toEqual([
      ['cycle', ['a', 'b', 'c', 'a'], "Cycle between calculations of 'risk': a → b → c → a"],
      ['cycle', ['own', 'own'], "Cycle between calculations of 'risk': own → own"],
    ]);
    expect(() =>
      compileProduct(
        product([
          { name: 'premium', formula: 'x' },
          { name: 'x', formula: 'premium' },
        ]),
      ),
    ).toThrow(ProductDefinitionError);
  });

  it('reports cycles between computed fields and checks the root premium and roundings', () => {
    const def = product([{ name: 'total', formula: '1', round: { places: -1 } }]);
    def.riskTypes[0]!.fields!.push(
      { name: 'p', type: 'computed', formula: 'q + age' },
      { name: 'q', type: 'computed', formula: 'p' },
    );
    const messages = checkProduct(def).problems.map((p) => p.message);
    expect(messages).toEqual([
      "Cycle between computed fields of 'risk': p → q → p",
      "Rounding of 'total' needs whole places ≥ 0 and a mode of half-up, half-even, down or up",
      "Root risk type 'risk' has no premium calculation 'premium'",
    ]);
  });

  it('checks sum(children) against the child risk types', () => {
    const def: ProductDefinition = {
      name: 't',
      rootRiskType: 'parent',
      riskTypes: [
        {
          name: 'parent',
          calculations: [{ name: 'premium', formula: "sum(children('kid'), 'premiun') + count(kids)" }],
        },
        { name: 'kid', parent: 'parent', calculations: [{ name: 'premium', formula: '1' }] },
      ],
    };
    const formula = def.riskTypes[0]!.calculations[0]!.formula;
    expect(
      checkProduct(def).problems.map((p) => [p.message.replace(/^.*?: (.*) at line.*$/, '$1'), p.position?.offset]),
    ).toEqual([
      ["Unknown calculation 'premiun' of child risks (kid)", formula.indexOf("'premiun'")],
      ["expected children or children('risk type')", formula.indexOf('kids')],
    ]);
  });
});
