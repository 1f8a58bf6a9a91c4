import { BUILTINS } from '@atrium/rating';
import { badRequest, fieldError, z, type AtriumRouter, type Database, type Queryable } from '@atrium/sdk/server';
import { LINES_PERMISSIONS } from '../permissions.js';
import { calculation, itemLimit, riskField, riskItem, riskType } from '../tables.js';
import {
  definitionScope,
  fieldOut,
  findRiskType,
  itemOut,
  riskTypeParams,
  riskTypeScope,
  type DefinitionScope,
  type RiskTypeScope,
} from './definition-scope.js';
import { definitionRowRoutes } from './definition-row-routes.js';
import {
  ancestorsOf,
  calculationsOf,
  descendantsOf,
  fieldsOf,
  itemsOf,
  limitsOf,
  type ResolvedRiskType,
} from './resolve.js';
import { id, identifier, label, productParam, versionQuery } from './scope.js';
import { assertDraftVersion } from './version-guard.js';

/**
 * Risk types of a product version: `products/{p}/risk-types/` CRUD, `{t}/copy/`, `{t}/rating-context/`,
 * `{t}/state/`. Risk types nest up to 7 levels; a product has one root risk type. `{t}` is an id or a
 * name. Changing an inherited risk type in a child product creates the child's own override.
 */
const tags = ['lines'];
export const MAX_RISK_TYPE_DEPTH = 7;

const params = z.strictObject({ product: productParam });
const createBody = z.strictObject({
  name: identifier('risk type'),
  label,
  parent_risk_type_id: id.nullable().optional(),
  parent_risk_type: z.string().trim().min(1).max(100).nullable().optional(),
  sequence: z.number().int().min(0).max(100000).optional(),
  premium_calculation: z.string().trim().min(1).max(100).nullable().optional(),
});
const updateBody = z.strictObject({
  id: z.number().int().optional(),
  name: identifier('risk type').optional(),
  label: label.optional(),
  parent_risk_type_id: id.nullable().optional(),
  parent_risk_type: z.string().trim().min(1).max(100).nullable().optional(),
  sequence: z.number().int().min(0).max(100000).optional(),
  premium_calculation: z.string().trim().min(1).max(100).nullable().optional(),
});
const copyBody = z.strictObject({ name: identifier('risk type'), label });
const stateQuery = z.strictObject({ version_id: id.optional(), type: z.enum(['minimal', 'full']).optional() });

export function riskTypeOut(scope: DefinitionScope, t: ResolvedRiskType) {
  const parent = t.parentName ? findRiskType(scope, t.parentName) : null;
  return {
    id: t.row.id,
    name: t.row.name,
    label: t.row.label,
    sequence: t.row.sequence,
    depth: t.depth,
    parent_risk_type_id: parent?.row.id ?? null,
    parent_risk_type: t.parentName,
    premium_calculation: t.row.premiumCalculation,
    product_id: t.productId,
    inheritance_status: t.inheritanceStatus,
    fields_count: fieldsOf(scope.definition, t.row.name).length,
    items_count: itemsOf(scope.definition, t.row.name).length,
  };
}

/** One risk type as its own GET answers it: with its fields, items, rate tables, calculations and children. */
function riskTypeWithContents(scope: RiskTypeScope) {
  const name = scope.riskType.row.name;
  return {
    ...riskTypeOut(scope, scope.riskType),
    version_id: scope.version.id,
    fields: fieldsOf(scope.definition, name).map((f) => fieldOut(f, name)),
    items: itemsOf(scope.definition, name).map((i) => itemOut(scope, i, name)),
    rate_tables: scope.definition.rateTables
      .filter((t) => t.riskTypeName?.toLowerCase() === name.toLowerCase())
      .map((t) => ({
        id: t.row.id,
        name: t.row.name,
        label: t.row.label,
        product_id: t.productId,
        inheritance_status: t.inheritanceStatus,
      })),
    calculations: calculationsOf(scope.definition, name).map((c) => ({
      id: c.row.id,
      name: c.row.name,
      label: c.row.label,
      calculation: c.row.calculation,
      order: c.row.order,
      risk_item_id: c.row.riskItemId,
      risk_item: c.itemName,
      product_id: c.productId,
      inheritance_status: c.inheritanceStatus,
    })),
    children: scope.definition.riskTypes
      .filter((t) => t.parentName?.toLowerCase() === name.toLowerCase())
      .map((t) => riskTypeOut(scope, t)),
  };
}

