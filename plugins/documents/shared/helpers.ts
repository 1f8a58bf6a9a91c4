/**
 * The helper functions every template may call (server/render/helpers.typ, imported by the
 * prelude), as `GET /api/documents/helper-functions/` lists them. Pure: each depends only on its
 * arguments.
 */
export interface HelperFunction {
  name: string;
  signature: string;
  description: string;
  example: string;
  result: string;
}

export const HELPER_FUNCTIONS: HelperFunction[] = [
  {
    name: 'formatCurrency',
    signature: 'formatCurrency(value, symbol: "$")',
    description:
      'Money from a decimal string, rounded half up to cents, with thousands separators; an empty value gives —.',
    example: '#formatCurrency(data.policy.premium)',
    result: '$1,284.50',
  },
  {
    name: 'formatDate',
    signature: 'formatDate(value, style: "long" | "short" | "iso")',
    description: 'A YYYY-MM-DD date (or the date part of a timestamp) in words.',
    example: '#formatDate(data.policy.term_start)',
    result: 'March 1, 2026',
  },
  {
    name: 'pluralize',
    signature: 'pluralize(count, singular, plural: none)',
    description: 'The count and the noun, plural unless the count is 1 (singular + "s" without a plural).',
    example: '#pluralize(data.policy.coverages.len(), "coverage")',
    result: '4 coverages',
  },
];
