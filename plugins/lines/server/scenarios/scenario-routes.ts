import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { Decimal } from '@atrium/rating';
import { badRequest, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import { resolveDefinition } from '../catalog/resolve.js';
import { assertDraftVersion } from '../catalog/version-guard.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { productNameToId } from './product-ref.js';
import { scenario, scenarioRisk } from '../tables.js';
import { defaultItems } from './risk-defaults.js';
import { rateAndStore } from './scenario-rating.js';
import {
  copyScenarioBody,
  createScenarioBody,
  productParams,
  scenarioParams,
  updateScenarioBody,
  versionQuery,
} from './scenario-schemas.js';
import {
  findEditableScenario,
  findProduct,
  findScenario,
  resolveVersion,
  scenarioOut,
  scenarioRisks,
  type ScenarioRow,
} from './scenario-store.js';

/**
 * Scenarios under /api/lines/products/{p}/scenarios/: CRUD, copy, reset, rate, and recording the
 * current rating as the scenario's known answer. A scenario belongs to one product version
 * (`version_id`, else the product's draft, else its newest published version).
 */
const tags = ['lines: scenarios'];
const security = [{ bearer: [] }];
const BASE = '/lines/products/:productId/scenarios/';
const ONE = `${BASE}:scenarioId/`;
const P = LINES_PERMISSIONS.scenario;

async function uniqueName(db: Queryable, versionId: number, name: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: scenario.id })
    .from(scenario)
    .where(
      and(
        eq(scenario.productVersionId, versionId),
        sql`lower(${scenario.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(scenario.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) {
    throw badRequest(`A scenario named '${name}' already exists in this version.`, { source: { pointer: '/name' } });
  }
}

/** Adds the root risk (of the version's root risk type, with its default items) to an empty scenario. */
async function addRootRisk(db: Queryable, row: ScenarioRow) {
  const definition = await resolveDefinition(db, row.productVersionId, { rateRows: false });
  const root = definition.riskTypes.find((t) => t.depth === 1)?.row.name;
  if (!root) return;
  await db.insert(scenarioRisk).values({
    scenarioId: row.id,
    parentRiskId: null,
    riskType: root,
    riskState: { type: { name: root }, field_answers: {}, items: defaultItems(definition, root) },
  });
}

function checkTerm(values: { effective_date?: string; term_start?: string | null; term_end?: string | null }) {
  const { effective_date: effective, term_start: start, term_end: end } = values;
  if (start && end && end <= start) {
    throw badRequest(`term_end ${end} must be after term_start ${start}.`, { source: { pointer: '/term_end' } });
  }
  if (effective && start && effective < start) {
    throw badRequest(`effective_date ${effective} is before term_start ${start}.`, {
      source: { pointer: '/effective_date' },
    });
  }
  if (effective && end && effective > end) {
    throw badRequest(`effective_date ${effective} is after term_end ${end}.`, {
      source: { pointer: '/effective_date' },
    });
  }
}

// Hand-written, not a resource declaration: a scenario is made with its root risk in a chosen version, answered with its unified risk state, and copied, reset and rated.
export function scenarioRoutes(router: AtriumRouter, db: Database) {
  const byName = productNameToId(db);
  router.post(
    BASE,
    {
      config: { access: P.create },
      preValidation: byName,
      schema: {
        summary: 'Creates a scenario (with the root risk of the version) in version_id, else the draft.',
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
        body: createScenarioBody,
      },
    },
    async (request, reply) => {
      const { productId } = request.params;
      const body = request.body;
      checkTerm(body);
      const version = await resolveVersion(db, productId, request.query.version_id);
      await assertDraftVersion(db, version.id);
      const created = await db.transaction(async (tx) => {
        await uniqueName(tx, version.id, body.name);
        const [row] = await tx
          .insert(scenario)
          .values({
            productId,
            productVersionId: version.id,
            name: body.name,
            transactionType: body.transaction_type,
            effectiveDate: body.effective_date,
            termStart: body.term_start ?? null,
            termEnd: body.term_end ?? null,
            expectedPremium: body.expected_premium ?? null,
          })
          .returning();
        await addRootRisk(tx, row!);
        return row!;
      });
      reply.code(201);
      return scenarioOut(created, await scenarioRisks(db, created.id));
    },
  );

  router.get(
    BASE,
    {
      config: { access: P.read },
      preValidation: byName,
      schema: {
        summary: 'Lists the scenarios of a product (of version_id when given).',
        tags,
        security,
        params: productParams,
        querystring: versionQuery,
      },
    },
    async (request) => {
      const { productId } = request.params;
      const versionId = request.query.version_id;
      if (versionId !== undefined) await resolveVersion(db, productId, versionId);
      else await findProduct(db, productId);
      const rows = await db
        .select()
        .from(scenario)
        .where(
          and(
            eq(scenario.productId, productId),
            versionId === undefined ? undefined : eq(scenario.productVersionId, versionId),
          ),
        )
        .orderBy(asc(scenario.name), asc(scenario.id));
      return rows.map((row) => scenarioOut(row));
    },
  );

  router.get(
    ONE,
    {
      config: { access: P.read },
      preValidation: byName,
      schema: { summary: 'A scenario with its unified risk state.', tags, security, params: scenarioParams },
    },
    async (request) => {
      const row = await findScenario(db, request.params.productId, request.params.scenarioId);
      return scenarioOut(row, await scenarioRisks(db, row.id));
    },
  );

  router.put(
    ONE,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: 'Changes a scenario; expected_premium makes it a known-answer case.',
        description:
          'When expected_premium is set the scenario is rated: if the rating gives that premium, its worksheet is ' +
          'recorded with the expectation so that a later difference is shown factor by factor.',
        tags,
        security,
        params: scenarioParams,
        body: updateScenarioBody,
      },
    },
    async (request) => {
      const { productId, scenarioId } = request.params;
      const body = request.body;
      const updated = await db.transaction(async (tx) => {
        const row = await findEditableScenario(tx, productId, scenarioId);
        const next = {
          effective_date: body.effective_date ?? row.effectiveDate,
          term_start: body.term_start === undefined ? row.termStart : body.term_start,
          term_end: body.term_end === undefined ? row.termEnd : body.term_end,
        };
        checkTerm(next);
        if (body.name !== undefined) await uniqueName(tx, row.productVersionId, body.name, row.id);
        const [changed] = await tx
          .update(scenario)
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.transaction_type !== undefined ? { transactionType: body.transaction_type } : {}),
            effectiveDate: next.effective_date,
            termStart: next.term_start,
            termEnd: next.term_end,
            ...(body.expected_premium !== undefined
              ? { expectedPremium: body.expected_premium, expectedWorksheet: null }
              : {}),
            updatedAt: new Date(),
          })
          .where(eq(scenario.id, row.id))
          .returning();
        return changed!;
      });
      if (body.expected_premium) {
        // Record the worksheet that gives the expected premium, when today's rating gives it.
        const rated = await rateAndStore(db, updated).catch(() => null);
        if (rated && sameAmount(rated.result.premium, body.expected_premium)) {
          await db
            .update(scenario)
            .set({ expectedWorksheet: rated.result.worksheet as unknown as Record<string, unknown> })
            .where(eq(scenario.id, updated.id));
        }
      }
      const row = await findScenario(db, productId, scenarioId);
      return scenarioOut(row, await scenarioRisks(db, row.id));
    },
  );

  router.delete(
    ONE,
    {
      config: { access: P.delete },
      preValidation: byName,
      schema: { summary: 'Deletes a scenario with its risks.', tags, security, params: scenarioParams },
    },
    async (request, reply) => {
      const row = await findEditableScenario(db, request.params.productId, request.params.scenarioId);
      await db.delete(scenario).where(eq(scenario.id, row.id));
      reply.code(204);
    },
  );

  router.post(
    `${ONE}copy/`,
    {
      config: { access: P.create },
      preValidation: byName,
      schema: {
        summary: "Copies a scenario with its risks ('Copy of <name>' unless a name is given).",
        tags,
        security,
        params: scenarioParams,
        body: copyScenarioBody,
      },
    },
    async (request, reply) => {
      const { productId, scenarioId } = request.params;
      const copy = await db.transaction(async (tx) => {
        const source = await findEditableScenario(tx, productId, scenarioId);
        const name = request.body?.name ?? (await freeCopyName(tx, source));
        await uniqueName(tx, source.productVersionId, name);
        const [row] = await tx
          .insert(scenario)
          .values({
            productId,
            productVersionId: source.productVersionId,
            name,
            transactionType: source.transactionType,
            effectiveDate: source.effectiveDate,
            termStart: source.termStart,
            termEnd: source.termEnd,
            expectedPremium: source.expectedPremium,
            expectedWorksheet: source.expectedWorksheet,
          })
          .returning();
        // Parents are copied before their children, so each child's parent maps to its copy.
        const risks = await scenarioRisks(tx, source.id);
        const newId = new Map<number, number>();
        for (const risk of orderParentsFirst(risks)) {
          const [inserted] = await tx
            .insert(scenarioRisk)
            .values({
              scenarioId: row!.id,
              parentRiskId: risk.parentRiskId === null ? null : newId.get(risk.parentRiskId)!,
              riskType: risk.riskType,
              riskState: risk.riskState,
              order: risk.order,
            })
            .returning({ id: scenarioRisk.id });
          newId.set(risk.id, inserted!.id);
        }
        return row!;
      });
      reply.code(201);
      return scenarioOut(copy, await scenarioRisks(db, copy.id));
    },
  );

  router.post(
    `${ONE}reset/`,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: 'Clears the risks, answers and last rating of a scenario; the root risk is added again.',
        tags,
        security,
        params: scenarioParams,
      },
    },
    async (request) => {
      const { productId, scenarioId } = request.params;
      await db.transaction(async (tx) => {
        const row = await findEditableScenario(tx, productId, scenarioId);
        await tx.delete(scenarioRisk).where(eq(scenarioRisk.scenarioId, row.id));
        await tx
          .update(scenario)
          .set({ lastRating: null, lastRatedAt: null, updatedAt: new Date() })
          .where(eq(scenario.id, row.id));
        await addRootRisk(tx, row);
      });
      const row = await findScenario(db, productId, scenarioId);
      return scenarioOut(row, await scenarioRisks(db, row.id));
    },
  );

  router.post(
    `${ONE}rate/`,
    {
      config: { access: P.rate },
      preValidation: byName,
      schema: {
        summary: 'Rates a scenario: the premium (term, pro_rata) and the worksheet explaining it.',
        description: 'Rating errors (missing answers, no rate row, formula errors) are 400 with the engine message.',
        tags,
        security,
        params: scenarioParams,
      },
    },
    async (request) => {
      const row = await findScenario(db, request.params.productId, request.params.scenarioId);
      const { out } = await rateAndStore(db, row);
      return { scenario: row.id, ...out };
    },
  );

  router.post(
    `${ONE}known-answer/`,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: "Records the scenario's current rating (premium and worksheet) as its known answer.",
        tags,
        security,
        params: scenarioParams,
      },
    },
    async (request) => {
      const row = await findEditableScenario(db, request.params.productId, request.params.scenarioId);
      const { result } = await rateAndStore(db, row);
      await db
        .update(scenario)
        .set({
          expectedPremium: result.premium,
          expectedWorksheet: result.worksheet as unknown as Record<string, unknown>,
          updatedAt: new Date(),
        })
        .where(eq(scenario.id, row.id));
      const updated = await findScenario(db, row.productId, row.id);
      return scenarioOut(updated, await scenarioRisks(db, row.id));
    },
  );
}

const sameAmount = (a: string, b: string) => new Decimal(a).equals(new Decimal(b));

async function freeCopyName(db: Queryable, source: ScenarioRow): Promise<string> {
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? `Copy of ${source.name}` : `Copy ${n} of ${source.name}`;
    const [taken] = await db
      .select({ id: scenario.id })
      .from(scenario)
      .where(and(eq(scenario.productVersionId, source.productVersionId), sql`lower(${scenario.name}) = lower(${name})`))
      .limit(1);
    if (!taken) return name;
  }
  throw badRequest(`Too many copies of '${source.name}'; name the copy.`);
}

/** Risks ordered so that every parent comes before its children. */
function orderParentsFirst<T extends { id: number; parentRiskId: number | null }>(risks: T[]): T[] {
  const out: T[] = [];
  const placed = new Set<number>();
  let pending = risks;
  while (pending.length > 0) {
    const next = pending.filter((r) => r.parentRiskId !== null && !placed.has(r.parentRiskId));
    const ready = pending.filter((r) => r.parentRiskId === null || placed.has(r.parentRiskId));
    if (ready.length === 0) break; // orphans cannot exist (foreign key); stop rather than loop
    for (const r of ready) {
      out.push(r);
      placed.add(r.id);
    }
    pending = next;
  }
  return out;
}
