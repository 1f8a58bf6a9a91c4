import { and, desc, eq, lte, sql } from 'drizzle-orm';
import { evaluateComputedFields, type ComputedFieldsRisk } from '@atrium/rating';
import {
  badRequest,
  notFound,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { registerBeforePublish } from '../catalog/publish-hooks.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import {
  toRiskInput,
  unifiedRiskNode,
  MAX_SCENARIO_RISK_DEPTH,
  type UnifiedRiskNode,
} from '../scenarios/risk-state.js';
import { day, id, transactionType } from '../scenarios/scenario-schemas.js';
import { findProduct, resolveVersion } from '../scenarios/scenario-store.js';
import { product, productVersion } from '../tables.js';
import { knownAnswerGate, runVersionCases } from './known-answer-gate.js';
import {
  addMonths,
  baseTermMonths,
  compiledVersion,
  rateOrRefuse,
  ratingApiError,
  ratingOut,
} from './rating-service.js';

/**
 * Rating for other modules (quoting, policies) and the known-answer gate:
 * - POST /api/rating/rate-quote/: rates a unified risk state against a product version;
 * - POST /api/rating/evaluate-quote-computed-fields/: only the computed fields of the tree;
 * - POST /api/lines/products/{p}/versions/{v}/known-answer-cases/run/: runs a version's known-answer
 *   cases without publishing (publishing runs them too, through the before-publish hook).
 */
const tags = ['lines: rating'];
const security = [{ bearer: [] }];

/** Counts the depth without recursion first, so that an absurdly deep body is refused, not overflowed. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SCENARIO_RISK_DEPTH) return deepest;
    const children = (node as { children?: unknown } | null)?.children;
    if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

const riskTree = z
  .unknown()
  .refine((value) => depthOf(value) <= MAX_SCENARIO_RISK_DEPTH, {
    message: `unified_risk_state nests at most ${MAX_SCENARIO_RISK_DEPTH} levels deep.`,
  })
  .pipe(unifiedRiskNode);

const productRef = z.union([id, z.string().trim().min(1).max(200)]);

const ratingDates = z.strictObject({
  /** The transaction's effective date. */
  effective_date: day,
  /** Chooses the published version in effect when `version` is not given; the effective date by default. */
  rating_date: day.optional(),
});
const termDates = z.strictObject({ effective_date: day, expiration_date: day });

const rateQuoteBody = z.strictObject({
  product: productRef,
  version: id.optional(),
  unified_risk_state: riskTree,
  transaction_type: transactionType.default('new_business'),
  rating_dates: ratingDates.optional(),
  term: termDates.optional(),
});

const computedFieldsBody = z.strictObject({
  product: productRef,
  version: id.optional(),
  unified_risk_state: riskTree,
  transaction_type: transactionType.optional(),
  rating_dates: ratingDates.optional(),
  term: termDates.optional(),
});

const versionParams = z.strictObject({ productId: id, versionId: id });

async function productOf(db: Queryable, ref: number | string) {
  if (typeof ref === 'number') return findProduct(db, ref);
  const [row] = await db
    .select({ id: product.id, name: product.name, settings: product.settings })
    .from(product)
    .where(sql`lower(${product.name}) = lower(${ref})`)
    .limit(1);
  if (!row) throw notFound(`Product '${ref}' not found.`);
  return row;
}

/** The version asked for, else the published version in effect on the rating date. */
async function versionFor(
  db: Queryable,
  productId: number,
  productName: string,
  version: number | undefined,
  on: string | undefined,
) {
  if (version !== undefined) return (await resolveVersion(db, productId, version)).id;
  if (!on) {
    throw badRequest('Give the version, or rating_dates.effective_date to choose the version in effect.', {
      source: { pointer: '/version' },
    });
  }
  const [row] = await db
    .select({ id: productVersion.id })
    .from(productVersion)
    .where(
      and(
        eq(productVersion.productId, productId),
        eq(productVersion.status, 'published'),
        lte(productVersion.effectiveDate, on),
      ),
    )
    .orderBy(desc(productVersion.effectiveDate), desc(productVersion.number))
    .limit(1);
  if (!row)
    throw badRequest(`Product '${productName}' has no published version in effect on ${on}.`, { code: 'no_version' });
  return row.id;
}

