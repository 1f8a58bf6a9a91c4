import { and, eq, sql } from 'drizzle-orm';
import {
  badRequest,
  fieldError,
  notFound,
  z,
  type AtriumRouter,
  type Database,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { ROUNDING_MODES } from '@atrium/rating';
import { calculationsOf, itemsOf, type ResolvedCalculation, type ResolvedDefinition } from '../catalog/resolve.js';
import { assertDraftVersion } from '../catalog/version-guard.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { toProductDefinition } from '../product-definition.js';
import { definitionOf, id, riskTypeIn, versionOf, versionQuery, withUniqueCheck } from '../rate-tables/route-scope.js';
import { calculation } from '../tables.js';
import {
  duplicateName,
  nameTaken as ownNameTaken,
  nextOrder,
  refuseDeleted,
  reorderOwnRows,
  restoreOwnRow,
  softDeleteOwnRow,
  type OwnRowKind,
  type OwnRowPlace,
} from '../rate-tables/own-row-writes.js';
import { assertCalculationCompiles, assertFormulaParses } from './formula-check.js';

/**
 * Calculations: ordered formulas of a risk type in a product version, optionally of one of its items.
 * Two paths behave alike: `products/{p}/risk-types/{t}/calculations/` and
 * `products/{p}/risk-types/{t}/risk-items/{i}/calculations/` (only that item's). list, create, get,
 * PUT/PATCH, DELETE (soft), `{c}/restore/`, `reorder/` with `{ order: [ids] }`.
 *
 * Every write parses the formula with the rating engine (a syntax error is a 400 naming line and
 * column, pointer `/calculation`) and compiles the product with the change inside the transaction:
 * an unknown name or a cycle through this calculation is a 400 and nothing is written.
 */
const tags = ['lines'];
const security = [{ bearer: [] }];
const P = LINES_PERMISSIONS.calculation;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const calcName = z
  .string()
  .trim()
  .min(1, 'A calculation needs a name.')
  .max(100)
  .regex(
    NAME,
    "A calculation name starts with a letter or '_' and holds only letters, digits and '_' (formulas read it by name).",
  );
const formula = z.string().trim().min(1, 'A calculation needs a formula.').max(20_000);
const writeFields = {
  label: z.string().trim().max(200).optional(),
  order: z.number().int().min(0).max(1_000_000).optional(),
  round_places: z.number().int().min(0).max(12).nullable().optional(),
  round_mode: z
    .enum(ROUNDING_MODES as unknown as ['half-up', 'half-even', 'down', 'up'])
    .nullable()
    .optional(),
  risk_item_id: id.nullable().optional(),
};
const createBody = z.strictObject({ name: calcName, calculation: formula, ...writeFields });
const updateBody = z.strictObject({
  name: calcName.optional(),
  calculation: formula.optional(),
  ...writeFields,
  id: z.number().optional(),
});
const listQuery = versionQuery.extend({ include_deleted: z.enum(['true', 'false']).optional() });

type Params = { product: number; riskType: number; item?: number; calc?: number };
interface Scope {
  base: string;
  params: z.ZodObject<z.ZodRawShape>;
}
const SCOPES: Scope[] = [
  {
    base: '/lines/products/:product/risk-types/:riskType/calculations/',
    params: z.strictObject({ product: id, riskType: id }),
  },
  {
    base: '/lines/products/:product/risk-types/:riskType/risk-items/:item/calculations/',
    params: z.strictObject({ product: id, riskType: id, item: id }),
  },
];

interface Located {
  versionId: number;
  definition: ResolvedDefinition;
  riskTypeName: string;
  riskTypeRowId: number;
  itemRowId: number | null;
}

async function locate(db: Queryable, params: Params, versionId?: number): Promise<Located> {
  const version = await versionOf(db, params.product, versionId);
  const definition = await definitionOf(db, version);
  const riskType = riskTypeIn(definition, params.riskType);
  let itemRowId: number | null = null;
  if (params.item !== undefined) itemRowId = itemOf(definition, riskType.row.name, params.item);
  return { versionId: version, definition, riskTypeName: riskType.row.name, riskTypeRowId: riskType.row.id, itemRowId };
}

function itemOf(definition: ResolvedDefinition, riskTypeName: string, itemId: number): number {
  const item = itemsOf(definition, riskTypeName).find((i) => i.row.id === itemId);
  if (!item) throw notFound(`Risk item ${itemId} not found in risk type '${riskTypeName}'.`);
  return item.row.id;
}

/** An item named in the body: a 400 pointing at `risk_item_id` when the risk type has no such item. */
function bodyItem(at: Located, itemId: number): number {
  try {
    return itemOf(at.definition, at.riskTypeName, itemId);
  } catch {
    throw fieldError('risk_item_id', `Risk item ${itemId} is not an item of risk type '${at.riskTypeName}'.`);
  }
}

type CalcRow = typeof calculation.$inferSelect;

function calcOut(row: CalcRow, definition: ResolvedDefinition, inheritanceStatus: string, productId: number) {
  const item = row.riskItemId === null ? null : definition.itemRowsById.get(row.riskItemId);
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    calculation: row.calculation,
    order: row.order,
    round_places: row.roundPlaces,
    round_mode: row.roundMode,
    riskItem: row.riskItemId,
    risk_item_id: row.riskItemId,
    risk_item: item?.name ?? null,
    risk_type_id: row.riskTypeId,
    product: productId,
    product_id: productId,
    product_version_id: row.productVersionId,
    inheritanceStatus,
    deleted_at: row.deletedAt ? row.deletedAt.toISOString() : null,
  };
}

