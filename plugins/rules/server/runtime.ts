import { and, asc, desc, eq } from 'drizzle-orm';
import { runRules, type RuleBundle, type UnderwritingIssue } from '@atrium/rating/rules';
import { provideService, type Queryable } from '@atrium/sdk/server';
import { RULES_RUNTIME, type RulesRunRequest, type RulesRunResult } from '../shared/runtime-service.js';
import { publishedOn } from './store.js';
import { deployment, project } from './tables.js';

/** Deployed bundles never change: cache them by deployment id (bounded). */
const bundles = new Map<number, RuleBundle>();
const MAX_CACHED = 200;

async function bundleOf(tx: Queryable, id: number): Promise<RuleBundle | null> {
  const cached = bundles.get(id);
  if (cached) return cached;
  const [row] = await tx.select({ bundle: deployment.bundle }).from(deployment).where(eq(deployment.id, id));
  if (!row) return null;
  if (bundles.size >= MAX_CACHED) bundles.delete(bundles.keys().next().value!);
  bundles.set(id, row.bundle);
  return row.bundle;
}

/** Runs the deployed rules in force for a request (shared/runtime-service.ts). */
export async function runDeployedRules(tx: Queryable, request: RulesRunRequest): Promise<RulesRunResult> {
  const empty: RulesRunResult = { actions: [], issues: [], errors: [], project: null, effectiveDate: null };
  const [p] = await tx
    .select({ id: project.id, name: project.name })
    .from(project)
    .where(request.project ? eq(project.name, request.project) : eq(project.product, request.product ?? ''))
    .orderBy(asc(project.id))
    .limit(1);
  if (!p) return runRulesOn(empty, null, request);
  const date = await publishedOn(tx, p.id, request.asOf);
  if (!date) return runRulesOn({ ...empty, project: p }, null, request);
  const [d] = await tx
    .select({ id: deployment.id })
    .from(deployment)
    .where(and(eq(deployment.projectId, p.id), eq(deployment.effectiveDateId, date.id)))
    .orderBy(desc(deployment.id))
    .limit(1);
  const bundle = d ? await bundleOf(tx, d.id) : null;
  const result: RulesRunResult = {
    ...empty,
    project: p,
    effectiveDate: d ? { id: date.id, effective_date: date.effectiveDate, deployment_id: d.id } : null,
  };
  return runRulesOn(result, bundle, request);
}

function runRulesOn(result: RulesRunResult, bundle: RuleBundle | null, request: RulesRunRequest): RulesRunResult {
  const run = runRules(
    bundle ?? { rules: [] },
    { asOf: request.asOf, user: request.user, risk: request.risk, viewId: request.viewId, extra: request.extra },
    request.elements ? { elements: request.elements } : {},
  );
  return { ...result, actions: run.actions, issues: run.issues, errors: run.errors };
}

const BLOCKS: Record<'rate' | 'submit' | 'bind', UnderwritingIssue['blocking'][]> = {
  rate: ['rate'],
  submit: ['rate', 'submit'],
  bind: ['rate', 'submit', 'bind'],
};

export const rulesRuntimeService = provideService(RULES_RUNTIME, () => ({
  run: runDeployedRules,
  async underwritingIssues(tx, request) {
    const { issues } = await runDeployedRules(tx, { ...request, elements: [] });
    return request.at ? issues.filter((i) => BLOCKS[request.at!].includes(i.blocking)) : issues;
  },
}));
