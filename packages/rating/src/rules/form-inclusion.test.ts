import { describe, expect, it } from 'vitest';
import { autoOntology } from './fixtures/auto.js';
import {
  checkComponent,
  compileBundle,
  parseBrl,
  printBrl,
  runRules,
  runRuleTest,
  type PolicyContext,
  type RuleComponent,
} from './index.js';

/** Form-inclusion rules: `attach form` with its printing, the policy functions, and the merge per form. */
const rules = {
  maine: `rule maine 'Maine disclosure'
  category form-inclusion
  applies to policy
when
  it is true that policy_state() = 'ME'
then
  attach form 'ME HO-D 01 26' always print on renewal
end
`,
  mortgagee: `rule mortgagee 'Mortgagee clause'
  category form-inclusion
  applies to policy
when
  it is true that has_mortgagee()
then
  attach form 'Mortgagee clause'
end
`,
  privacy: `rule privacy 'Privacy notice, kept on file'
  category form-inclusion
  applies to policy
when
  always
then
  attach form 'Privacy notice' suppress printing
end
`,
  bigPremium: `rule big_premium 'Large premium notice'
  category form-inclusion
  applies to policy
  priority 5
when
  it is true that data_point('policy.premium') > 1000 and data_point('policy.coverages[1].code') = '2'
then
  attach form 'Privacy notice'
  attach form 'Large premium notice'
otherwise
  attach form 'Large premium notice' suppress printing
end
`,
};
const bundle = () => compileBundle(Object.values(rules).map((t) => parseBrl(t)));
const run = (policy: PolicyContext) => runRules(bundle(), { asOf: '2026-03-01', risk: { type: 'policy' }, policy });
const data = { policy: { premium: '1284.50', coverages: [{ code: '1' }, { code: '2' }] } };

describe('form-inclusion rules', () => {
  it.each(Object.entries(rules))('%s round-trips text → tree → text', (_name, text) => {
    const tree = parseBrl(text);
    expect(printBrl(tree)).toBe(text);
    expect(checkComponent(tree, autoOntology)).toEqual([]);
  });

  it('gives the attach-form action its printing', () => {
    const [maine, , privacy] = Object.values(rules).map((t) => parseBrl(t) as RuleComponent);
    expect(maine!.then).toEqual([{ action: 'attach-form', form: 'ME HO-D 01 26', printing: 'print', onRenewal: true }]);
    expect(privacy!.then[0]).toMatchObject({ printing: 'suppress', onRenewal: false });
    expect(() => parseBrl(rules.maine.replace('always print on renewal', 'always print'))).toThrow(/'on'/);
  });

  it('keeps attach form to form-inclusion rules', () => {
    const wrong = parseBrl(rules.mortgagee.replace('category form-inclusion', 'category underwriting'));
    expect(checkComponent(wrong, autoOntology).map((p) => p.message)).toEqual([
      "Rule 'mortgagee': 'attach form' belongs in a rule of category form-inclusion, not underwriting.",
    ]);
  });

  it('answers the forms by name, with what prints on new business, changes and renewals', () => {
    const brief = (policy: PolicyContext) => run(policy).forms.map((f) => [f.form, f.printing, f.prints]);
    expect(brief({ state: 'ME', transaction: 'new_business', hasMortgagee: true, dataPoints: data })).toEqual([
      ['Large premium notice', 'print', true],
      ['ME HO-D 01 26', 'print', true],
      ['Mortgagee clause', 'print', true],
      // big_premium (priority 5) attaches it to print; privacy's suppression (priority 0) does not decide.
      ['Privacy notice', 'print', true],
    ]);
    expect(brief({ state: 'ME', transaction: 'renewal', hasMortgagee: false, dataPoints: data })).toEqual([
      ['Large premium notice', 'print', false],
      ['ME HO-D 01 26', 'print', true],
      ['Privacy notice', 'print', false],
    ]);
    expect(brief({ state: 'NY', transaction: 'change', hasMortgagee: false, dataPoints: {} })).toEqual([
      ['Large premium notice', 'suppress', false],
      ['Privacy notice', 'suppress', false],
    ]);
    expect(run({ state: 'ME', transaction: 'change' }).forms.find((f) => f.form === 'ME HO-D 01 26')).toEqual({
      form: 'ME HO-D 01 26',
      printing: 'print',
      printOnRenewal: true,
      prints: true,
      rules: ['maine'],
    });
  });

  it('at equal priority suppressing wins, and the policy functions are empty while quoting', () => {
    const both = compileBundle([
      parseBrl(rules.privacy),
      parseBrl(rules.privacy.replace('privacy', 'privacy_print').replace(' suppress printing', '')),
    ]);
    expect(runRules(both, { asOf: '2026-03-01', risk: { type: 'policy' } }).forms).toMatchObject([
      { form: 'Privacy notice', printing: 'suppress', prints: false, rules: ['privacy', 'privacy_print'] },
    ]);
    expect(run({}).forms.map((f) => f.form)).toEqual(['Large premium notice', 'Privacy notice']);
  });

  it('is checked by rule tests: every attached form, with the properties named', () => {
    const context = {
      asOf: '2026-03-01',
      risk: { type: 'policy' },
      policy: { state: 'ME', transaction: 'renewal' as const },
    };
    const passing = runRuleTest(bundle(), {
      name: 'maine renewal',
      context,
      expect: {
        forms: {
          'ME HO-D 01 26': { prints: true },
          'Privacy notice': { printing: 'suppress' },
          'Large premium notice': { printing: 'suppress' },
        },
      },
    });
    expect(passing).toMatchObject({ testPassed: true, differences: [] });
    const failing = runRuleTest(bundle(), {
      name: 'missing one',
      context,
      expect: { forms: { 'ME HO-D 01 26': { prints: false }, 'Privacy notice': {} } },
    });
    expect(failing.differences.map((d) => d.message)).toEqual([
      'form "Large premium notice": expected not attached, got attached',
      'form "ME HO-D 01 26" › prints: expected false, got true',
    ]);
  });
});
