import { describe, expect, it } from 'vitest';
import { formsToPrint, type FormRule } from './settings.js';

const rule = (id: number, over: Partial<FormRule> = {}): FormRule => ({
  line: 'homeowners',
  imported_document_id: id,
  state: null,
  suppress_printing: false,
  always_print_on_renewal: false,
  mortgagee_only: false,
  ...over,
});
const policy = { line: 'homeowners', state: 'ME', renewal: false, hasMortgagee: false };
const ids = (rules: FormRule[]) => rules.map((r) => r.imported_document_id);

describe('formsToPrint: the three form rules', () => {
  const rules = [
    rule(1),
    rule(2, { suppress_printing: true }),
    rule(3, { always_print_on_renewal: true }),
    rule(4, { mortgagee_only: true }),
    rule(5, { state: 'NY' }),
    rule(6, { line: 'personal_auto' }),
  ];
  it('prints the line’s forms for its state on new business, never a suppressed one', () => {
    expect(ids(formsToPrint(rules, policy))).toEqual([1, 3]);
  });
  it('prints only the forms marked always-print on a renewal', () => {
    expect(ids(formsToPrint(rules, { ...policy, renewal: true }))).toEqual([3]);
  });
  it('adds the mortgagee forms when a mortgagee is on the policy', () => {
    expect(ids(formsToPrint(rules, { ...policy, hasMortgagee: true }))).toEqual([1, 3, 4]);
    expect(ids(formsToPrint(rules, { ...policy, state: 'NY' }))).toEqual([1, 3, 5]);
  });
});
