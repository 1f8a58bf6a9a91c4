import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  decimal,
  decimalPlaces,
  fieldRefinement,
  maxValue,
  minValue,
  noComma,
  noSpace,
  required,
  validateForm,
  validateValue,
  withRules,
} from './form-rules.js';

describe('form rules (spec messages)', () => {
  it('required', () => {
    for (const empty of [undefined, null, '', '   ', []]) {
      expect(required().check(empty, 'Name')).toBe('This field is required.');
    }
    expect(required().check('x', 'Name')).toBeNull();
    expect(required().check(0, 'Count')).toBeNull();
    expect(required().check(false, 'Flag')).toBeNull();
  });

  it('min_value and max_value, from numbers and numeric strings', () => {
    expect(minValue(1).check(0, 'Limit')).toBe('Limit must be 1 or more.');
    expect(minValue(1).check('0.5', 'Limit')).toBe('Limit must be 1 or more.');
    expect(minValue(1).check(1, 'Limit')).toBeNull();
    expect(maxValue(100).check('100.01', 'Share')).toBe('Share must be 100 or less.');
    expect(maxValue(100).check(100, 'Share')).toBeNull();
    // A non-number cannot satisfy a bound.
    expect(minValue(1).check('abc', 'Limit')).toBe('Limit must be 1 or more.');
    // Empty is required's business.
    expect(minValue(1).check('', 'Limit')).toBeNull();
  });

  it('decimal', () => {
    expect(decimal(2).check('1.234', 'Premium')).toBe('Premium can not have more than 2 decimal places.');
    expect(decimal(2).check('1.23', 'Premium')).toBeNull();
    expect(decimal(0).check(1.5, 'Units')).toBe('Units can not have more than 0 decimal places.');
    expect(decimal(2).check(10, 'Premium')).toBeNull();
    expect(decimalPlaces('1.500')).toBe(3);
    expect(decimalPlaces(1e-7)).toBe(7);
  });

  it('no-space and no-comma', () => {
    expect(noSpace().check('a b', 'Username')).toBe('The Username cannot contain spaces.');
    expect(noSpace().check('a\tb', 'Username')).toBe('The Username cannot contain spaces.');
    expect(noSpace().check('ab', 'Username')).toBeNull();
    expect(noComma().check('1,000', 'Code')).toBe('The Code cannot contain comma.');
    expect(noComma().check('1000', 'Code')).toBeNull();
  });

  it('reports the first failing rule in order', () => {
    expect(validateValue('', 'Limit', [required(), minValue(1)])).toBe('This field is required.');
    expect(validateValue('0', 'Limit', [required(), minValue(1), decimal(0)])).toBe('Limit must be 1 or more.');
    expect(validateValue('2', 'Limit', [required(), minValue(1)])).toBeNull();
  });

  it('validates a whole form for submit', () => {
    const errors = validateForm(
      { name: '', limit: '0', code: 'A B' },
      {
        name: { label: 'Name', rules: [required()] },
        limit: { label: 'Limit', rules: [required(), minValue(1)] },
        code: { label: 'Code', rules: [noSpace()] },
      },
    );
    expect(errors).toEqual({
      name: 'This field is required.',
      limit: 'Limit must be 1 or more.',
      code: 'The Code cannot contain spaces.',
    });
  });

  it('works as zod refinements with the same messages (for server schemas)', () => {
    const schema = z.object({
      code: withRules(z.string(), 'Code', [noSpace(), noComma()]),
      limit: z.number().superRefine(fieldRefinement('Limit', [minValue(1), maxValue(10), decimal(1)])),
    });
    const result = schema.safeParse({ code: 'a,b c', limit: 10.25 });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual([
      ['code', 'The Code cannot contain spaces.'],
      ['limit', 'Limit must be 10 or less.'],
    ]);
    expect(schema.safeParse({ code: 'abc', limit: 2.5 }).success).toBe(true);
  });
});
