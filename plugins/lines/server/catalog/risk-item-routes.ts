import { Decimal } from '@atrium/rating';
import { and, eq, isNull } from 'drizzle-orm';
import { badRequest, fieldError, notFound, z, type AtriumRouter, type Database } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { itemLimit, ITEM_PRESENCES, ITEM_TYPES, LIMIT_KINDS, riskItem } from '../tables.js';
import {
  chainIndex,
  findItem,
  itemOut,
  itemParams,
  limitOut,
  riskTypeScope,
  type RiskTypeScope,
} from './definition-scope.js';
import { definitionRowRoutes } from './definition-row-routes.js';
import { calculationsOf, itemsOf, limitsOf, type ItemRow, type Resolved } from './resolve.js';
import { itemValues, riskTypeRows, type RiskTypeChildKind } from './risk-type-child-rows.js';
import { decimalText, identifier, label } from './scope.js';

/**
 * Risk items of a risk type (`…/risk-types/{t}/risk-items/`: list, create, read, change, soft delete,
 * restore, reorder) and their limits and deductibles (`…/risk-items/{i}/limits/`: list, create,
 * change, delete, restore). Inherited items are overridden on change, as fields are.
 */
const itemShape = {
  name: identifier('item'),
  label,
  presence: z.enum(ITEM_PRESENCES).optional(),
  type: z.enum(ITEM_TYPES).optional(),
  fully_earned: z.boolean().optional(),
  order: z.number().int().min(0).max(100000).optional(),
  premium_calculation: z.string().trim().min(1).max(100).nullable().optional(),
};
const createItemBody = z.strictObject(itemShape);
const updateItemBody = z.strictObject({
  ...itemShape,
  name: itemShape.name.optional(),
  label: label.optional(),
  id: z.number().int().optional(),
});
const limitShape = {
  kind: z.enum(LIMIT_KINDS),
  name: z
    .string()
    .trim()
    .max(100)
    .regex(
      /^([A-Za-z_][A-Za-z0-9_]*)?$/,
      "A limit name holds only letters, digits and '_' (empty for the item's main one).",
    )
    .optional(),
  label,
  default_value: decimalText.nullable().optional(),
  min_value: decimalText.nullable().optional(),
  max_value: decimalText.nullable().optional(),
  options: z.array(decimalText).max(100).optional(),
  order: z.number().int().min(0).max(100000).optional(),
};
const createLimitBody = z.strictObject(limitShape);
const updateLimitBody = z.strictObject({
  ...limitShape,
  kind: limitShape.kind.optional(),
  label: label.optional(),
  id: z.number().int().optional(),
});

type LimitValues = {
  kind: 'limit' | 'deductible';
  name: string;
  label: string;
  defaultValue: string | null;
  minValue: string | null;
  maxValue: string | null;
  options: string[];
  order: number;
};

function checkLimit(values: LimitValues) {
  const d = (value: string) => new Decimal(value);
  if (values.minValue !== null && values.maxValue !== null && d(values.minValue).gt(d(values.maxValue))) {
    throw fieldError('min_value', `The minimum ${values.minValue} is above the maximum ${values.maxValue}.`);
  }
  const v = values.defaultValue;
  if (v === null) return;
  if (values.minValue !== null && d(v).lt(d(values.minValue))) {
    throw fieldError('default_value', `The default ${v} is below the minimum ${values.minValue}.`);
  }
  if (values.maxValue !== null && d(v).gt(d(values.maxValue))) {
    throw fieldError('default_value', `The default ${v} is above the maximum ${values.maxValue}.`);
  }
  if (values.options.length > 0 && !values.options.some((o) => d(o).eq(d(v)))) {
    throw fieldError('default_value', `The default ${v} is not one of the options.`);
  }
}

const itemKind: RiskTypeChildKind<ItemRow, ReturnType<typeof itemValues>> = {
  table: riskItem,
  noun: 'Item',
  aNoun: 'an item',
  rowsOf: itemsOf,
  valuesOf: itemValues,
};