/** Puts the computed values beside the answers of each risk (the two trees have the same shape). */
function withComputed(
  node: UnifiedRiskNode,
  computed: ComputedFieldsRisk,
): UnifiedRiskNode & { computed_fields: Record<string, string> } {
  return {
    ...node,
    field_answers: { ...node.field_answers, ...computed.fields },
    computed_fields: computed.fields,
    children: node.children.map((child, i) => withComputed(child, computed.children[i]!)),
  };
}

export function registerRatingRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  const db = context.db;
  registerBeforePublish(knownAnswerGate);

  router.post(
    '/rating/rate-quote/',
    {
      config: { access: LINES_PERMISSIONS.rating.rate },
      schema: {
        summary: 'Rates a unified risk state: the premium (term, pro_rata) and the worksheet.',
        description:
          'product: id or name; version: id, else the published version in effect on rating_dates.rating_date ' +
          '(default rating_dates.effective_date). term: effective_date and expiration_date of the policy term ' +
          "(default: from the effective date for the product's base term). Rating errors are 400.",
        tags,
        security,
        body: rateQuoteBody,
      },
    },
    async (request) => {
      const body = request.body;
      const found = await productOf(db, body.product);
      const effectiveDate = body.rating_dates?.effective_date ?? body.term?.effective_date;
      if (!effectiveDate) {
        throw badRequest('Give rating_dates.effective_date or the term.', { source: { pointer: '/rating_dates' } });
      }
      const versionId = await versionFor(
        db,
        found.id,
        found.name,
        body.version,
        body.rating_dates?.rating_date ?? effectiveDate,
      );
      const compiled = await compiledVersion(db, found.id, versionId);
      const termStart = body.term?.effective_date ?? effectiveDate;
      const result = rateOrRefuse(compiled, {
        risk: toRiskInput(body.unified_risk_state),
        transactionType: body.transaction_type,
        termStart,
        termEnd: body.term?.expiration_date ?? addMonths(termStart, baseTermMonths(found.settings)),
        effectiveDate,
      });
      return { product_id: found.id, version_id: versionId, ...ratingOut(result, new Date()) };
    },
  );

  router.post(
    '/rating/evaluate-quote-computed-fields/',
    {
      config: { access: LINES_PERMISSIONS.rating.rate },
      schema: {
        summary: 'Evaluates the computed fields of a unified risk state (no rating).',
        description: "Answers the tree with each risk's computed values in field_answers and computed_fields.",
        tags,
        security,
        body: computedFieldsBody,
      },
    },
    async (request) => {
      const body = request.body;
      const found = await productOf(db, body.product);
      const on = body.rating_dates?.rating_date ?? body.rating_dates?.effective_date ?? body.term?.effective_date;
      const versionId = await versionFor(db, found.id, found.name, body.version, on);
      const compiled = await compiledVersion(db, found.id, versionId);
      let computed: ComputedFieldsRisk;
      try {
        computed = evaluateComputedFields(compiled, toRiskInput(body.unified_risk_state));
      } catch (error) {
        throw ratingApiError(error);
      }
      return {
        product_id: found.id,
        version_id: versionId,
        unified_risk_state: withComputed(body.unified_risk_state, computed),
        computed_fields: computed,
      };
    },
  );

  router.post(
    '/lines/products/:productId/versions/:versionId/known-answer-cases/run/',
    {
      config: { access: LINES_PERMISSIONS.scenario.rate },
      schema: {
        summary: "Runs a version's known-answer cases (its scenarios with an expected premium) without publishing.",
        description:
          'Answers { passed, message, total, failed, cases: [{ scenario_id, name, passed, expected_premium, actual_premium, error, differences }] }.',
        tags,
        security,
        params: versionParams,
      },
    },
    async (request) => {
      const { productId, versionId } = request.params;
      await resolveVersion(db, productId, versionId);
      return runVersionCases(db, productId, versionId);
    },
  );
}