/** The parent named by id or name (null for a root), or a 400 pointing at the field. */
function parentFrom(
  scope: DefinitionScope,
  body: { parent_risk_type_id?: number | null; parent_risk_type?: string | null },
): ResolvedRiskType | null | undefined {
  if (body.parent_risk_type_id === undefined && body.parent_risk_type === undefined) return undefined;
  const ref = body.parent_risk_type_id ?? body.parent_risk_type;
  if (ref === null || ref === undefined) return null;
  try {
    return findRiskType(scope, String(ref));
  } catch {
    throw fieldError(
      body.parent_risk_type_id !== undefined ? 'parent_risk_type_id' : 'parent_risk_type',
      `Risk type ${typeof ref === 'number' ? ref : `'${ref}'`} not found in this version.`,
    );
  }
}

function assertDepth(scope: DefinitionScope, parent: ResolvedRiskType | null, subtreeHeight: number) {
  const depth = (parent?.depth ?? 0) + subtreeHeight;
  if (depth > MAX_RISK_TYPE_DEPTH) {
    throw badRequest(
      `Risk types nest at most ${MAX_RISK_TYPE_DEPTH} levels; under ${parent?.row.name} this one would be at level ${depth}.`,
      { source: { pointer: '/parent_risk_type_id' } },
    );
  }
}

function assertSingleRoot(scope: DefinitionScope, exceptName?: string) {
  const root = scope.definition.riskTypes.find((t) => t.depth === 1 && t.row.name !== exceptName);
  if (root) {
    throw fieldError(
      'parent_risk_type_id',
      `${scope.product.label} already has a root risk type (${root.row.name}); add this one under it.`,
    );
  }
}

function assertNameFree(scope: DefinitionScope, name: string) {
  if (scope.definition.riskTypes.some((t) => t.row.name.toLowerCase() === name.toLowerCase())) {
    throw fieldError('name', `A risk type named '${name}' already exists in this version.`);
  }
}

/** Deep-copies a risk type's fields, items with limits, and calculations onto another risk type row. */
async function copyContents(tx: Queryable, scope: RiskTypeScope, toRiskTypeId: number) {
  const versionId = scope.version.id;
  const name = scope.riskType.row.name;
  const fields = fieldsOf(scope.definition, name);
  if (fields.length > 0) {
    await tx.insert(riskField).values(
      fields.map(({ row }) => {
        const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
        return { ...rest, productVersionId: versionId, riskTypeId: toRiskTypeId };
      }),
    );
  }
  const itemIds = new Map<number, number>();
  for (const item of itemsOf(scope.definition, name)) {
    const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = item.row;
    const [row] = await tx
      .insert(riskItem)
      .values({ ...rest, productVersionId: versionId, riskTypeId: toRiskTypeId })
      .returning({ id: riskItem.id });
    itemIds.set(item.row.id, row!.id);
    const limits = limitsOf(scope.definition, name, item.row.name);
    if (limits.length > 0) {
      await tx.insert(itemLimit).values(
        limits.map(({ row: limit }) => {
          const { id: _lid, createdAt: _lc, updatedAt: _lu, ...limitRest } = limit;
          return { ...limitRest, productVersionId: versionId, riskItemId: row!.id };
        }),
      );
    }
  }
  const calcs = calculationsOf(scope.definition, name);
  if (calcs.length > 0) {
    await tx.insert(calculation).values(
      calcs.map(({ row, itemName }) => {
        const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
        const item = itemName ? itemsOf(scope.definition, name).find((i) => i.row.name === itemName) : undefined;
        return {
          ...rest,
          productVersionId: versionId,
          riskTypeId: toRiskTypeId,
          riskItemId: item ? (itemIds.get(item.row.id) ?? null) : null,
        };
      }),
    );
  }
}

/** The risk type tree from `root` down, for building a risk state (spec: `{t}/state/`). */
function stateOf(scope: DefinitionScope, root: ResolvedRiskType, minimal: boolean): unknown {
  const children = scope.definition.riskTypes.filter(
    (t) => t.parentName !== null && t.parentName.toLowerCase() === root.row.name.toLowerCase(),
  );
  const fields = fieldsOf(scope.definition, root.row.name).map(({ row }) =>
    minimal
      ? {
          name: row.name,
          type: row.type,
          default: row.defaultValue,
          options: (row.options ?? []).map((o) => o.value),
          required: row.required,
          computed: row.type === 'computed',
        }
      : fieldOut({ row, inheritanceStatus: 'own', productId: 0 }, root.row.name),
  );
  const items = itemsOf(scope.definition, root.row.name).map((item) =>
    minimal
      ? {
          name: item.row.name,
          presence: item.row.presence,
          limits: limitsOf(scope.definition, root.row.name, item.row.name).map(({ row }) => ({
            kind: row.kind,
            name: row.name,
            default: row.defaultValue,
            options: row.options,
          })),
        }
      : itemOut(scope, item, root.row.name),
  );
  return {
    id: root.row.id,
    name: root.row.name,
    label: root.row.label,
    ...(minimal ? {} : { inheritance_status: root.inheritanceStatus, depth: root.depth }),
    fields,
    items,
    children: children.map((child) => stateOf(scope, child, minimal)),
  };
}

