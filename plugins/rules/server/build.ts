import { and, desc, eq } from 'drizzle-orm';
import {
  checkComponent,
  compileBundle,
  ontologyFromDefinition,
  parseBrl,
  printBrl,
  runRuleTest,
  tryParseBrl,
  type BrlComponent,
  type Ontology,
  type RuleBundle,
  type RuleTestCase,
  type TemplateComponent,
} from '@atrium/rating/rules';
import type { Queryable } from '@atrium/sdk/server';
import type { LinesOntology } from '@atrium/plugin-lines/ontology-service';
import { commit, componentVersion, deployment, type JobResult, type SnapshotEntry } from './tables.js';
import {
  BRL_TYPES,
  componentsAt,
  diffSnapshots,
  findEffectiveDate,
  findProject,
  sha256,
  snapshotHash,
  snapshotOf,
  type LoadedComponent,
} from './store.js';

type Problem = NonNullable<JobResult['problems']>[number];

/** The ontology of the product version in force on the effective date (null: lines has none published). */
export async function ontologyFor(
  tx: Queryable,
  lines: LinesOntology,
  product: string,
  date: string,
): Promise<Ontology | null> {
  const version = await lines.versionInForce(tx, product, date);
  return version ? ontologyFromDefinition(version.definition) : null;
}

/** A test component's body: JSON `{ context, expect }` (its name is the component's). */
export function parseTestBody(c: Pick<LoadedComponent, 'name' | 'body'>): RuleTestCase | string {
  let json: unknown;
  try {
    json = JSON.parse(c.body);
  } catch (error) {
    return `The test is not JSON: ${(error as Error).message}`;
  }
  const test = json as Partial<RuleTestCase>;
  if (!test || typeof test !== 'object' || !test.context || typeof test.context !== 'object' || !test.expect) {
    return 'A test needs "context" (asOf, user, risk) and "expect" (actions per element, issues).';
  }
  if (typeof test.context.asOf !== 'string' || !test.context.risk)
    return 'The test context needs "asOf" (YYYY-MM-DD) and "risk".';
  return { name: c.name, context: test.context, expect: test.expect };
}

/**
 * Validates the components of one effective date: every BRL body parses, prints back to the same
 * tree (the round trip), and type-checks against the ontology of the product version in force on
 * that date; test bodies are well formed.
 */
export function validateComponents(
  components: LoadedComponent[],
  ontology: Ontology | null,
  product: string,
): Problem[] {
  const problems: Problem[] = [];
  const trees = new Map<string, BrlComponent>();
  for (const c of components) {
    if (BRL_TYPES.includes(c.componentType)) {
      const { component: tree, problems: syntax } = tryParseBrl(c.body);
      for (const p of syntax) {
        problems.push({
          component: c.fullName,
          message: p.message,
          line: p.position?.line,
          column: p.position?.column,
        });
      }
      if (!tree) continue;
      if (tree.name !== c.name) {
        problems.push({
          component: c.fullName,
          message: `The text names '${tree.name}'; the component is '${c.name}'.`,
        });
      }
      const again = parseBrl(printBrl(tree));
      if (JSON.stringify(again) !== JSON.stringify(tree)) {
        problems.push({
          component: c.fullName,
          message: 'The text does not print back to the same rule (round trip).',
        });
      }
      trees.set(c.fullName, tree);
    } else if (c.componentType === 'test') {
      const test = parseTestBody(c);
      if (typeof test === 'string') problems.push({ component: c.fullName, message: test });
    }
  }
  if (!ontology) {
    if (trees.size > 0)
      problems.push({
        component: '',
        message: `Lines has no published version of '${product}' to check the rules against.`,
      });
    return problems;
  }
  const templates = new Map<string, TemplateComponent>();
  for (const t of trees.values()) if (t.kind === 'template') templates.set(t.name, t);
  for (const [fullName, tree] of trees) {
    for (const p of checkComponent(tree, ontology, templates))
      problems.push({ component: fullName, message: p.message });
  }
  return problems;
}

/** The bundle of the enabled rule components (templates applied). */
export function bundleOf(entries: { componentType: string; state: string; body: string }[]): RuleBundle {
  const trees: BrlComponent[] = [];
  for (const e of entries) {
    if (e.state !== 'enabled' || (e.componentType !== 'rule' && e.componentType !== 'template')) continue;
    const tree = tryParseBrl(e.body).component;
    if (tree) trees.push(tree);
  }
  return compileBundle(trees);
}

