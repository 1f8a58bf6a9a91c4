import type { Scalar } from '@atrium/rating';

/**
 * Checks one field answer against the field's type and options (validate-answer, and every PUT of a
 * risk state). Returns the answer as it is stored (dates as YYYY-MM-DD, numbers as given) or the
 * message saying what is wrong. An empty answer (null or '') is always valid: it clears the field.
 */
export interface AnswerField {
  name: string;
  label: string;
  type: 'date' | 'boolean' | 'string' | 'number' | 'enum' | 'computed';
  options?: string[] | null;
}

export type AnswerCheck = { valid: true; value: Scalar | null } | { valid: false; message: string };

const NUMBER = /^-?\d+(\.\d+)?$/;

/** Spec: dates are YYYY-MM-DD or ISO, else MM/DD/YYYY. Returns YYYY-MM-DD or null. */
export function parseAnswerDate(text: string): string | null {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function checkAnswer(field: AnswerField, answer: unknown): AnswerCheck {
  const label = field.label || field.name;
  if (answer === null || answer === undefined || answer === '') return { valid: true, value: null };
  const fail = (message: string): AnswerCheck => ({ valid: false, message });
  switch (field.type) {
    case 'computed':
      return fail(`${label} is computed and cannot be answered.`);
    case 'number':
      if (typeof answer === 'number' && Number.isFinite(answer)) return { valid: true, value: answer };
      if (typeof answer === 'string' && NUMBER.test(answer.trim())) return { valid: true, value: answer.trim() };
      return fail(`${label} must be a number.`);
    case 'boolean':
      if (typeof answer === 'boolean') return { valid: true, value: answer };
      if (answer === 'true' || answer === 'false') return { valid: true, value: answer === 'true' };
      return fail(`${label} must be true or false.`);
    case 'date': {
      const date = typeof answer === 'string' ? parseAnswerDate(answer.trim()) : null;
      return date ? { valid: true, value: date } : fail(`${label} must be a date (YYYY-MM-DD or MM/DD/YYYY).`);
    }
    case 'enum': {
      const text = typeof answer === 'string' || typeof answer === 'number' ? String(answer) : null;
      const options = field.options ?? [];
      if (text !== null && options.includes(text)) return { valid: true, value: text };
      return fail(`${label} must be one of: ${options.join(', ')}.`);
    }
    case 'string':
      if (typeof answer === 'string') {
        return answer.length <= 10_000 ? { valid: true, value: answer } : fail(`${label} is too long.`);
      }
      if (typeof answer === 'number') return { valid: true, value: String(answer) };
      return fail(`${label} must be text.`);
  }
}
