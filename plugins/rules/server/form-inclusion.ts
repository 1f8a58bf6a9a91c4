import { runRules, type RiskModel, type RuleBundle } from '@atrium/rating/rules';
import {
  FORM_INCLUSION_RULES,
  provideService,
  type FormInclusionAnswer,
  type FormInclusionRequest,
  type Queryable,
} from '@atrium/sdk/server';
import { bundleOf, inForceFor } from './runtime.js';

/**
 * Form inclusion (docs/rules.md, "Form inclusion"): the deployed rules of category
 * `form-inclusion` in force on the document's date, run on the policy's context, answer which
 * forms a declaration carries and whether each prints. Forms are named as the documents module
 * names them; rules keeps no copy of documents' tables.
 */
export async function formsInForce(
  database: object,
  tx: Queryable,
  request: FormInclusionRequest & { project?: string; risk?: RiskModel },
): Promise<FormInclusionAnswer | null> {
  const found = await inForceFor(
    database,
    tx,
    request.project ? { project: request.project } : { product: request.line },
  );
  if (!found.project) return null;
  const date = found.dates.find((d) => d.effectiveDate <= request.asOf);
  if (!date) return null;
  const bundle = await bundleOf(database, tx, date.deploymentId);
  const rules = (bundle?.rules ?? []).filter((r) => r.category === 'form-inclusion');
  if (rules.length === 0) return null;
  const run = runRules({ rules } satisfies RuleBundle, {
    asOf: request.asOf,
    user: {},
    // Without the policy's risk tree (documents has none), each form rule runs once, on an empty
    // risk of the type it applies to: its fields are unanswered and it reads the policy through
    // policy_state(), transaction_type(), has_mortgagee() and data_point().
    risk: request.risk ?? {
      type: '',
      children: [...new Set(rules.map((r) => String(r.appliesTo)))].map((type) => ({ type })),
    },
    policy: {
      state: request.state,
      transaction: request.transaction,
      hasMortgagee: request.hasMortgagee,
      dataPoints: request.dataPoints,
    },
  });
  return {
    forms: run.forms,
    errors: run.errors.map((e) => ({ rule: e.rule, message: e.message })),
    project: found.project,
    effectiveDate: { id: date.id, effective_date: date.effectiveDate, deployment_id: date.deploymentId },
  };
}

export const formInclusionService = provideService(FORM_INCLUSION_RULES, (context) => ({
  formsFor: (tx, request) => formsInForce(context.db, tx, request),
}));