export async function validateProject(tx: Queryable, lines: LinesOntology, projectId: number, effectiveDateId: number) {
  const p = await findProject(tx, projectId);
  const date = await findEffectiveDate(tx, projectId, effectiveDateId);
  const components = await componentsAt(tx, projectId, effectiveDateId);
  return validateComponents(components, await ontologyFor(tx, lines, p.product, date.effectiveDate), p.product);
}

export async function testProject(tx: Queryable, projectId: number, effectiveDateId: number, componentId?: number) {
  const components = await componentsAt(tx, projectId, effectiveDateId);
  let bundle: RuleBundle;
  try {
    bundle = bundleOf(components);
  } catch (error) {
    return { tests: [], problems: [{ component: '', message: (error as Error).message }] };
  }
  const tests: NonNullable<JobResult['tests']> = [];
  const problems: Problem[] = [];
  for (const c of components) {
    if (c.componentType !== 'test' || c.state !== 'enabled') continue;
    if (componentId !== undefined && c.id !== componentId) continue;
    const test = parseTestBody(c);
    if (typeof test === 'string') problems.push({ component: c.fullName, message: test });
    else tests.push({ component: c.fullName, ...runRuleTest(bundle, test) });
  }
  return { tests, problems };
}

/**
 * Commits one effective date: refused (with the problems) unless it validates; otherwise stores the
 * snapshot (content hashes), the per-component diff against the date's previous commit, and marks
 * every version committed.
 */
export async function commitProject(
  tx: Queryable,
  lines: LinesOntology,
  projectId: number,
  effectiveDateId: number,
  username: string,
  message: string,
): Promise<JobResult & { ok: boolean }> {
  const problems = await validateProject(tx, lines, projectId, effectiveDateId);
  if (problems.length > 0)
    return { ok: false, problems, message: 'The project does not validate; nothing was committed.' };
  const components = await componentsAt(tx, projectId, effectiveDateId);
  const snapshot = snapshotOf(components);
  const hash = snapshotHash(snapshot);
  // Compared with this date's last commit; a date never committed (a new copy) with the project's last.
  const last = (where: ReturnType<typeof and>) =>
    tx
      .select({ snapshot: commit.snapshot, hash: commit.hash, id: commit.id, effectiveDateId: commit.effectiveDateId })
      .from(commit)
      .where(where)
      .orderBy(desc(commit.id))
      .limit(1);
  const [previous] = (await last(and(eq(commit.projectId, projectId), eq(commit.effectiveDateId, effectiveDateId))))
    .length
    ? await last(and(eq(commit.projectId, projectId), eq(commit.effectiveDateId, effectiveDateId)))
    : await last(and(eq(commit.projectId, projectId)));
  if (previous?.hash === hash && previous.effectiveDateId === effectiveDateId) {
    return { ok: true, commitId: previous.id, hash, diff: [], message: 'Nothing changed since the last commit.' };
  }
  const diff = diffSnapshots(previous?.snapshot ?? ([] as SnapshotEntry[]), snapshot);
  const [row] = await tx
    .insert(commit)
    .values({ projectId, effectiveDateId, hash, message, snapshot, diff, createdBy: username })
    .returning({ id: commit.id });
  for (const c of components) {
    if (c.committedHash !== c.hash) {
      await tx.update(componentVersion).set({ committedHash: c.hash }).where(eq(componentVersion.id, c.versionId));
    }
  }
  return { ok: true, commitId: row!.id, hash, diff };
}

/** Deploys a commit of an effective date: compiles its snapshot into a bundle, frozen from then on. */
export async function deployCommit(
  tx: Queryable,
  projectId: number,
  effectiveDateId: number,
  commitId: number,
  username: string,
): Promise<JobResult & { ok: boolean }> {
  const [c] = await tx
    .select()
    .from(commit)
    .where(and(eq(commit.id, commitId), eq(commit.projectId, projectId), eq(commit.effectiveDateId, effectiveDateId)));
  if (!c) return { ok: false, message: `Commit ${commitId} is not a commit of effective date ${effectiveDateId}.` };
  let bundle: RuleBundle;
  try {
    bundle = bundleOf(c.snapshot);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const hash = sha256(JSON.stringify(bundle));
  const [row] = await tx
    .insert(deployment)
    .values({ projectId, effectiveDateId, commitId, bundle, hash, createdBy: username })
    .returning({ id: deployment.id });
  return { ok: true, deploymentId: row!.id, commitId, hash };
}
