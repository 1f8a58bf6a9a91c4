import type { RiskInput, RiskItemInput, Scalar } from '@atrium/rating';
import { z } from '@atrium/sdk/server';

/**
 * The state of one risk as the API shows and takes it (spec: risk_state with type.name,
 * field_answers and items with limits and deductible), and the unified risk state: the whole tree,
 * each node a risk state with its id and children. The same shape is stored for scenario risks,
 * sent to `POST /rating/rate-quote/` and converted here to the engine's RiskInput.
 */

/** Money and other amounts travel as decimal text; numbers are accepted and turned to text. */
export const amount = z.union([
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'An amount must be a decimal number such as 1000 or 1000.50.'),
  z
    .number()
    .finite()
    .transform((n) => String(n)),
]);

export const answerValue = z.union([z.string().max(10_000), z.number().finite(), z.boolean(), z.null()]);

const itemName = z.string().trim().min(1, 'An item needs a name.').max(200);

export const riskItemState = z.strictObject({
  name: itemName,
  /** The item's limit (read with `limit('item')`). */
  limit: amount.nullable().optional(),
  /** Named limits (read with `limit('item', 'name')`). */
  limits: z.record(z.string().min(1).max(200), amount).optional(),
  deductible: amount.nullable().optional(),
  deductibles: z.record(z.string().min(1).max(200), amount).optional(),
  /** Overrides the item definition's fully-earned flag for this risk. */
  fully_earned: z.boolean().optional(),
});
export type RiskItemState = z.infer<typeof riskItemState>;

export const fieldAnswers = z.record(z.string().min(1).max(200), answerValue);

/** What `PUT risks/{r}/` takes: the answers and the items (the risk's type does not change). */
export const riskStateInput = z.strictObject({
  type: z.strictObject({ name: z.string().min(1).max(200) }).optional(),
  field_answers: fieldAnswers.default({}),
  items: z
    .array(riskItemState)
    .max(200)
    .default([])
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, i) => {
        if (seen.has(item.name)) {
          ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `Item '${item.name}' is listed twice.` });
        }
        seen.add(item.name);
      });
    }),
});
export type RiskStateInput = z.infer<typeof riskStateInput>;

export interface RiskState {
  type: { name: string };
  field_answers: Record<string, Scalar | null>;
  items: RiskItemState[];
}

/** One node of a unified risk state. */
export interface UnifiedRiskNode extends RiskState {
  id: string | number;
  children: UnifiedRiskNode[];
}

/** Depth of a risk tree: the spec's risk type tree depth is 7 (the root and six levels). */
export const MAX_SCENARIO_RISK_DEPTH = 7;

/** The unified risk state a caller sends (rate-quote, evaluate-quote-computed-fields). */
export const unifiedRiskNode: z.ZodType<UnifiedRiskNode, unknown> = z.lazy(() =>
  z.strictObject({
    id: z.union([z.string().min(1).max(200), z.number().int()]),
    type: z.strictObject({ name: z.string().min(1).max(200) }),
    field_answers: fieldAnswers.default({}),
    items: z.array(riskItemState).max(200).default([]),
    children: z.array(unifiedRiskNode).max(1000).default([]),
  }),
);

/** Depth of a tree (a root alone is 1). */
export function treeDepth(node: { children: readonly { children: readonly unknown[] }[] }): number {
  let deepest = 0;
  for (const child of node.children) {
    deepest = Math.max(deepest, treeDepth(child as { children: readonly { children: readonly unknown[] }[] }));
  }
  return 1 + deepest;
}

function toItemInput(item: RiskItemState): RiskItemInput {
  return {
    name: item.name,
    ...(item.limit != null ? { limit: item.limit } : {}),
    ...(item.limits ? { limits: item.limits } : {}),
    ...(item.deductible != null ? { deductible: item.deductible } : {}),
    ...(item.deductibles ? { deductibles: item.deductibles } : {}),
    ...(item.fully_earned !== undefined ? { fullyEarned: item.fully_earned } : {}),
  };
}

/**
 * Converts a unified risk state to the engine's RiskInput. Ids become text (worksheet paths are
 * `type#id`); answers pass through (the engine normalizes them by the field's type and refuses
 * what does not fit); a null answer is left out so that the field's default applies.
 */
export function toRiskInput(node: UnifiedRiskNode): RiskInput {
  const answers: Record<string, Scalar> = {};
  for (const [name, value] of Object.entries(node.field_answers)) {
    if (value !== null && value !== undefined) answers[name] = value;
  }
  return {
    id: String(node.id),
    type: node.type.name,
    answers,
    items: node.items.map(toItemInput),
    children: node.children.map(toRiskInput),
  };
}