export function riskItemRoutes(router: AtriumRouter, db: Database) {
  const base = '/lines/products/:product/risk-types/:riskType/risk-items/';
  definitionRowRoutes(router, db, {
    ...riskTypeRows(db, itemKind),
    base,
    param: 'item',
    access: LINES_PERMISSIONS.riskItem,
    find: findItem,
    out: (scope, i) => itemOut(scope, i, scope.riskType.row.name),
    create: {
      summary: 'Adds an item to a risk type; draft only.',
      body: createItemBody,
      values: (scope, body) => ({
        name: body.name,
        label: body.label,
        presence: body.presence ?? 'optional',
        type: body.type ?? 'coverage',
        fullyEarned: body.fully_earned ?? false,
        order:
          body.order ?? Math.max(0, ...itemsOf(scope.definition, scope.riskType.row.name).map((i) => i.row.order)) + 1,
        premiumCalculation: body.premium_calculation ?? null,
      }),
    },
    update: {
      summary: 'Changes an item (an inherited one becomes the child product’s override); draft only.',
      body: updateItemBody,
      values: ({ row }, body) => ({
        ...itemValues(row),
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.label !== undefined ? { label: body.label } : {}),
        ...(body.presence !== undefined ? { presence: body.presence } : {}),
        ...(body.type !== undefined ? { type: body.type } : {}),
        ...(body.fully_earned !== undefined ? { fullyEarned: body.fully_earned } : {}),
        ...(body.order !== undefined ? { order: body.order } : {}),
        ...(body.premium_calculation !== undefined ? { premiumCalculation: body.premium_calculation } : {}),
      }),
    },
    beforeDelete(scope, current) {
      const user = calculationsOf(scope.definition, scope.riskType.row.name).find(
        (c) => c.itemName?.toLowerCase() === current.row.name.toLowerCase(),
      );
      if (user) {
        throw badRequest(
          `Item ${current.row.name} is used by calculation ${user.row.name}; change or delete that first.`,
        );
      }
    },
    summaries: {
      list: 'Lists a risk type’s items with limits and deductibles (deleted=true: this version’s deleted items).',
      one: 'One item with its limits and deductibles.',
      delete: 'Deletes an item (it can be restored); draft only.',
      restore: 'Restores a deleted item of this version; draft only.',
      reorder: 'Sets the items’ order: `order` lists item ids first to last.',
    },
  });

  // Limits and deductibles: the item is found after the draft check, as each limit route did.
  type LimitScope = RiskTypeScope & { item(): Resolved<ItemRow> };
  const limitsOfItem = (scope: LimitScope) =>
    limitsOf(scope.definition, scope.riskType.row.name, scope.item().row.name);
  definitionRowRoutes(router, db, {
    base: `${base}:item/limits/`,
    param: 'limit',
    params: itemParams,
    table: itemLimit,
    noun: 'Limit',
    describe: (row) => `The ${row.kind} '${row.label}'`,
    access: {
      ...LINES_PERMISSIONS.riskItem,
      create: LINES_PERMISSIONS.riskItem.update,
      delete: LINES_PERMISSIONS.riskItem.update,
    },
    async scopeOf(p, versionId) {
      const scope = await riskTypeScope(db, p.product as string, versionId, p.riskType as string);
      return { ...scope, item: () => findItem(scope, p.item as number) };
    },
    rowsOf: limitsOfItem,
    find(scope, limitId) {
      const found = limitsOfItem(scope).find((l) => l.row.id === limitId);
      if (!found) throw notFound(`Limit ${limitId} not found on item ${scope.item().row.name}.`);
      return found;
    },
    out: (_scope, resolved) => limitOut(resolved),
    placeOf: (scope) => ({ productVersionId: scope.version.id, riskItemId: scope.item().row.id }),
    conflict(scope, values: LimitValues, current) {
      const itemName = scope.item().row.name;
      const inherited = current && chainIndex(scope, current.row.productVersionId) > 0;
      if (inherited && (values.kind !== current.row.kind || values.name !== current.row.name)) {
        throw fieldError('name', `This ${current.row.kind} is inherited; an override keeps its kind and name.`);
      }
      const clash = limitsOfItem(scope).find(
        (l) =>
          l.row.kind === values.kind &&
          l.row.name.toLowerCase() === values.name.toLowerCase() &&
          l.row.id !== current?.row.id,
      );
      if (clash) {
        throw fieldError(
          'name',
          values.name
            ? `Item ${itemName} already has a ${values.kind} named '${values.name}'.`
            : `Item ${itemName} already has a main ${values.kind}.`,
        );
      }
    },
    create: {
      summary: 'Adds a limit or deductible to an item (name empty for the main one); draft only.',
      body: createLimitBody,
      values: (scope, body): LimitValues => ({
        kind: body.kind,
        name: body.name ?? '',
        label: body.label,
        defaultValue: body.default_value ?? null,
        minValue: body.min_value ?? null,
        maxValue: body.max_value ?? null,
        options: body.options ?? [],
        order: body.order ?? Math.max(0, ...limitsOfItem(scope).map((l) => l.row.order)) + 1,
      }),
    },
    update: {
      summary: 'Changes a limit or deductible; draft only.',
      body: updateLimitBody,
      values: ({ row }, body): LimitValues => ({
        kind: body.kind ?? row.kind,
        name: body.name ?? row.name,
        label: body.label ?? row.label,
        defaultValue: body.default_value !== undefined ? body.default_value : row.defaultValue,
        minValue: body.min_value !== undefined ? body.min_value : row.minValue,
        maxValue: body.max_value !== undefined ? body.max_value : row.maxValue,
        options: body.options ?? row.options,
        order: body.order ?? row.order,
      }),
    },
    check: checkLimit,
    soft: {
      async restore(scope, limitId) {
        const item = scope.item();
        const [row] = await db
          .select()
          .from(itemLimit)
          .where(and(eq(itemLimit.id, limitId), eq(itemLimit.productVersionId, scope.version.id)));
        if (!row || row.deletedAt === null)
          throw notFound(`Deleted limit ${limitId} not found on item ${item.row.name}.`);
        const [clash] = await db
          .select({ id: itemLimit.id })
          .from(itemLimit)
          .where(
            and(
              eq(itemLimit.productVersionId, scope.version.id),
              eq(itemLimit.riskItemId, row.riskItemId),
              eq(itemLimit.kind, row.kind),
              eq(itemLimit.name, row.name),
              isNull(itemLimit.deletedAt),
            ),
          );
        if (clash) throw fieldError('name', `Item ${item.row.name} has that ${row.kind} again; delete it first.`);
        await db.update(itemLimit).set({ deletedAt: null, updatedAt: new Date() }).where(eq(itemLimit.id, row.id));
      },
    },
    summaries: {
      list: 'Lists an item’s limits and deductibles.',
      delete: 'Deletes a limit or deductible (it can be restored); draft only.',
      restore: 'Restores a deleted limit or deductible; draft only.',
    },
  });
}
