import { TRANSACTION_TYPES } from '@atrium/rating';
import { z } from '@atrium/sdk/server';
import { parseAnswerDate } from './answer-check.js';
import { amount } from './risk-state.js';

/** Request shapes of the scenario routes (zod, checked at the boundary). */
export const id = z.coerce.number().int().min(1).max(2147483647);

export const productParams = z.strictObject({ productId: id });
export const scenarioParams = z.strictObject({ productId: id, scenarioId: id });
export const riskParams = z.strictObject({ productId: id, scenarioId: id, riskId: id });
export const itemParams = z.strictObject({
  productId: id,
  scenarioId: id,
  riskId: id,
  itemName: z.string().min(1).max(200),
});
export const fieldParams = z.strictObject({
  productId: id,
  scenarioId: id,
  riskId: id,
  fieldName: z.string().min(1).max(200),
});
export const versionQuery = z.strictObject({ version_id: id.optional() });

export const transactionType = z.enum(TRANSACTION_TYPES, {
  error: `transaction_type must be one of ${TRANSACTION_TYPES.join(', ')}.`,
});

/** A date as the spec reads it (YYYY-MM-DD, ISO, or MM/DD/YYYY), stored as YYYY-MM-DD. */
export const day = z.string().transform((value, ctx) => {
  const date = parseAnswerDate(value.trim());
  if (!date) {
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a date (YYYY-MM-DD or MM/DD/YYYY).` });
    return z.NEVER;
  }
  return date;
});

const name = z.string().trim().min(1, 'A scenario needs a name.').max(200);

export const createScenarioBody = z.strictObject({
  name,
  transaction_type: transactionType.default('new_business'),
  effective_date: day,
  term_start: day.nullable().optional(),
  term_end: day.nullable().optional(),
  expected_premium: amount.nullable().optional(),
});

export const updateScenarioBody = z.strictObject({
  name: name.optional(),
  transaction_type: transactionType.optional(),
  effective_date: day.optional(),
  term_start: day.nullable().optional(),
  term_end: day.nullable().optional(),
  /** Setting it makes the scenario a known-answer case (see docs/lines-scenarios.md). */
  expected_premium: amount.nullable().optional(),
  // Read-only members a client may send back unchanged.
  id: z.number().optional(),
});

export const copyScenarioBody = z.strictObject({ name: name.optional() }).default({});

export const createRiskBody = z.strictObject({
  parent_risk: id.nullable().default(null),
  risk_type: z.string().trim().min(1, 'risk_type is required.').max(200),
});

export const addItemBody = z.strictObject({ item_name: z.string().trim().min(1, 'item_name is required.').max(200) });

export const validateAnswerBody = z.strictObject({
  answer: z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]),
});
