import { and, asc, desc, eq, max } from 'drizzle-orm';
import { runRules, type RuleBundle, type UnderwritingIssue } from '@atrium/rating/rules';
import { provideService, type Queryable } from '@atrium/sdk/server';
import { RULES_RUNTIME, type RulesRunRequest, type RulesRunResult } from '../shared/runtime-service.js';
import { deployment, effectiveDate, project } from './tables.js';

const MAX_CACHED = 200;

/**
 * Caches per database (a server's `context.db`), so that two servers in one process (tests) never
 * share them: deployed bundles, which never change, by deployment id; and what is in force.
 */
interface Caches {
  bundles: Map<number, RuleBundle>;
  inForce: Map<string, { at: number; value: InForce }>;
}
const cachesByDatabase = new WeakMap<object, Caches>();
function cachesOf(database: object): Caches {
  let caches = cachesByDatabase.get(database);
  if (!caches) {
    caches = { bundles: new Map(), inForce: new Map() };
    cachesByDatabase.set(database, caches);
  }
  return caches;
}

export async function bundleOf(database: object, tx: Queryable, id: number): Promise<RuleBundle | null> {
  const { bundles } = cachesOf(database);
  const cached = bundles.get(id);
  if (cached) return cached;
  const [row] = await tx.select({ bundle: deployment.bundle }).from(deployment).where(eq(deployment.id, id));
  if (!row) return null;
  if (bundles.size >= MAX_CACHED) bundles.delete(bundles.keys().next().value!);
  bundles.set(id, row.bundle);
  return row.bundle;
}

interface InForce {
  project: { id: number; name: string } | null;
  /** Published effective dates with their latest deployment, latest date first. */
  dates: { id: number; effectiveDate: string; deploymentId: number }[];
}

/**
 * What is in force per project (or product), kept for a second: a UI-controls call then reads no
 * table. Publishing, deploying and deleting in this process clear it at once; another process
 * (a worker that deployed) is seen within the second.
 */
const IN_FORCE_TTL_MS = 1_000;

/** `database`: the server's `context.db`. */
export function clearRulesInForce(database: object): void {
  cachesOf(database).inForce.clear();
}

export async function inForceFor(
  database: object,
  tx: Queryable,
  key: { project?: string; product?: string },
): Promise<InForce> {
  const { inForce } = cachesOf(database);
  const cacheKey = key.project ? `project:${key.project}` : `product:${key.product ?? ''}`;
  const cached = inForce.get(cacheKey);
  if (cached && Date.now() - cached.at < IN_FORCE_TTL_MS) return cached.value;
  const [p] = await tx
    .select({ id: project.id, name: project.name })
    .from(project)
    .where(key.project ? eq(project.name, key.project) : eq(project.product, key.product ?? ''))
    .orderBy(asc(project.id))
    .limit(1);
  const value: InForce = { project: p ?? null, dates: [] };
  if (p) {
    const rows = await tx
      .select({ id: effectiveDate.id, effectiveDate: effectiveDate.effectiveDate, deploymentId: max(deployment.id) })
      .from(effectiveDate)
      .innerJoin(deployment, eq(deployment.effectiveDateId, effectiveDate.id))
      .where(and(eq(effectiveDate.projectId, p.id), eq(effectiveDate.status, 'published')))
      .groupBy(effectiveDate.id, effectiveDate.effectiveDate)
      .orderBy(desc(effectiveDate.effectiveDate));
    value.dates = rows.map((r) => ({ id: r.id, effectiveDate: r.effectiveDate, deploymentId: r.deploymentId! }));
  }
  if (inForce.size >= MAX_CACHED) inForce.delete(inForce.keys().next().value!);
  inForce.set(cacheKey, { at: Date.now(), value });
  return value;
}

/**
 * Runs the deployed rules in force for a request (shared/runtime-service.ts). `database` is the
 * server's `context.db` (the key of the caches), `tx` what the queries run on.
 */
export async function runDeployedRules(
  database: object,
  tx: Queryable,
  request: RulesRunRequest,
  /** The request's risk and extra are a parsed request body's (see RunOptions.plainJson). */
  options: { plainJson?: boolean } = {},
): Promise<RulesRunResult> {
  const empty: RulesRunResult = { actions: [], issues: [], errors: [], project: null, effectiveDate: null };
  const found = await inForceFor(database, tx, request);
  if (!found.project) return runRulesOn(empty, null, request, options);
  // The latest published effective date on or before the date (that has a deployment).
  const date = found.dates.find((d) => d.effectiveDate <= request.asOf);
  if (!date) return runRulesOn({ ...empty, project: found.project }, null, request, options);
  const bundle = await bundleOf(database, tx, date.deploymentId);
  const result: RulesRunResult = {
    ...empty,
    project: found.project,
    effectiveDate: { id: date.id, effective_date: date.effectiveDate, deployment_id: date.deploymentId },
  };
  return runRulesOn(result, bundle, request, options);
}

/**
 * A deployed bundle without its form-inclusion rules: those speak about a policy's documents, not a
 * page, and run in form-inclusion.ts. Kept per bundle, so that each call runs the same bundle object
 * and the interpreter's per-bundle work (the rule names' order) is done once.
 */
const pageBundles = new WeakMap<RuleBundle, RuleBundle>();
const NO_RULES: RuleBundle = { rules: [] };
function pageRulesOf(bundle: RuleBundle | null): RuleBundle {
  if (!bundle) return NO_RULES;
  let page = pageBundles.get(bundle);
  if (!page) {
    page = { ...bundle, rules: bundle.rules.filter((r) => r.category !== 'form-inclusion') };
    pageBundles.set(bundle, page);
  }
  return page;
}

function runRulesOn(
  result: RulesRunResult,
  bundle: RuleBundle | null,
  request: RulesRunRequest,
  options: { plainJson?: boolean },
): RulesRunResult {
  const run = runRules(
    pageRulesOf(bundle),
    { asOf: request.asOf, user: request.user, risk: request.risk, viewId: request.viewId, extra: request.extra },
    { ...(request.elements ? { elements: request.elements } : {}), plainJson: options.plainJson === true },
  );
  return { ...result, actions: run.actions, issues: run.issues, errors: run.errors };
}

const BLOCKS: Record<'rate' | 'submit' | 'bind', UnderwritingIssue['blocking'][]> = {
  rate: ['rate'],
  submit: ['rate', 'submit'],
  bind: ['rate', 'submit', 'bind'],
};

export const rulesRuntimeService = provideService(RULES_RUNTIME, (context) => ({
  run: (tx, request) => runDeployedRules(context.db, tx, request),
  async underwritingIssues(tx, request) {
    const { issues } = await runDeployedRules(context.db, tx, { ...request, elements: [] });
    return request.at ? issues.filter((i) => BLOCKS[request.at!].includes(i.blocking)) : issues;
  },
}));
