/**
 * Functions of the rules language: the formula language's general functions (min, max, round …)
 * plus the ones rules need (dates, collections over the risk tree, the user). Rate tables, limits
 * of the rating engine's calculations and `sum` of calculations are rating-only.
 */
export interface FunctionSpec {
  min: number;
  max: number;
  doc: string;
  /** What it gives, for the type check. */
  returns: 'number' | 'boolean' | 'string' | 'date' | 'any';
}

export const RULE_FUNCTIONS: Record<string, FunctionSpec> = {
  min: { min: 1, max: -1, doc: 'The smallest number.', returns: 'number' },
  max: { min: 1, max: -1, doc: 'The largest number.', returns: 'number' },
  round: { min: 1, max: 3, doc: "round(x, places = 0, mode = 'half-up')", returns: 'number' },
  ceil: { min: 1, max: 2, doc: 'ceil(x, places = 0)', returns: 'number' },
  floor: { min: 1, max: 2, doc: 'floor(x, places = 0)', returns: 'number' },
  abs: { min: 1, max: 1, doc: 'abs(x)', returns: 'number' },
  if: { min: 3, max: 3, doc: 'if(condition, then, else); only the chosen branch runs.', returns: 'any' },
  and: { min: 1, max: -1, doc: 'All true.', returns: 'boolean' },
  or: { min: 1, max: -1, doc: 'Any true.', returns: 'boolean' },
  not: { min: 1, max: 1, doc: 'Not.', returns: 'boolean' },
  has_item: { min: 1, max: 1, doc: "has_item('item'): the risk has the item.", returns: 'boolean' },
  limit: { min: 1, max: 2, doc: "limit('item', 'name'?): the item's limit; 0 without the item.", returns: 'number' },
  deductible: {
    min: 1,
    max: 2,
    doc: "deductible('item', 'name'?): the item's deductible; 0 without it.",
    returns: 'number',
  },
  answered: { min: 1, max: 1, doc: "answered('field'): the field has an answer (or a default).", returns: 'boolean' },
  // Collections over the risk tree (below the risk the rule runs on, any depth).
  any_risk: {
    min: 1,
    max: 2,
    doc: "any_risk('type', condition?): a risk of the type (where the condition holds) exists.",
    returns: 'boolean',
  },
  no_risk: { min: 1, max: 2, doc: "no_risk('type', condition?): no such risk exists.", returns: 'boolean' },
  count_risks: { min: 1, max: 2, doc: "count_risks('type', condition?): how many such risks.", returns: 'number' },
  // The user.
  user_role_is: {
    min: 1,
    max: -1,
    doc: "user_role_is('Role', …): the caller has one of the roles.",
    returns: 'boolean',
  },
  // Dates (YYYY-MM-DD text; the clock is never read: as_of_date() is injected).
  as_of_date: { min: 0, max: 0, doc: 'The date the rules run as of (the quote date), YYYY-MM-DD.', returns: 'date' },
  date: { min: 1, max: 1, doc: "date('2026-01-31'): checks and gives a date.", returns: 'date' },
  days_between: {
    min: 2,
    max: 2,
    doc: 'days_between(from, to): whole days (negative when to is earlier).',
    returns: 'number',
  },
  years_between: {
    min: 2,
    max: 2,
    doc: 'years_between(from, to): whole years, e.g. an age on a date.',
    returns: 'number',
  },
  add_days: { min: 2, max: 2, doc: 'add_days(date, n): the date n days later.', returns: 'date' },
  year: { min: 1, max: 1, doc: 'year(date)', returns: 'number' },
  // The policy a document is assembled for (form-inclusion rules; empty while quoting).
  policy_state: { min: 0, max: 0, doc: "policy_state(): the policy's state, such as 'ME'.", returns: 'string' },
  transaction_type: {
    min: 0,
    max: 0,
    doc: "transaction_type(): 'new_business', 'change' or 'renewal'.",
    returns: 'string',
  },
  has_mortgagee: { min: 0, max: 0, doc: 'has_mortgagee(): a mortgagee is on the policy.', returns: 'boolean' },
  data_point: {
    min: 1,
    max: 1,
    doc: "data_point('policy.premium'): a data point of the policy, by its path in the documents catalogue.",
    returns: 'any',
  },
};
