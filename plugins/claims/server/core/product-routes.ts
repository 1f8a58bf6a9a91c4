import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  pageOfRows,
  isUniqueViolation,
  ApiError,
  attributeError,
  defineResource,
  pageQuerySchema,
  parseInclude,
  resourceDocument,
  serializeDocument,
  toPageRequest,
  z,
  type AtriumRouter,
  type Database,
  type ResourceDefinition,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { CLAIMS_BASE, callerOf, numericId, requireMatchingId, security, tags, writeAudit } from './http-kit.js';
import { productResource as plainProduct, type ProductRow } from './product-resource.js';
import { lookup, product, riskType } from './tables.js';

/**
 * Claims products: GET by id with includes (perils, loss_categories, claim_tags, exposure_tags,
 * risk_types, risk_type_groups, injury_natures, injury_body_parts, party_relation_roles), the list in
 * pages of 100, `claims/refdata/products/` (filter is_line) and create.
 */
export const PRODUCT_PAGE_SIZE = 100;

/** Relationship name → lookup kind of the product's own lookups. */
const PRODUCT_LOOKUPS: Record<string, string> = {
  perils: 'peril',
  loss_categories: 'loss-category',
  claim_tags: 'tag',
  risk_type_groups: 'risk-type-group',
  injury_natures: 'injury-nature',
  injury_body_parts: 'injury-body-part',
  party_relation_roles: 'claim-party-role',
};

type ProductRecord = ProductRow & { lookupIds: Record<string, string[]>; riskTypeIds: string[] };

const lookupResource = (type: string): ResourceDefinition<typeof lookup.$inferSelect> =>
  defineResource({
    type,
    id: (row) => String(row.id),
    attributes: (row) => ({
      name: row.name,
      label: row.label,
      code: row.code,
      sort_order: row.sortOrder,
      attributes: row.attributes,
      expired: row.expired,
    }),
  });

const riskTypeResource = defineResource<typeof riskType.$inferSelect>({
  type: 'risk-type',
  id: (row) => String(row.id),
  basePath: `${CLAIMS_BASE}/risk-types/`,
  attributes: (row) => ({
    name: row.name,
    label: row.label,
    attributes: row.attributes,
    damage_type: row.damageType,
    risk_type_group_id: row.riskTypeGroupId,
  }),
});

