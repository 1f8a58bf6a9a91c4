import { and, count, eq, isNull } from 'drizzle-orm';
import { worksheetRisks } from '@atrium/rating';
import { badRequest, notFound, z, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import { fieldsOf, itemsOf, resolveDefinition, type ResolvedDefinition } from '../catalog/resolve.js';
import { defaultItems, newItem } from './risk-defaults.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { productNameToId } from './product-ref.js';
import { scenarioRisk } from '../tables.js';
import { checkAnswer, type AnswerField } from './answer-check.js';
import { riskStateInput, type RiskItemState, MAX_SCENARIO_RISK_DEPTH } from './risk-state.js';
import { rateAndStore } from './scenario-rating.js';
import {
  addItemBody,
  createRiskBody,
  fieldParams,
  itemParams,
  riskParams,
  scenarioParams,
  validateAnswerBody,
} from './scenario-schemas.js';
import {
  findEditableScenario,
  findRisk,
  findScenario,
  riskDepth,
  riskItems,
  riskOut,
  scenarioRisks,
  type ScenarioRiskRow,
} from './scenario-store.js';

/**
 * The risks of a scenario: risks/ (POST parent_risk and risk_type; GET), risks/{r}/ (GET, PUT
 * risk_state, DELETE with its children), risks/{r}/items/ (POST item_name, DELETE items/{name}/),
 * risks/{r}/rate/ and risks/{r}/fields/{f}/validate-answer/. Risk types, fields and items are
 * checked against the scenario's product version (inheritance resolved).
 */
const tags = ['lines: scenarios'];
const security = [{ bearer: [] }];
const RISKS = '/lines/products/:productId/scenarios/:scenarioId/risks/';
const RISK = `${RISKS}:riskId/`;
const P = LINES_PERMISSIONS.scenario;

const lower = (s: string) => s.toLowerCase();

function riskTypeOf(definition: ResolvedDefinition, name: string) {
  return definition.riskTypes.find((t) => lower(t.row.name) === lower(name));
}

function answerFields(definition: ResolvedDefinition, riskType: string): Map<string, AnswerField> {
  return new Map(
    fieldsOf(definition, riskType).map(({ row }) => [
      lower(row.name),
      { name: row.name, label: row.label, type: row.type, options: row.options?.map((o) => o.value) ?? null },
    ]),
  );
}

const putRiskBody = z.strictObject({
  risk_state: riskStateInput,
  // Read-only members a client may send back unchanged.
  id: z.number().optional(),
  scenario: z.number().optional(),
  parent_risk: z.number().nullable().optional(),
  risk_type: z.string().optional(),
  order: z.number().optional(),
});

async function definitionOf(db: Queryable, versionId: number) {
  return resolveDefinition(db, versionId, { rateRows: false });
}

// Hand-written, not a resource declaration: a scenario's risks are a tree checked against the version's risk types, fields and items (deleted with their children), not rows of one table.
export function riskRoutes(router: AtriumRouter, db: Database) {
  const byName = productNameToId(db);
  router.post(
    RISKS,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: 'Adds a risk under parent_risk (null: the root); the risk type must sit under the parent type.',
        tags,
        security,
        params: scenarioParams,
        body: createRiskBody,
      },
    },
    async (request, reply) => {
      const { productId, scenarioId } = request.params;
      const body = request.body;
      const created = await db.transaction(async (tx) => {
        const row = await findEditableScenario(tx, productId, scenarioId);
        const definition = await definitionOf(tx, row.productVersionId);
        const type = riskTypeOf(definition, body.risk_type);
        if (!type) {
          throw badRequest(`Risk type '${body.risk_type}' is not part of this product version.`, {
            source: { pointer: '/risk_type' },
          });
        }
        const risks = await scenarioRisks(tx, row.id);
        if (body.parent_risk === null) {
          if (type.depth !== 1) {
            throw badRequest(`'${type.row.name}' is not a root risk type; name its parent_risk.`, {
              source: { pointer: '/parent_risk' },
            });
          }
          if (risks.some((r) => r.parentRiskId === null)) {
            throw badRequest('The scenario already has a root risk.', { source: { pointer: '/parent_risk' } });
          }
        } else {
          const parent = risks.find((r) => r.id === body.parent_risk);
          if (!parent) {
            throw badRequest(`Risk ${body.parent_risk} is not a risk of this scenario.`, {
              source: { pointer: '/parent_risk' },
            });
          }
          if (!type.parentName || lower(type.parentName) !== lower(parent.riskType)) {
            throw badRequest(
              `A '${type.row.name}' risk cannot sit under a '${parent.riskType}' risk` +
                (type.parentName ? `; its parent risk type is '${type.parentName}'.` : '; it is a root risk type.'),
              { source: { pointer: '/risk_type' } },
            );
          }
          if (riskDepth(risks, parent.id) + 1 > MAX_SCENARIO_RISK_DEPTH) {
            throw badRequest(`Risks nest at most ${MAX_SCENARIO_RISK_DEPTH} levels deep.`, {
              source: { pointer: '/parent_risk' },
            });
          }
        }
        // Items that are required or on by default start on the risk, with their default limits.
        const items = defaultItems(definition, type.row.name);
        const [siblings] = await tx
          .select({ n: count() })
          .from(scenarioRisk)
          .where(
            and(
              eq(scenarioRisk.scenarioId, row.id),
              body.parent_risk === null
                ? isNull(scenarioRisk.parentRiskId)
                : eq(scenarioRisk.parentRiskId, body.parent_risk),
            ),
          );
        const [inserted] = await tx
          .insert(scenarioRisk)
          .values({
            scenarioId: row.id,
            parentRiskId: body.parent_risk,
            riskType: type.row.name,
            riskState: { type: { name: type.row.name }, field_answers: {}, items },
            order: siblings?.n ?? 0,
          })
          .returning();
        return inserted!;
      });
      reply.code(201);
      return riskOut(created);
    },
  );

  router.get(
    RISKS,
    {
      config: { access: P.read },
      preValidation: byName,
      schema: {
        summary: 'The risks of a scenario (flat; parent_risk links them).',
        tags,
        security,
        params: scenarioParams,
      },
    },
    async (request) => {
      const row = await findScenario(db, request.params.productId, request.params.scenarioId);
      return (await scenarioRisks(db, row.id)).map(riskOut);
    },
  );

  router.get(
    RISK,
    {
      config: { access: P.read },
      preValidation: byName,
      schema: { summary: 'One risk with its risk_state.', tags, security, params: riskParams },
    },
    async (request) => {
      const { productId, scenarioId, riskId } = request.params;
      await findScenario(db, productId, scenarioId);
      return riskOut(await findRisk(db, scenarioId, riskId));
    },
  );

  router.put(
    RISK,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: "Replaces a risk's state: field_answers (checked by field type and options) and items.",
        tags,
        security,
        params: riskParams,
        body: putRiskBody,
      },
    },
    async (request) => {
      const { productId, scenarioId, riskId } = request.params;
      const state = request.body.risk_state;
      const updated = await db.transaction(async (tx) => {
        const row = await findEditableScenario(tx, productId, scenarioId);
        const risk = await findRisk(tx, scenarioId, riskId);
        if (state.type && lower(state.type.name) !== lower(risk.riskType)) {
          throw badRequest(`The risk is a '${risk.riskType}'; its type cannot change to '${state.type.name}'.`, {
            source: { pointer: '/risk_state/type/name' },
          });
        }
        const definition = await definitionOf(tx, row.productVersionId);
        const fields = answerFields(definition, risk.riskType);
        const answers: Record<string, string | number | boolean | null> = {};
        for (const [name, answer] of Object.entries(state.field_answers)) {
          const field = fields.get(lower(name));
          const pointer = `/risk_state/field_answers/${name}`;
          if (!field) throw badRequest(`Risk type '${risk.riskType}' has no field '${name}'.`, { source: { pointer } });
          const checked = checkAnswer(field, answer);
          if (!checked.valid) throw badRequest(checked.message, { source: { pointer }, code: 'invalid_answer' });
          answers[field.name] = checked.value;
        }
        const known = new Map(itemsOf(definition, risk.riskType).map(({ row: i }) => [lower(i.name), i.name]));
        const items = state.items.map((item, index) => {
          const name = known.get(lower(item.name));
          if (!name) {
            throw badRequest(`Risk type '${risk.riskType}' has no item '${item.name}'.`, {
              source: { pointer: `/risk_state/items/${index}/name` },
            });
          }
          return { ...item, name };
        });
        const [changed] = await tx
          .update(scenarioRisk)
          .set({ riskState: { type: { name: risk.riskType }, field_answers: answers, items }, updatedAt: new Date() })
          .where(eq(scenarioRisk.id, risk.id))
          .returning();
        return changed!;
      });
      return riskOut(updated);
    },
  );

  router.delete(
    RISK,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: { summary: 'Deletes a risk with the risks below it.', tags, security, params: riskParams },
    },
    async (request, reply) => {
      const { productId, scenarioId, riskId } = request.params;
      await findEditableScenario(db, productId, scenarioId);
      const risk = await findRisk(db, scenarioId, riskId);
      // parent_risk_id cascades: the risks below go with it.
      await db.delete(scenarioRisk).where(eq(scenarioRisk.id, risk.id));
      reply.code(204);
    },
  );

  router.post(
    `${RISK}items/`,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: {
        summary: 'Adds an item of the risk type to the risk, with its default limits and deductibles.',
        tags,
        security,
        params: riskParams,
        body: addItemBody,
      },
    },
    async (request, reply) => {
      const { productId, scenarioId, riskId } = request.params;
      const updated = await db.transaction(async (tx) => {
        const row = await findEditableScenario(tx, productId, scenarioId);
        const risk = await findRisk(tx, scenarioId, riskId);
        const definition = await definitionOf(tx, row.productVersionId);
        const item = itemsOf(definition, risk.riskType).find(
          ({ row: i }) => lower(i.name) === lower(request.body.item_name),
        );
        if (!item) {
          throw badRequest(`Risk type '${risk.riskType}' has no item '${request.body.item_name}'.`, {
            source: { pointer: '/item_name' },
          });
        }
        const items = riskItems(risk);
        if (items.some((i) => lower(i.name) === lower(item.row.name))) {
          throw badRequest(`The risk already has the item '${item.row.name}'.`, { source: { pointer: '/item_name' } });
        }
        return saveItems(tx, risk, [...items, newItem(definition, risk.riskType, item.row.name)]);
      });
      reply.code(201);
      return riskOut(updated);
    },
  );

  router.delete(
    `${RISK}items/:itemName/`,
    {
      config: { access: P.update },
      preValidation: byName,
      schema: { summary: 'Removes an item (by name) from the risk.', tags, security, params: itemParams },
    },
    async (request) => {
      const { productId, scenarioId, riskId, itemName } = request.params;
      const updated = await db.transaction(async (tx) => {
        await findEditableScenario(tx, productId, scenarioId);
        const risk = await findRisk(tx, scenarioId, riskId);
        const items = riskItems(risk);
        const kept = items.filter((i) => lower(i.name) !== lower(itemName));
        if (kept.length === items.length) throw notFound(`Risk ${riskId} has no item '${itemName}'.`);
        return saveItems(tx, risk, kept);
      });
      return riskOut(updated);
    },
  );

  router.post(
    `${RISK}rate/`,
    {
      config: { access: P.rate },
      preValidation: byName,
      schema: {
        summary: "Rates the scenario and answers this risk's part of the worksheet (with the scenario premium).",
        tags,
        security,
        params: riskParams,
      },
    },
    async (request) => {
      const { productId, scenarioId, riskId } = request.params;
      const row = await findScenario(db, productId, scenarioId);
      const risk = await findRisk(db, scenarioId, riskId);
      const { result, out } = await rateAndStore(db, row);
      const sheet = [...worksheetRisks(result.worksheet.root)].find(
        (r) => r.id === String(risk.id) && r.type === risk.riskType,
      );
      return {
        scenario: row.id,
        risk: risk.id,
        risk_premium: sheet?.premium ?? null,
        premium: out.premium,
        term: out.term,
        worksheet: sheet ?? null,
        rated_at: out.rated_at,
      };
    },
  );

  router.post(
    `${RISK}fields/:fieldName/validate-answer/`,
    {
      config: { access: P.read },
      preValidation: byName,
      schema: {
        summary: "Checks an answer against the field's type and options: { valid, message, value }.",
        tags,
        security,
        params: fieldParams,
        body: validateAnswerBody,
      },
    },
    async (request) => {
      const { productId, scenarioId, riskId, fieldName } = request.params;
      const row = await findScenario(db, productId, scenarioId);
      const risk = await findRisk(db, scenarioId, riskId);
      const field = answerFields(await definitionOf(db, row.productVersionId), risk.riskType).get(lower(fieldName));
      if (!field) throw notFound(`Risk type '${risk.riskType}' has no field '${fieldName}'.`);
      const checked = checkAnswer(field, request.body.answer);
      return checked.valid
        ? { valid: true, message: null, value: checked.value }
        : { valid: false, message: checked.message, value: null };
    },
  );
}

async function saveItems(db: Queryable, risk: ScenarioRiskRow, items: RiskItemState[]) {
  const [changed] = await db
    .update(scenarioRisk)
    .set({ riskState: { ...risk.riskState, type: { name: risk.riskType }, items }, updatedAt: new Date() })
    .where(eq(scenarioRisk.id, risk.id))
    .returning();
  return changed!;
}
