import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { notFound, type Queryable } from '@atrium/sdk/server';
import { assertDraftVersion } from '../catalog/version-guard.js';
import { product, productVersion, scenario, scenarioRisk } from '../tables.js';
import type { RiskItemState, UnifiedRiskNode } from './risk-state.js';

/**
 * Reading scenarios and their risk trees. A scenario belongs to one product version; its risks form
 * a tree by `parent_risk_id`, each holding its risk state (field answers and items) as JSON.
 */
export type ScenarioRow = typeof scenario.$inferSelect;
export type ScenarioRiskRow = typeof scenarioRisk.$inferSelect;

export async function findProduct(db: Queryable, productId: number) {
  const [row] = await db
    .select({ id: product.id, name: product.name, settings: product.settings })
    .from(product)
    .where(eq(product.id, productId))
    .limit(1);
  if (!row) throw notFound(`Product ${productId} not found.`);
  return row;
}

/**
 * The version a scenario request is about: `version_id` when given (it must be one of the product's
 * versions), else the product's draft, else its newest published version.
 */
export async function resolveVersion(db: Queryable, productId: number, versionId: number | undefined) {
  await findProduct(db, productId);
  const columns = { id: productVersion.id, status: productVersion.status, label: productVersion.label };
  if (versionId !== undefined) {
    const [row] = await db
      .select(columns)
      .from(productVersion)
      .where(and(eq(productVersion.id, versionId), eq(productVersion.productId, productId)))
      .limit(1);
    if (!row) throw notFound(`Version ${versionId} of product ${productId} not found.`);
    return row;
  }
  const rows = await db
    .select(columns)
    .from(productVersion)
    .where(eq(productVersion.productId, productId))
    .orderBy(desc(productVersion.number));
  const chosen = rows.find((r) => r.status === 'draft') ?? rows.find((r) => r.status === 'published');
  if (!chosen) throw notFound(`Product ${productId} has no version.`);
  return chosen;
}

export async function findScenario(db: Queryable, productId: number, scenarioId: number): Promise<ScenarioRow> {
  const [row] = await db
    .select()
    .from(scenario)
    .where(and(eq(scenario.id, scenarioId), eq(scenario.productId, productId)))
    .limit(1);
  if (!row) throw notFound(`Scenario ${scenarioId} not found.`);
  return row;
}

/**
 * A scenario about to be changed: like the version's definition, only a draft version's scenarios
 * can be edited (400 naming the version and its status otherwise). Rating is allowed on any version.
 */
export async function findEditableScenario(db: Queryable, productId: number, scenarioId: number) {
  const row = await findScenario(db, productId, scenarioId);
  await assertDraftVersion(db, row.productVersionId);
  return row;
}

export async function scenarioRisks(db: Queryable, scenarioId: number): Promise<ScenarioRiskRow[]> {
  return db
    .select()
    .from(scenarioRisk)
    .where(eq(scenarioRisk.scenarioId, scenarioId))
    .orderBy(asc(scenarioRisk.order), asc(scenarioRisk.id));
}

export async function findRisk(db: Queryable, scenarioId: number, riskId: number): Promise<ScenarioRiskRow> {
  const [row] = await db
    .select()
    .from(scenarioRisk)
    .where(and(eq(scenarioRisk.id, riskId), eq(scenarioRisk.scenarioId, scenarioId)))
    .limit(1);
  if (!row) throw notFound(`Risk ${riskId} not found in scenario ${scenarioId}.`);
  return row;
}

/** Depth of a risk in its tree (the root is 1). */
export function riskDepth(risks: ScenarioRiskRow[], riskId: number): number {
  const byId = new Map(risks.map((r) => [r.id, r]));
  let depth = 0;
  for (
    let r = byId.get(riskId);
    r && depth <= risks.length;
    r = r.parentRiskId ? byId.get(r.parentRiskId) : undefined
  ) {
    depth++;
  }
  return depth;
}

/** The ids of a risk and everything below it. */
export function subtreeIds(risks: ScenarioRiskRow[], riskId: number): number[] {
  const out = [riskId];
  for (let i = 0; i < out.length; i++) {
    for (const r of risks) if (r.parentRiskId === out[i]) out.push(r.id);
  }
  return out;
}

export function riskItems(row: ScenarioRiskRow): RiskItemState[] {
  return (row.riskState.items ?? []) as RiskItemState[];
}

function toNode(row: ScenarioRiskRow, childrenOf: Map<number | null, ScenarioRiskRow[]>): UnifiedRiskNode {
  return {
    id: row.id,
    type: { name: row.riskType },
    field_answers: row.riskState.field_answers ?? {},
    items: riskItems(row),
    children: (childrenOf.get(row.id) ?? []).map((child) => toNode(child, childrenOf)),
  };
}

/** The scenario's unified risk state: its root risk with the tree below it; null without risks. */
export function unifiedRiskState(risks: ScenarioRiskRow[]): UnifiedRiskNode | null {
  const childrenOf = new Map<number | null, ScenarioRiskRow[]>();
  for (const r of risks) {
    const list = childrenOf.get(r.parentRiskId) ?? [];
    list.push(r);
    childrenOf.set(r.parentRiskId, list);
  }
  const root = childrenOf.get(null)?.[0];
  return root ? toNode(root, childrenOf) : null;
}

export function riskOut(row: ScenarioRiskRow) {
  return {
    id: row.id,
    scenario: row.scenarioId,
    parent_risk: row.parentRiskId,
    risk_type: row.riskType,
    risk_state: {
      type: { name: row.riskType },
      field_answers: row.riskState.field_answers ?? {},
      items: riskItems(row),
    },
    order: row.order,
  };
}

/** The premium part of a stored rating, as the spec's quote shows it (premium: term, pro_rata). */
export interface StoredRating {
  premium: { term: string; pro_rata: string; fully_earned: string; return?: string };
  [key: string]: unknown;
}

export function scenarioOut(row: ScenarioRow, risks?: ScenarioRiskRow[]) {
  const last = row.lastRating as StoredRating | null;
  return {
    id: row.id,
    product: row.productId,
    product_version: row.productVersionId,
    name: row.name,
    transaction_type: row.transactionType,
    effective_date: row.effectiveDate,
    term_start: row.termStart,
    term_end: row.termEnd,
    expected_premium: row.expectedPremium,
    has_expected_worksheet: row.expectedWorksheet !== null,
    premium: last?.premium ?? null,
    last_rated_at: row.lastRatedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(risks ? { unified_risk_state: unifiedRiskState(risks) } : {}),
  };
}

export async function deleteRisks(db: Queryable, ids: number[]) {
  if (ids.length > 0) await db.delete(scenarioRisk).where(inArray(scenarioRisk.id, ids));
}