export function riskTypeRoutes(router: AtriumRouter, db: Database) {
  const base = '/lines/products/:product/risk-types/';
  const one = `${base}:riskType/`;
  definitionRowRoutes(router, db, {
    base,
    param: 'riskType',
    rowParam: riskTypeParams.shape.riskType,
    params,
    table: riskType,
    noun: 'Risk type',
    access: LINES_PERMISSIONS.riskType,
    // A row route's scope finds its risk type first (404 before a draft's 400), as the type's own routes do.
    scopeOf: (p, versionId) =>
      p.riskType === undefined
        ? definitionScope(db, p.product as string, versionId)
        : riskTypeScope(db, p.product as string, versionId, p.riskType as string),
    rowsOf: (scope) => scope.definition.riskTypes,
    find: (scope, ref) => findRiskType(scope, String(ref)),
    out: (scope, t) => riskTypeOut(scope, t as ResolvedRiskType),
    outOne: (scope, t) => riskTypeWithContents({ ...scope, riskType: t as ResolvedRiskType }),
    nameTaken: (_scope, name) => `A risk type named '${name}' already exists in this version.`,
    renameClashesWithSelf: true,
    placeOf: (scope) => ({ productVersionId: scope.version.id }),
    create: {
      summary: 'Creates a risk type (a root, or under a parent; 7 levels at most).',
      body: createBody,
      values(scope, body) {
        const parent = parentFrom(scope, body) ?? null;
        if (!parent) assertSingleRoot(scope);
        assertDepth(scope, parent, 1);
        const siblings = scope.definition.riskTypes.filter((t) => t.parentName === (parent?.row.name ?? null));
        return {
          parentRiskTypeId: parent?.row.id ?? null,
          name: body.name,
          label: body.label,
          sequence: body.sequence ?? Math.max(0, ...siblings.map((s) => s.row.sequence + 1)),
          premiumCalculation: body.premium_calculation ?? null,
        };
      },
    },
    update: {
      summary: 'Changes a risk type (name, label, sequence, parent, premium calculation); draft only.',
      body: updateBody,
      values(resolved, body, scope) {
        const current = resolved as ResolvedRiskType;
        const parent = parentFrom(scope, body);
        if (parent !== undefined) {
          if (
            parent &&
            [parent, ...ancestorsOf(scope.definition, parent.row.name)].some((t) => t.row.name === current.row.name)
          ) {
            throw fieldError(
              'parent_risk_type_id',
              `Risk type ${current.row.name} cannot be placed under itself or its own child.`,
            );
          }
          if (!parent) assertSingleRoot(scope, current.row.name);
          const height =
            1 + Math.max(0, ...descendantsOf(scope.definition, current.row.name).map((d) => d.depth - current.depth));
          assertDepth(scope, parent, height);
        }
        return {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.label !== undefined ? { label: body.label } : {}),
          ...(body.sequence !== undefined ? { sequence: body.sequence } : {}),
          ...(body.premium_calculation !== undefined ? { premiumCalculation: body.premium_calculation } : {}),
          ...(parent !== undefined ? { parentRiskTypeId: parent?.row.id ?? null } : {}),
        };
      },
      // A child product's change to an inherited risk type becomes its own override row.
      override(scope, resolved, values) {
        const current = resolved as ResolvedRiskType;
        const parentRow = current.parentName ? findRiskType(scope, current.parentName) : null;
        return {
          productVersionId: scope.version.id,
          parentRiskTypeId: parentRow?.row.id ?? null,
          name: current.row.name,
          label: current.row.label,
          sequence: current.row.sequence,
          premiumCalculation: current.row.premiumCalculation,
          ...values,
        };
      },
    },
    summaries: {
      list: 'Lists a version’s risk types (tree order) with inheritance status.',
      one: 'One risk type with its fields, items (with limits), rate tables, calculations and children.',
      delete: 'Deletes a risk type of this version with its children, fields, items and calculations.',
    },
  });

  router.post(
    `${one}copy/`,
    {
      config: { access: LINES_PERMISSIONS.riskType.create },
      schema: {
        summary: 'Copies a risk type (fields, items with limits, calculations) under a new name and label.',
        tags,
        params: riskTypeParams,
        querystring: versionQuery,
        body: copyBody,
      },
    },
    async (request, reply) => {
      const scope = await riskTypeScope(db, request.params.product, request.query.version_id, request.params.riskType);
      await assertDraftVersion(db, scope.version.id);
      assertNameFree(scope, request.body.name);
      const source = scope.riskType;
      if (!source.parentName) {
        throw badRequest(
          `Risk type ${source.row.name} is the root; a product has one root risk type, so it cannot be copied.`,
        );
      }
      const parent = findRiskType(scope, source.parentName);
      const created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(riskType)
          .values({
            productVersionId: scope.version.id,
            parentRiskTypeId: parent.row.id,
            name: request.body.name,
            label: request.body.label,
            sequence: source.row.sequence + 1,
            premiumCalculation: source.row.premiumCalculation,
          })
          .returning({ id: riskType.id });
        await copyContents(tx, scope, row!.id);
        return row!.id;
      });
      reply.code(201);
      const fresh = await definitionScope(db, request.params.product, scope.version.id);
      const copy = findRiskType(fresh, String(created));
      return {
        ...riskTypeOut(fresh, copy),
        fields: fieldsOf(fresh.definition, copy.row.name).map((f) => fieldOut(f, copy.row.name)),
        items: itemsOf(fresh.definition, copy.row.name).map((i) => itemOut(fresh, i, copy.row.name)),
        calculations: calculationsOf(fresh.definition, copy.row.name).map((c) => ({
          id: c.row.id,
          name: c.row.name,
          calculation: c.row.calculation,
          order: c.row.order,
          risk_item: c.itemName,
        })),
      };
    },
  );

  router.get(
    `${one}rating-context/`,
    {
      config: { access: LINES_PERMISSIONS.riskType.read },
      schema: {
        summary:
          'What a formula of this risk type can use: fields, ancestors’ fields, items, rate tables, calculations, children, functions.',
        tags,
        params: riskTypeParams,
        querystring: versionQuery,
      },
    },
    async (request) => {
      const scope = await riskTypeScope(db, request.params.product, request.query.version_id, request.params.riskType);
      const name = scope.riskType.row.name;
      const ancestors = ancestorsOf(scope.definition, name);
      const fieldsOfType = (typeName: string) =>
        fieldsOf(scope.definition, typeName).map(({ row }) => ({
          name: row.name,
          label: row.label,
          type: row.type,
          options: (row.options ?? []).map((o) => o.value),
          risk_type: typeName,
        }));
      const calcsOfType = (typeName: string) =>
        calculationsOf(scope.definition, typeName).map(({ row, itemName }) => ({
          name: row.name,
          label: row.label,
          order: row.order,
          risk_item: itemName,
          risk_type: typeName,
        }));
      return {
        risk_type: { id: scope.riskType.row.id, name, label: scope.riskType.row.label },
        version_id: scope.version.id,
        fields: fieldsOfType(name),
        ancestor_fields: ancestors.flatMap((a) => fieldsOfType(a.row.name)),
        items: itemsOf(scope.definition, name).map((item) => {
          const limits = limitsOf(scope.definition, name, item.row.name);
          return {
            name: item.row.name,
            label: item.row.label,
            limits: limits.filter((l) => l.row.kind === 'limit').map((l) => l.row.name),
            deductibles: limits.filter((l) => l.row.kind === 'deductible').map((l) => l.row.name),
          };
        }),
        rate_tables: scope.definition.rateTables.map((t) => ({
          name: t.row.name,
          label: t.row.label,
          keys: t.row.keyColumns.map((k) => ({ name: k.name, match: k.match })),
          interpolate: t.row.interpolate,
        })),
        calculations: calcsOfType(name),
        ancestor_calculations: ancestors.flatMap((a) => calcsOfType(a.row.name)),
        children: scope.definition.riskTypes
          .filter((t) => t.parentName?.toLowerCase() === name.toLowerCase())
          .map((t) => ({
            name: t.row.name,
            label: t.row.label,
            calculations: calcsOfType(t.row.name).map((c) => c.name),
          })),
        functions: Object.keys(BUILTINS).sort(),
      };
    },
  );

  router.get(
    `${one}state/`,
    {
      config: { access: LINES_PERMISSIONS.riskType.read },
      schema: {
        summary:
          'The risk type tree from this risk type down with its fields and items (type=minimal: names, types, defaults).',
        tags,
        params: riskTypeParams,
        querystring: stateQuery,
      },
    },
    async (request) => {
      const scope = await riskTypeScope(db, request.params.product, request.query.version_id, request.params.riskType);
      return stateOf(scope, scope.riskType, request.query.type === 'minimal');
    },
  );
}
