import { and, eq, sql } from 'drizzle-orm';
import {
  badRequest,
  fieldError,
  notFound,
  z,
  type AtriumRouter,
  type Queryable,
  type ServerPluginContext,
} from '@atrium/sdk/server';
import { ROUNDING_MODES } from '@atrium/rating';
import { calculationsOf, itemsOf, type ResolvedCalculation, type ResolvedDefinition } from '../catalog/resolve.js';
import { LINES_PERMISSIONS } from '../permissions.js';
import { toProductDefinition } from '../product-definition.js';
import { registerOwnRowRoutes, type OwnRowRoutes } from '../rate-tables/own-row-routes.js';
import { definitionOf, id, riskTypeIn, versionOf, withUniqueCheck } from '../rate-tables/route-scope.js';
import { calculation } from '../tables.js';
import {
  duplicateName,
  insertOwnRow,
  nameTaken as ownNameTaken,
  ownRowName,
  type OwnRowKind,
  type OwnRowPlace,
} from '../rate-tables/own-row-writes.js';
import { assertCalculationCompiles, assertFormulaParses } from './formula-check.js';

/**
 * Calculations: ordered formulas of a risk type in a product version, optionally of one of its items.
 * Two paths behave alike: `products/{p}/risk-types/{t}/calculations/` and
 * `products/{p}/risk-types/{t}/risk-items/{i}/calculations/` (only that item's). list, create, get,
 * PUT/PATCH, DELETE (soft), `{c}/restore/`, `reorder/` with `{ order: [ids] }` — the child routes rate
 * tables have too (rate-tables/own-row-routes.ts); this file says what a calculation is.
 *
 * Every write parses the formula with the rating engine (a syntax error is a 400 naming line and
 * column, pointer `/calculation`) and compiles the product with the change inside the transaction:
 * an unknown name or a cycle through this calculation is a 400 and nothing is written.
 */
const P = LINES_PERMISSIONS.calculation;

const calcName = ownRowName('calculation', 'read');
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
interface FoundCalc {
  row: CalcRow;
  inheritanceStatus: string;
  productId: number;
}

async function findCalc(db: Queryable, at: Located, calcId: number, own: boolean): Promise<FoundCalc> {
  const live = calculationsOf(at.definition, at.riskTypeName).find((c) => c.row.id === calcId);
  let found: FoundCalc | undefined = live;
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

/** Calculations' part of the child routes both kinds share (rate-tables/own-row-routes.ts). */
function routesOf(scope: Scope): OwnRowRoutes<Located, FoundCalc> {
  const out = (found: FoundCalc, definition: ResolvedDefinition) =>
    calcOut(found.row, definition, found.inheritanceStatus, found.productId);
  /** The row as written, checked by compiling the product with it. */
  const written = async (tx: Queryable, at: Located, rowId: number, name: string) => {
    const definition = await assertCompiles(tx, at, name);
    const [row] = await tx.select().from(calculation).where(eq(calculation.id, rowId));
    return calcOut(row!, definition, inheritanceOf(definition, at, row!.id), definition.chain[0]!.productId);
  };
  return {
    kind,
    permissions: P,
    base: scope.base,
    params: scope.params,
    idParam: 'calc',
    summaries: {
      list: 'Lists the calculations of a risk type in order.',
      create: 'Creates a calculation; the formula is parsed and checked against the rating context.',
      reorder: "Sets the calculations' order: `order` lists calculation ids, first to last.",
      find: 'Reads a calculation.',
      update: {
        PUT: 'Changes a calculation; the formula is parsed and checked again.',
        PATCH: 'Changes a calculation; the formula is parsed and checked again.',
      },
      delete: 'Deletes a calculation (it can be restored).',
      restore: 'Restores a deleted calculation.',
    },
    createBody,
    updateBody,
    precheck: (body) => {
      if (body.calculation !== undefined) assertFormulaParses(body.calculation as string);
    },
    locate: (db, params, versionId) => locate(db, params as Params, versionId),
    placeOf,
    find: findCalc,
    async list(db, at, includeDeleted) {
      const out = listOut(at, at.definition);
      if (includeDeleted) {
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
    reordered: async (tx, at) => listOut(at, await definitionOf(tx, at.versionId)),
    show: (_db, at, found) => out(found, at.definition),
    async create(tx, at, b) {
      const body = b as z.infer<typeof createBody>;
      const itemId = at.itemRowId ?? (body.risk_item_id ? bodyItem(at, body.risk_item_id) : null);
      const [row] = await insertOwnRow(tx, kind, placeOf(at), body, (order) =>
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
      );
      const definition = await assertCompiles(tx, at, body.name);
      return calcOut(row!, definition, inheritanceOf(definition, at, row!.id), definition.chain[0]!.productId);
    },
    async update(tx, at, found, b) {
      const body = b as z.infer<typeof updateBody>;
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
      return written(tx, at, found.row.id, name);
    },
    restored: (tx, at, found) => written(tx, at, found.row.id, found.row.name),
  };
}

// Hand-written, not a resource declaration: calculations are children of a versioned product definition (inherited overrides, draft-only writes, soft delete, restore, reorder), not rows of one table.
export function registerCalculationRoutes(router: AtriumRouter, context: ServerPluginContext): void {
  for (const scope of SCOPES) registerOwnRowRoutes(router, context.db, routesOf(scope));
}

function inheritanceOf(definition: ResolvedDefinition, at: Located, calcId: number): string {
  return calculationsOf(definition, at.riskTypeName).find((c) => c.row.id === calcId)?.inheritanceStatus ?? 'own';
}
