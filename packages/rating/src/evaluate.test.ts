import { describe, expect, it } from 'vitest';
import { compileProduct } from './compile.js';
import type { Scalar } from './product.js';
import { evaluateComputedFields } from './rate.js';

/** Evaluates one formula as a computed field of a small risk and returns its value as text. */
function evaluate(formula: string, answers: Record<string, Scalar> = {}): string {
  const product = compileProduct({
    name: 'formulas',
    rootRiskType: 'r',
    riskTypes: [
      {
        name: 'r',
        fields: [
          { name: 'n', type: 'number', default: 7 },
          { name: 's', type: 'string', default: 'frame' },
          { name: 'flag', type: 'boolean', default: true },
          { name: 'zip', type: 'string', default: '78701' },
          { name: 'out', type: 'computed', formula },
        ],
        items: [{ name: 'dwelling' }, { name: 'jewelry' }],
        calculations: [{ name: 'premium', formula: '0' }],
      },
    ],
    rateTables: [
      {
        name: 'territory',
        keys: [{ name: 'zip' }],
        rows: [{ keys: { zip: '78701' }, value: 1.12 }],
      },
    ],
  });
  return evaluateComputedFields(product, {
    type: 'r',
    answers,
    items: [{ name: 'dwelling', limit: 300000, deductible: 1000, limits: { other_structures: 30000 } }],
  }).fields.out!;
}

describe('formula evaluation', () => {
  it('does exact decimal arithmetic with the usual precedence', () => {
    expect(evaluate('0.1 + 0.2')).toBe('0.3');
    expect(evaluate('2 + 3 * 4 - -1')).toBe('15');
    expect(evaluate('10 / 4')).toBe('2.5');
    expect(evaluate('n % 4')).toBe('3');
    expect(evaluate('2 ^ 10')).toBe('1024');
    // A division keeps 40 significant digits; a rounding step brings it back.
    expect(evaluate('1 / 3 * 3')).toBe(`0.${'9'.repeat(40)}`);
    expect(evaluate('round(1 / 3 * 3, 10)')).toBe('1');
  });

  it('provides min, max, round, ceil, floor and abs', () => {
    expect(evaluate('max(1, n / 2, 3)')).toBe('3.5');
    expect(evaluate('min(1, -n)')).toBe('-7');
    expect(evaluate('round(2.5)')).toBe('3');
    expect(evaluate("round(2.5, 0, 'half-even')")).toBe('2');
    expect(evaluate('round(1.23456, 3)')).toBe('1.235');
    expect(evaluate("round(-1.2355, 3, 'down')")).toBe('-1.235');
    expect(evaluate('ceil(1.01)')).toBe('2');
    expect(evaluate('ceil(-1.5)')).toBe('-1');
    expect(evaluate('floor(1.99)')).toBe('1');
    expect(evaluate('floor(1.2389, 2)')).toBe('1.23');
    expect(evaluate('abs(3 - n)')).toBe('4');
  });

  it('evaluates logic, comparisons, in-lists and if', () => {
    expect(evaluate("if(s = 'frame' and n > 5, 1.1, 1)")).toBe('1.1');
    expect(evaluate("if(s in ('masonry', 'frame'), 'yes', 'no')")).toBe('yes');
    expect(evaluate("s not in ('masonry')")).toBe('true');
    expect(evaluate('n >= 7 && n <= 7 && n != 8 && not (n < 7)')).toBe('true');
    expect(evaluate("or(n = 1, not(flag), s <> 'frame')")).toBe('false');
    expect(evaluate("'abc' < 'abd'")).toBe('true');
    expect(evaluate('zip = 78701')).toBe('true'); // a numeric string equals its number
    expect(evaluate('n in (1, 7.0)')).toBe('true');
    // Only the chosen branch is evaluated: the division by zero is never reached.
    expect(evaluate('if(true, 1, 1 / 0)')).toBe('1');
  });

  it('reads answers, items, limits, deductibles and rate tables', () => {
    expect(evaluate('n * 2', { n: '12.5' })).toBe('25');
    expect(evaluate('n * 2', { n: ' 12.5 ' })).toBe('25');
    expect(evaluate('field:n + 1')).toBe('8');
    expect(evaluate("limit('dwelling') / 1000")).toBe('300');
    expect(evaluate("limit('dwelling', 'other_structures')")).toBe('30000');
    expect(evaluate("deductible('dwelling')")).toBe('1000');
    expect(evaluate("limit('jewelry')")).toBe('0'); // absent optional item
    expect(evaluate("has_item('jewelry') or has_item('dwelling')")).toBe('true');
    expect(evaluate('territory(zip) * 100')).toBe('112');
    expect(evaluate("table('territory', '78701')")).toBe('1.12');
    expect(evaluate('lookup(territory, zip)')).toBe('1.12');
  });

  it('fails with the position on type errors', () => {
    expect(() => evaluate('s * 2')).toThrow('r › out: expected a number, got "frame" at line 1, column 1 (offset 0)');
    expect(() => evaluate('if(n, 1, 2)')).toThrow('expected true or false, got 7 at line 1, column 4 (offset 3)');
    expect(() => evaluate('s < 2')).toThrow('cannot compare frame with 2');
    expect(() => evaluate("round(n, 1, 'sideways')")).toThrow('unknown rounding mode sideways');
    expect(() => evaluate("limit('dwelling', 'nope')")).toThrow("item 'dwelling' has no limit 'nope'");
    expect(() => evaluate('n', { n: 'seven' })).toThrow("Field 'n' needs a number");
  });
});
