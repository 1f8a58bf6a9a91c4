import {
  runRules,
  type ElementState,
  type FormInclusion,
  type RuleBundle,
  type RuleRunContext,
  type RunOptions,
} from './interpret.js';

/**
 * Tests of rules: an input (the context a page would send) and the expected outcome per element,
 * plus the underwriting issue codes expected. The test job runs them all and lists each difference.
 */
export interface RuleTestCase {
  name: string;
  context: RuleRunContext;
  expect: {
    actions?: Record<string, Partial<Omit<ElementState, 'name'>>>;
    /** Every issue code the rules should raise (order does not matter); omitted: not checked. */
    issues?: string[];
    /**
     * Every form the rules should attach (by name; any other attached form is a difference), with
     * the properties to compare (`prints`, `printing`, `printOnRenewal`); omitted: not checked.
     */
    forms?: Record<string, Partial<Omit<FormInclusion, 'form' | 'rules'>>>;
  };
}

export interface RuleTestDifference {
  element: string;
  property: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

export interface RuleTestResult {
  name: string;
  testPassed: boolean;
  differences: RuleTestDifference[];
  errors: string[];
}

export function runRuleTest(bundle: RuleBundle, test: RuleTestCase, options: RunOptions = {}): RuleTestResult {
  const elements = Object.keys(test.expect.actions ?? {});
  const run = runRules(bundle, test.context, { ...options, elements });
  const differences: RuleTestDifference[] = [];
  for (const state of run.actions) {
    const expected = test.expect.actions?.[state.name] ?? {};
    for (const [property, want] of Object.entries(expected)) {
      const got = (state as unknown as Record<string, unknown>)[property];
      if (JSON.stringify(got ?? null) !== JSON.stringify(want ?? null)) {
        differences.push({
          element: state.name,
          property,
          expected: want,
          actual: got ?? null,
          message: `${state.name} › ${property}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got ?? null)}`,
        });
      }
    }
  }
  if (test.expect.issues) {
    const got = [...new Set(run.issues.map((i) => i.code))].sort();
    const want = [...new Set(test.expect.issues)].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      differences.push({
        element: '(issues)',
        property: 'codes',
        expected: want,
        actual: got,
        message: `underwriting issues: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
      });
    }
  }
  if (test.expect.forms) {
    const want = test.expect.forms;
    const got = new Map(run.forms.map((f) => [f.form, f]));
    const names = [...new Set([...Object.keys(want), ...got.keys()])].sort();
    for (const name of names) {
      const form = got.get(name);
      const expected = want[name];
      if (!form || !expected) {
        differences.push({
          element: `(form) ${name}`,
          property: 'attached',
          expected: Boolean(expected),
          actual: Boolean(form),
          message: `form ${JSON.stringify(name)}: expected ${expected ? 'attached' : 'not attached'}, got ${form ? 'attached' : 'not attached'}`,
        });
        continue;
      }
      for (const [property, value] of Object.entries(expected)) {
        const actual = (form as unknown as Record<string, unknown>)[property];
        if (JSON.stringify(actual ?? null) !== JSON.stringify(value ?? null)) {
          differences.push({
            element: `(form) ${name}`,
            property,
            expected: value,
            actual: actual ?? null,
            message: `form ${JSON.stringify(name)} › ${property}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual ?? null)}`,
          });
        }
      }
    }
  }
  const errors = run.errors.map((e) => e.message);
  return { name: test.name, testPassed: differences.length === 0 && errors.length === 0, differences, errors };
}