// Hand-written, not a resource declaration: a claims product is found with includes of its own lookups by kind (perils, tags, risk types …), listed also under claims/refdata/products/, and never deleted.
export function productRoutes(router: AtriumRouter, db: Database): void {
  const loadLookups = (ids: string[]) =>
    db
      .select()
      .from(lookup)
      .where(inArray(lookup.id, ids.map(Number)));
  const resource = defineResource<ProductRecord>({
    ...plainProduct,
    relationships: {
      ...Object.fromEntries(
        Object.entries(PRODUCT_LOOKUPS).map(([name, kind]) => [
          name,
          {
            resource: () => lookupResource(kind),
            many: true,
            ids: (row: ProductRecord) => row.lookupIds[name] ?? [],
            load: loadLookups,
          },
        ]),
      ),
      exposure_tags: {
        resource: () => lookupResource('tag'),
        many: true,
        ids: (row) => row.lookupIds.exposure_tags ?? [],
        load: loadLookups,
      },
      risk_types: {
        resource: () => riskTypeResource,
        many: true,
        ids: (row) => row.riskTypeIds,
        load: (ids) =>
          db
            .select()
            .from(riskType)
            .where(inArray(riskType.id, ids.map(Number))),
      },
    },
  });

  const hydrate = async (rows: ProductRow[]): Promise<ProductRecord[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [lookups, riskTypes] = await Promise.all([
      db
        .select({ id: lookup.id, kind: lookup.kind, productId: lookup.productId, attributes: lookup.attributes })
        .from(lookup)
        .where(and(inArray(lookup.productId, ids), inArray(lookup.kind, Object.values(PRODUCT_LOOKUPS))))
        .orderBy(asc(lookup.sortOrder), asc(lookup.id)),
      db
        .select({ id: riskType.id, productId: riskType.productId })
        .from(riskType)
        .where(inArray(riskType.productId, ids)),
    ]);
    return rows.map((row) => {
      const lookupIds: Record<string, string[]> = {};
      for (const [name, kind] of Object.entries(PRODUCT_LOOKUPS)) {
        lookupIds[name] = lookups
          .filter(
            (l) => l.productId === row.id && l.kind === kind && !(kind === 'tag' && l.attributes.level === 'exposure'),
          )
          .map((l) => String(l.id));
      }
      lookupIds.exposure_tags = lookups
        .filter((l) => l.productId === row.id && l.kind === 'tag' && l.attributes.level === 'exposure')
        .map((l) => String(l.id));
      return {
        ...row,
        lookupIds,
        riskTypeIds: riskTypes.filter((r) => r.productId === row.id).map((r) => String(r.id)),
      };
    });
  };

  const productAttributes = {
    name: z.string().trim().min(1).max(100),
    label: z.string().trim().min(1).max(200),
    policy_type_name: z.string().trim().max(100).optional(),
    is_line: z.boolean().optional(),
    effective_from: z.iso.date().nullable().optional(),
    effective_to: z.iso.date().nullable().optional(),
    configurations: z.record(z.string(), z.unknown()).optional(),
    claim_type: z.strictObject({ allow_multiple_perils: z.boolean().optional() }).optional(),
    injury_type: z
      .strictObject({
        body_parts: z.array(z.string().max(100)).optional(),
        injury_natures: z.array(z.string().max(100)).optional(),
      })
      .nullable()
      .optional(),
  };
  const toValues = (a: Partial<Record<keyof typeof productAttributes, unknown>>) => {
    const v: Partial<typeof product.$inferInsert> = {};
    if (a.name !== undefined) v.name = a.name as string;
    if (a.label !== undefined) v.label = a.label as string;
    if (a.policy_type_name !== undefined) v.policyTypeName = a.policy_type_name as string;
    if (a.is_line !== undefined) v.isLine = a.is_line as boolean;
    if (a.effective_from !== undefined) v.effectiveFrom = a.effective_from as string | null;
    if (a.effective_to !== undefined) v.effectiveTo = a.effective_to as string | null;
    if (a.configurations !== undefined) v.configurations = a.configurations as Record<string, unknown>;
    if (a.claim_type !== undefined) v.claimType = a.claim_type as { allow_multiple_perils?: boolean };
    if (a.injury_type !== undefined) v.injuryType = a.injury_type as ProductRow['injuryType'];
    return v;
  };
  const checkDates = (from: string | null | undefined, to: string | null | undefined) => {
    if (from && to && to < from)
      throw attributeError('effective_to', 'effective_to must not be before effective_from.');
  };

  const list = (path: string, summary: string) =>
    router.get(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('product', 'read') },
        schema: {
          summary,
          tags,
          security,
          querystring: z.strictObject({
            ...pageQuerySchema(PRODUCT_PAGE_SIZE),
            is_line: z.enum(['true', 'false']).optional(),
            'filter[is_line]': z.enum(['true', 'false']).optional(),
            include: z.string().max(300).optional(),
          }),
        },
      },
      async (request) => {
        const query = request.query;
        const include = parseInclude(query.include, resource);
        const isLine = query.is_line ?? query['filter[is_line]'];
        const where = isLine ? eq(product.isLine, isLine === 'true') : undefined;
        const page = toPageRequest(query);
        const { rows, links, meta } = await pageOfRows(db, product, {
          where,
          orderBy: [asc(product.label), asc(product.id)],
          page,
          path: `${CLAIMS_BASE}${path}`,
          query,
        });
        return serializeDocument(resource, await hydrate(rows), { include, links, meta });
      },
    );
  list('/products/', 'Lists claims products, 100 a page.');
  list(
    '/claims/refdata/products/',
    'Claims products as reference data; is_line=true keeps the products that are lines.',
  );

  const create = (path: string) =>
    router.post(
      path,
      {
        config: { jsonapi: true, access: claimsPermission('product', 'create') },
        schema: {
          summary: 'Creates a claims product (name unique).',
          tags,
          security,
          body: resourceDocument('product', productAttributes),
        },
      },
      async (request, reply) => {
        const a = request.body.data.attributes;
        if (!a?.name) throw attributeError('name', 'This field is required.');
        if (!a.label) throw attributeError('label', 'This field is required.');
        checkDates(a.effective_from, a.effective_to);
        const row = await db
          .transaction(async (tx) => {
            const [created] = await tx
              .insert(product)
              .values({ ...toValues(a), name: a.name, label: a.label })
              .returning();
            await writeAudit(tx, {
              username: callerOf(request),
              action: 'create',
              entityType: 'product',
              entityId: created!.id,
              after: created,
            });
            return created!;
          })
          .catch((error: unknown) => {
            if (isUniqueViolation(error)) throw attributeError('name', 'A product with this name already exists.');
            throw error;
          });
        reply.status(201);
        return serializeDocument(resource, (await hydrate([row]))[0]!);
      },
    );
  create('/products/');
  create('/claims/refdata/products/');

  const idParams = z.strictObject({ id: z.string().max(20) });
  const load = async (raw: string) => {
    const id = numericId(raw, `Product ${raw} not found.`);
    const [row] = await db.select().from(product).where(eq(product.id, id)).limit(1);
    if (!row) throw new ApiError(404, `Product ${raw} not found.`);
    return row;
  };

  router.get(
    '/products/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('product', 'read') },
      schema: {
        summary: 'One claims product; include= any of its relationships (perils, loss_categories, risk_types …).',
        tags,
        security,
        params: idParams,
        querystring: z.strictObject({ include: z.string().max(300).optional() }),
      },
    },
    async (request) => {
      const include = parseInclude(request.query.include, resource);
      return serializeDocument(resource, (await hydrate([await load(request.params.id)]))[0]!, { include });
    },
  );

  router.patch(
    '/products/:id/',
    {
      config: { jsonapi: true, access: claimsPermission('product', 'update') },
      schema: {
        summary: 'Changes a claims product.',
        tags,
        security,
        params: idParams,
        body: resourceDocument(
          'product',
          Object.fromEntries(Object.entries(productAttributes).map(([k, v]) => [k, v.optional()])) as {
            [K in keyof typeof productAttributes]: z.ZodOptional<(typeof productAttributes)[K]>;
          },
          { id: 'required' },
        ),
      },
    },
    async (request) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const before = await load(request.params.id);
      const a = request.body.data.attributes ?? {};
      checkDates(
        a.effective_from !== undefined ? a.effective_from : before.effectiveFrom,
        a.effective_to !== undefined ? a.effective_to : before.effectiveTo,
      );
      const row = await db
        .transaction(async (tx) => {
          const [updated] = await tx.update(product).set(toValues(a)).where(eq(product.id, before.id)).returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'update',
            entityType: 'product',
            entityId: before.id,
            before,
            after: updated,
          });
          return updated!;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw attributeError('name', 'A product with this name already exists.');
          throw error;
        });
      return serializeDocument(resource, (await hydrate([row]))[0]!);
    },
  );
}
