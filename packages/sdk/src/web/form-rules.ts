import type { RefinementCtx, ZodType } from 'zod';

/**
 * The spec's form rules ("Validation rules") with their messages word for word. Each rule is a plain
 * check (`value, fieldLabel → message | null`) so forms can run it on blur and on submit, and the
 * same rules become zod refinements (`fieldRefinement`, `withRules`) for server schemas.
 * Non-required rules pass empty values: emptiness is `required`'s job alone, so an optional field
 * never shows two messages.
 */

export const REQUIRED_MESSAGE = 'This field is required.';
export const minValueMessage = (field: string, n: number) => `${field} must be ${n} or more.`;
export const maxValueMessage = (field: string, n: number) => `${field} must be ${n} or less.`;
export const decimalMessage = (field: string, n: number) => `${field} can not have more than ${n} decimal places.`;
export const noSpaceMessage = (field: string) => `The ${field} cannot contain spaces.`;
export const noCommaMessage = (field: string) => `The ${field} cannot contain comma.`;

export type FormRuleName = 'required' | 'min_value' | 'max_value' | 'decimal' | 'no-space' | 'no-comma';

export interface FormRule {
  readonly name: FormRuleName;
  /** Returns the message, or null when the value passes. */
  check(value: unknown, field: string): string | null;
}

export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** A number from a number or numeric string; NaN otherwise. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value.trim());
  return Number.NaN;
}

export const required = (): FormRule => ({
  name: 'required',
  check: (value) => (isEmptyValue(value) ? REQUIRED_MESSAGE : null),
});

export const minValue = (n: number): FormRule => ({
  name: 'min_value',
  check(value, field) {
    if (isEmptyValue(value)) return null;
    const number = toNumber(value);
    return Number.isNaN(number) || number < n ? minValueMessage(field, n) : null;
  },
});

export const maxValue = (n: number): FormRule => ({
  name: 'max_value',
  check(value, field) {
    if (isEmptyValue(value)) return null;
    const number = toNumber(value);
    return Number.isNaN(number) || number > n ? maxValueMessage(field, n) : null;
  },
});

/** Digits after the decimal point as written (strings keep trailing zeros: '1.50' has 2). */
export function decimalPlaces(value: unknown): number {
  const text = typeof value === 'number' ? numberToPlainString(value) : String(value).trim();
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

function numberToPlainString(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // 1e-7 → '0.0000001': exponent notation would hide the decimal places.
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

export const decimal = (n: number): FormRule => ({
  name: 'decimal',
  check(value, field) {
    if (isEmptyValue(value)) return null;
    return decimalPlaces(value) > n ? decimalMessage(field, n) : null;
  },
});

export const noSpace = (): FormRule => ({
  name: 'no-space',
  check: (value, field) => (typeof value === 'string' && /\s/.test(value) ? noSpaceMessage(field) : null),
});

export const noComma = (): FormRule => ({
  name: 'no-comma',
  check: (value, field) => (typeof value === 'string' && value.includes(',') ? noCommaMessage(field) : null),
});

/** The first failing rule's message (rules run in the order given), or null. */
export function validateValue(value: unknown, field: string, rules: readonly FormRule[]): string | null {
  for (const rule of rules) {
    const message = rule.check(value, field);
    if (message !== null) return message;
  }
  return null;
}

export interface FieldRules {
  /** The field's label as shown in messages ('Limit', 'Username'). */
  label: string;
  rules: readonly FormRule[];
}

/** Validates a whole form (on submit); only failing fields appear in the result. */
export function validateForm<Values extends Record<string, unknown>>(
  values: Values,
  schema: Partial<Record<keyof Values & string, FieldRules>>,
): Partial<Record<keyof Values & string, string>> {
  const errors: Partial<Record<keyof Values & string, string>> = {};
  for (const [name, spec] of Object.entries(schema) as [keyof Values & string, FieldRules | undefined][]) {
    if (!spec) continue;
    const message = validateValue(values[name], spec.label, spec.rules);
    if (message !== null) errors[name] = message;
  }
  return errors;
}

/** For `schema.superRefine(fieldRefinement('Limit', [minValue(1)]))`: every failing rule becomes an issue. */
export function fieldRefinement(field: string, rules: readonly FormRule[]) {
  return (value: unknown, ctx: RefinementCtx) => {
    const message = validateValue(value, field, rules);
    if (message !== null) ctx.addIssue({ code: 'custom', message, params: { rule: ruleNameOf(value, field, rules) } });
  };
}

function ruleNameOf(value: unknown, field: string, rules: readonly FormRule[]): FormRuleName | undefined {
  return rules.find((rule) => rule.check(value, field) !== null)?.name;
}

/** `withRules(z.string().optional(), 'Code', [required(), noSpace()])`. */
export function withRules<T extends ZodType>(schema: T, field: string, rules: readonly FormRule[]) {
  return schema.superRefine(fieldRefinement(field, rules));
}