function inScope(row: CalcRow, at: Located, definition: ResolvedDefinition): boolean {
  if (at.itemRowId === null) return true;
  if (row.riskItemId === at.itemRowId) return true;
  // An item overridden in this version: calculations of the ancestor's row of the same item belong too.
  const mine = definition.itemRowsById.get(at.itemRowId);
  const theirs = row.riskItemId === null ? undefined : definition.itemRowsById.get(row.riskItemId);
  return !!mine && !!theirs && mine.name.toLowerCase() === theirs.name.toLowerCase();
}

function listOut(at: Located, definition: ResolvedDefinition) {
  return calculationsOf(definition, at.riskTypeName)
    .filter((c: ResolvedCalculation) => inScope(c.row, at, definition))
    .map((c) => calcOut(c.row, definition, c.inheritanceStatus, c.productId));
}

/** A calculation the version sees (or one of its own deleted ones), in the path's scope. */
async function findCalc(db: Queryable, at: Located, calcId: number, own: boolean) {
  const live = calculationsOf(at.definition, at.riskTypeName).find((c) => c.row.id === calcId);
  let found: { row: CalcRow; inheritanceStatus: string; productId: number } | undefined = live;
  if (!found) {
    const [row] = await db.select().from(calculation).where(eq(calculation.id, calcId)).limit(1);
    const typeRow = row && at.definition.riskTypeRowsById.get(row.riskTypeId);
    if (
      row &&
      row.productVersionId === at.versionId &&
      row.deletedAt !== null &&
      typeRow?.name.toLowerCase() === at.riskTypeName.toLowerCase()
    ) {
      found = { row, inheritanceStatus: 'own', productId: at.definition.chain[0]!.productId };
    }
  }
  if (!found || !inScope(found.row, at, at.definition)) {
    throw notFound(`Calculation ${calcId} not found in risk type '${at.riskTypeName}'.`);
  }
  if (own && found.row.productVersionId !== at.versionId) {
    const owner = at.definition.chain.find((v) => v.id === found.row.productVersionId);
    throw badRequest(
      `Calculation '${found.row.name}' is inherited from ${owner?.productName ?? 'a parent product'}; change it there, or create a calculation named '${found.row.name}' in this version to override it.`,
      { code: 'inherited' },
    );
  }
  return found;
}

const kind: OwnRowKind = { table: calculation, noun: 'calculation', plural: 'calculations', of: 'this risk type' };
/** Names and order count per risk type. */
const placeOf = (at: Located): OwnRowPlace => ({ versionId: at.versionId, riskTypeRowId: at.riskTypeRowId });
const nameTaken = (db: Queryable, at: Located, name: string, exceptId?: number) =>
  ownNameTaken(db, kind, placeOf(at), name, exceptId);
const duplicate = (name: string) => duplicateName(kind, name);

/** Compiles the product as it is now inside the transaction and refuses problems of this calculation. */
async function assertCompiles(tx: Queryable, at: Located, name: string) {
  const definition = await definitionOf(tx, at.versionId, true);
  assertCalculationCompiles(toProductDefinition(definition), at.riskTypeName, name);
  return definition;
}

// Hand-written, not a resource declaration: calculations are children of a versioned product definition (inherited overrides, draft-only writes, soft delete, restore, reorder), not rows of one table.
export function registerCalculationRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  for (const scope of SCOPES) registerScope(router, context.db, scope);
}

function registerScope(router: AtriumRouter, db: Database, { base, params }: Scope) {
  const itemParams = params.extend({ calc: id });

  router.get(
    base,
    {
      config: { access: P.read },
      schema: {
        summary: 'Lists the calculations of a risk type in order.',
        tags,
        security,
        params,
        querystring: listQuery,
      },
    },
    async (request) => {
      const at = await locate(db, request.params as Params, request.query.version_id);
      const out = listOut(at, at.definition);
      if (request.query.include_deleted === 'true') {
        const deleted = await db
          .select()
          .from(calculation)
          .where(
            and(
              eq(calculation.productVersionId, at.versionId),
              eq(calculation.riskTypeId, at.riskTypeRowId),
              sql`${calculation.deletedAt} is not null`,
            ),
          );
        for (const row of deleted) {
          if (inScope(row, at, at.definition))
            out.push(calcOut(row, at.definition, 'own', at.definition.chain[0]!.productId));
        }
      }
      return out;
    },
  );

  router.post(
    base,
    {
      config: { access: P.create },
      schema: {
        summary: 'Creates a calculation; the formula is parsed and checked against the rating context.',
        tags,
        security,
        params,
        querystring: versionQuery,
        body: createBody,
      },
    },
    async (request, reply) => {
      const body = request.body;
      assertFormulaParses(body.calculation);
      const out = await db.transaction(async (tx) => {
        const at = await locate(tx, request.params as Params, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const itemId = at.itemRowId ?? (body.risk_item_id ? bodyItem(at, body.risk_item_id) : null);
        if (await nameTaken(tx, at, body.name)) throw duplicate(body.name);
        const order = body.order ?? (await nextOrder(tx, kind, placeOf(at)));
        const [row] = await withUniqueCheck(
          () =>
            tx
              .insert(calculation)
              .values({
                productVersionId: at.versionId,
                riskTypeId: at.riskTypeRowId,
                riskItemId: itemId,
                name: body.name,
                label: body.label ?? '',
                calculation: body.calculation,
                order,
                roundPlaces: body.round_places ?? null,
                roundMode:
                  body.round_places === null || body.round_places === undefined ? null : (body.round_mode ?? 'half-up'),
              })
              .returning(),
          () => duplicate(body.name),
        );
        const definition = await assertCompiles(tx, at, body.name);
        return calcOut(row!, definition, inheritanceOf(definition, at, row!.id), definition.chain[0]!.productId);
      });
      return reply.code(201).send(out);
    },
  );

  router.post(
    `${base}reorder/`,
    {
      config: { access: P.update },
      schema: {
        summary: "Sets the calculations' order: `order` lists calculation ids, first to last.",
        tags,
        security,
        params,
        querystring: versionQuery,
        body: z.strictObject({ order: z.array(id).min(1).max(10_000) }),
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const at = await locate(tx, request.params as Params, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        await reorderOwnRows(tx, kind, placeOf(at), request.body.order);
        const definition = await definitionOf(tx, at.versionId);
        return listOut(at, definition);
      }),
  );

  router.get(
    `${base}:calc/`,
    {
      config: { access: P.read },
      schema: { summary: 'Reads a calculation.', tags, security, params: itemParams, querystring: versionQuery },
    },
    async (request) => {
      const p = request.params as Params;
      const at = await locate(db, p, request.query.version_id);
      const found = await findCalc(db, at, p.calc!, false);
      return calcOut(found.row, at.definition, found.inheritanceStatus, found.productId);
    },
  );

  const update = (request: { params: Params; query: { version_id?: number }; body: z.infer<typeof updateBody> }) => {
    const body = request.body;
    if (body.calculation !== undefined) assertFormulaParses(body.calculation);
    return db.transaction(async (tx) => {
      const at = await locate(tx, request.params, request.query.version_id);
      await assertDraftVersion(tx, at.versionId);
      const found = await findCalc(tx, at, request.params.calc!, true);
      refuseDeleted(kind, found.row);
      const name = body.name ?? found.row.name;
      if (name.toLowerCase() !== found.row.name.toLowerCase() && (await nameTaken(tx, at, name, found.row.id)))
        throw duplicate(name);
      let itemId = found.row.riskItemId;
      if (body.risk_item_id !== undefined && at.itemRowId === null) {
        itemId = body.risk_item_id === null ? null : bodyItem(at, body.risk_item_id);
      }
      const roundPlaces = body.round_places === undefined ? found.row.roundPlaces : body.round_places;
      const roundMode =
        roundPlaces === null
          ? null
          : body.round_mode === undefined
            ? (found.row.roundMode ?? 'half-up')
            : (body.round_mode ?? 'half-up');
      await withUniqueCheck(
        () =>
          tx
            .update(calculation)
            .set({
              name,
              label: body.label ?? found.row.label,
              calculation: body.calculation ?? found.row.calculation,
              order: body.order ?? found.row.order,
              riskItemId: itemId,
              roundPlaces,
              roundMode,
              updatedAt: new Date(),
            })
            .where(eq(calculation.id, found.row.id)),
        () => duplicate(name),
      );
      const definition = await assertCompiles(tx, at, name);
      const [row] = await tx.select().from(calculation).where(eq(calculation.id, found.row.id));
      return calcOut(row!, definition, inheritanceOf(definition, at, row!.id), definition.chain[0]!.productId);
    });
  };

  for (const method of ['PUT', 'PATCH'] as const) {
    router.route({
      method,
      url: `${base}:calc/`,
      config: { access: P.update },
      schema: {
        summary: 'Changes a calculation; the formula is parsed and checked again.',
        tags,
        security,
        params: itemParams,
        querystring: versionQuery,
        body: updateBody,
      },
      handler: (request) => update(request as unknown as Parameters<typeof update>[0]),
    });
  }

  router.delete(
    `${base}:calc/`,
    {
      config: { access: P.delete },
      schema: {
        summary: 'Deletes a calculation (it can be restored).',
        tags,
        security,
        params: itemParams,
        querystring: versionQuery,
      },
    },
    async (request, reply) => {
      await db.transaction(async (tx) => {
        const p = request.params as Params;
        const at = await locate(tx, p, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const found = await findCalc(tx, at, p.calc!, true);
        await softDeleteOwnRow(tx, kind, found.row);
      });
      return reply.code(204).send();
    },
  );

  router.post(
    `${base}:calc/restore/`,
    {
      config: { access: P.update },
      schema: {
        summary: 'Restores a deleted calculation.',
        tags,
        security,
        params: itemParams,
        querystring: versionQuery,
      },
    },
    async (request) =>
      db.transaction(async (tx) => {
        const p = request.params as Params;
        const at = await locate(tx, p, request.query.version_id);
        await assertDraftVersion(tx, at.versionId);
        const found = await findCalc(tx, at, p.calc!, true);
        await restoreOwnRow(tx, kind, placeOf(at), found.row);
        const definition = await assertCompiles(tx, at, found.row.name);
        const [row] = await tx.select().from(calculation).where(eq(calculation.id, found.row.id));
        return calcOut(row!, definition, inheritanceOf(definition, at, row!.id), definition.chain[0]!.productId);
      }),
  );
}

function inheritanceOf(definition: ResolvedDefinition, at: Located, calcId: number): string {
  return calculationsOf(definition, at.riskTypeName).find((c) => c.row.id === calcId)?.inheritanceStatus ?? 'own';
}
