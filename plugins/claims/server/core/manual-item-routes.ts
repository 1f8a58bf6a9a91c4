import { and, asc, eq, ilike, isNull, or, type SQL } from 'drizzle-orm';
import {
  pageOfRows,
  typeOnly,
  containsPattern,
  isUniqueViolation,
  ApiError,
  attributeError,
  defineResource,
  pageQuerySchema,
  resourceDocument,
  serializeDocument,
  toOneRelationship,
  toPageRequest,
  z,
  type AtriumRouter,
  type Database,
  type Queryable,
} from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import {
  CLAIMS_BASE,
  JSONAPI_PAGE_SIZE,
  callerOf,
  numericId,
  requireMatchingId,
  security,
  tags,
  writeAudit,
} from './http-kit.js';
import { formatMoney, parseMoney } from '../ledger/money.js';
import { filterShape, filterValue } from './query-filters.js';
import { lookup, product } from './tables.js';

/**
 * Manual items and manual limits (docs/claims-screens.md, "Manual Items"): what an adjuster may add
 * to a claim when the policy does not list it — an item (a rental car, temporary housing) and the
 * limits that apply to it (e.g. 50.00 per day, 1500.00 in aggregate) — maintained per claims
 * product (no product: every product). Kept in the lookup table (kinds `manual-item`,
 * `manual-limit`; a limit's parent is its item, its amounts live in `attributes`) with their own
 * validation. They are deactivated (`expired: true`), never deleted: claims may carry them.
 */
type LookupRow = typeof lookup.$inferSelect;

const LIMIT_BASES = ['per_occurrence', 'per_day', 'per_person', 'aggregate'] as const;
const AMOUNT = /^\d{1,12}(\.\d+)?$/;

const required = (label: string, max: number) =>
  z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(max, `${label} must be ${max} characters or less.`);
const code = z
  .string()
  .trim()
  .max(50, 'Code must be 50 characters or less.')
  .regex(/^\S*$/, 'The Code cannot contain spaces.')
  .nullable();
const amount = (label: string) =>
  z.string({ error: `${label} must be a decimal string such as "1500.00".` }).superRefine((value, ctx) => {
    if (value.startsWith('-')) return void ctx.addIssue({ code: 'custom', message: `${label} must be 0 or more.` });
    if (!AMOUNT.test(value)) {
      return void ctx.addIssue({ code: 'custom', message: `${label} must be a decimal string such as "1500.00".` });
    }
    if (/\.\d{3,}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `${label} can not have more than 2 decimal places.` });
    }
  });
const sortOrder = z
  .number({ error: 'Sort order must be a whole number.' })
  .int('Sort order must be a whole number.')
  .min(0, 'Sort order must be 0 or more.')
  .max(100000, 'Sort order must be 100000 or less.');

const productRel = { product: toOneRelationship('product').optional() };

interface Kind {
  path: 'manual-items' | 'manual-limits';
  type: 'manual-item' | 'manual-limit';
  label: string;
  attributes: z.ZodRawShape;
  /** Attribute names kept in the row's `attributes` JSON. */
  extra: string[];
  /** Required on create (besides name and label). */
  requiredOnCreate: string[];
}

const ITEM: Kind = {
  path: 'manual-items',
  type: 'manual-item',
  label: 'manual item',
  attributes: {
    name: required('Name', 200),
    label: required('Label', 200),
    code: code.optional(),
    description: z.string().trim().max(2000, 'Description must be 2000 characters or less.').nullable().optional(),
    sort_order: sortOrder.optional(),
    expired: z.boolean().optional(),
  },
  extra: ['description'],
  requiredOnCreate: [],
};

const LIMIT: Kind = {
  path: 'manual-limits',
  type: 'manual-limit',
  label: 'manual limit',
  attributes: {
    name: required('Name', 200),
    label: required('Label', 200),
    code: code.optional(),
    limit_amount: amount('Limit amount'),
    deductible_amount: amount('Deductible amount').nullable().optional(),
    limit_basis: z.enum(LIMIT_BASES, { error: `Limit basis must be one of ${LIMIT_BASES.join(', ')}.` }).optional(),
    sort_order: sortOrder.optional(),
    expired: z.boolean().optional(),
  },
  extra: ['limit_amount', 'deductible_amount', 'limit_basis'],
  requiredOnCreate: ['limit_amount'],
};

function resourceOf(kind: Kind) {
  return defineResource<LookupRow>({
    type: kind.type,
    id: (r) => String(r.id),
    basePath: `${CLAIMS_BASE}/${kind.path}/`,
    attributes: (r) => ({
      name: r.name,
      label: r.label,
      code: r.code,
      ...Object.fromEntries(
        kind.extra.map((key) => [key, r.attributes[key] ?? (key === 'limit_basis' ? 'per_occurrence' : null)]),
      ),
      sort_order: r.sortOrder,
      expired: r.expired,
    }),
    relationships: {
      product: { resource: () => typeOnly('product'), ids: (r) => (r.productId === null ? null : String(r.productId)) },
      ...(kind === LIMIT
        ? {
            manual_item: {
              resource: () => typeOnly('manual-item'),
              ids: (r: LookupRow) => (r.parentId === null ? null : String(r.parentId)),
            },
          }
        : {}),
    },
  });
}

const relationshipPointer = (name: string) => ({ source: { pointer: `/data/relationships/${name}` } });

/** The id in a to-one relationship document: null when cleared, undefined when not sent. */
function relatedId(doc: { data: { id: string } | null } | undefined, name: string, label: string) {
  if (doc === undefined) return undefined;
  if (doc.data === null) return null;
  if (!/^[1-9]\d{0,9}$/.test(doc.data.id)) {
    throw new ApiError(400, `${label} ${doc.data.id} not found.`, relationshipPointer(name));
  }
  return Number(doc.data.id);
}

// Hand-written, not a resource declaration: manual items and limits keep their amounts inside the lookup row's JSON attributes (formatted, merged on change), a limit's parent must be an item, and they are deactivated, never deleted.
export function registerManualItemRoutes(router: AtriumRouter, db: Database): void {
  for (const kind of [ITEM, LIMIT]) registerKind(router, db, kind);
}

function registerKind(router: AtriumRouter, db: Database, kind: Kind): void {
  const resource = resourceOf(kind);
  const base = `/${kind.path}/`;
  const title = kind.label.charAt(0).toUpperCase() + kind.label.slice(1);
  const relationships =
    kind === LIMIT ? { ...productRel, manual_item: toOneRelationship('manual-item').optional() } : productRel;
  const createShape = Object.fromEntries(
    Object.entries(kind.attributes).map(([k, v]) => [k, (v as z.ZodType).optional()]),
  );
  const idParams = z.strictObject({ id: z.string().max(20) });

  const load = async (tx: Queryable, rawId: string) => {
    const id = numericId(rawId, `${title} ${rawId} not found.`);
    const [row] = await tx
      .select()
      .from(lookup)
      .where(and(eq(lookup.id, id), eq(lookup.kind, kind.type)));
    if (!row) throw new ApiError(404, `${title} ${rawId} not found.`);
    return row;
  };

  /** Product and item must exist; a limit's item must be for the same product (or for every product). */
  const checkRelations = async (tx: Queryable, row: { productId: number | null; parentId: number | null }) => {
    if (row.productId !== null) {
      const [found] = await tx.select({ id: product.id }).from(product).where(eq(product.id, row.productId));
      if (!found) throw new ApiError(400, `Product ${row.productId} not found.`, relationshipPointer('product'));
    }
    if (kind === LIMIT && row.parentId !== null) {
      const [item] = await tx
        .select()
        .from(lookup)
        .where(and(eq(lookup.id, row.parentId), eq(lookup.kind, 'manual-item')));
      if (!item) throw new ApiError(400, `Manual item ${row.parentId} not found.`, relationshipPointer('manual_item'));
      if (item.productId !== null && item.productId !== row.productId) {
        throw new ApiError(
          400,
          `The manual item ${item.label} belongs to another product; choose a limit product that matches it.`,
          relationshipPointer('manual_item'),
        );
      }
    }
  };

  /** Amount rules across attributes: the deductible is never more than the limit. */
  const checkAmounts = (attributes: Record<string, unknown>) => {
    const limit = attributes.limit_amount;
    const deductible = attributes.deductible_amount;
    if (typeof limit === 'string' && typeof deductible === 'string' && parseMoney(deductible) > parseMoney(limit)) {
      throw attributeError('deductible_amount', `Deductible amount must be ${limit} or less.`);
    }
  };

  const translate = (error: unknown): never => {
    if (isUniqueViolation(error)) {
      throw attributeError('name', `A ${kind.label} with this name already exists for this product.`, 409);
    }
    throw error;
  };

  const toRow = (attributes: Record<string, unknown>, before?: LookupRow) => {
    const values: Partial<typeof lookup.$inferInsert> = {};
    if (attributes.name !== undefined) values.name = attributes.name as string;
    if (attributes.label !== undefined) values.label = attributes.label as string;
    if (attributes.code !== undefined) values.code = (attributes.code as string | null) || null;
    if (attributes.sort_order !== undefined) values.sortOrder = attributes.sort_order as number;
    if (attributes.expired !== undefined) values.expired = attributes.expired as boolean;
    const extra = { ...(before?.attributes ?? {}) };
    let changed = false;
    for (const key of kind.extra) {
      if (attributes[key] === undefined) continue;
      const value = attributes[key];
      extra[key] = typeof value === 'string' && key.endsWith('_amount') ? formatMoney(parseMoney(value)) : value;
      changed = true;
    }
    if (changed || !before) values.attributes = extra;
    return values;
  };

  router.get(
    base,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'read') },
      schema: {
        summary: `Lists ${kind.label}s by label; filter[search] matches name or label (case-insensitive).`,
        tags,
        security,
        querystring: z.strictObject({
          ...pageQuerySchema(JSONAPI_PAGE_SIZE),
          ...filterShape({
            search: z.string().max(200).optional(),
            product_id: z.coerce.number().int().min(1).max(2147483647).optional(),
            expired: z.enum(['true', 'false']).optional(),
            ...(kind === LIMIT ? { manual_item_id: z.coerce.number().int().min(1).max(2147483647).optional() } : {}),
          }),
        }),
      },
    },
    async (request) => {
      const query = request.query as Record<string, unknown> & { 'page[number]': number; 'page[size]': number };
      const page = toPageRequest(query);
      const conditions: SQL[] = [eq(lookup.kind, kind.type)];
      const search = filterValue<string>(query, 'search')?.trim();
      if (search) {
        const pattern = containsPattern(search);
        conditions.push(or(ilike(lookup.name, pattern), ilike(lookup.label, pattern))!);
      }
      const productId = filterValue<number>(query, 'product_id');
      // A product's list includes what applies to every product.
      if (productId) conditions.push(or(eq(lookup.productId, productId), isNull(lookup.productId))!);
      const expired = filterValue<string>(query, 'expired');
      if (expired) conditions.push(eq(lookup.expired, expired === 'true'));
      const itemId = filterValue<number>(query, 'manual_item_id');
      if (itemId) conditions.push(eq(lookup.parentId, itemId));
      const where = and(...conditions);
      const { rows, links, meta } = await pageOfRows(db, lookup, {
        where,
        orderBy: [asc(lookup.sortOrder), asc(lookup.label), asc(lookup.id)],
        page,
        path: `${CLAIMS_BASE}${base}`,
        query,
      });
      return serializeDocument(resource, rows, { links, meta });
    },
  );

  router.get(
    `${base}:id/`,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'read') },
      schema: { summary: `One ${kind.label}.`, tags, security, params: idParams },
    },
    async (request) => serializeDocument(resource, await load(db, request.params.id)),
  );

  router.post(
    base,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'create') },
      schema: {
        summary: `Creates a ${kind.label}.`,
        tags,
        security,
        body: resourceDocument(kind.type, createShape, { relationships }),
      },
    },
    async (request, reply) => {
      const data = request.body.data as {
        attributes?: Record<string, unknown>;
        relationships?: Record<string, { data: { id: string } | null } | undefined>;
      };
      const attributes = data.attributes ?? {};
      for (const key of ['name', 'label', ...kind.requiredOnCreate]) {
        if (attributes[key] === undefined) throw attributeError(key, 'This field is required.');
      }
      checkAmounts(attributes);
      const productId = relatedId(data.relationships?.product, 'product', 'Product') ?? null;
      const parentId = relatedId(data.relationships?.manual_item, 'manual_item', 'Manual item') ?? null;
      await checkRelations(db, { productId, parentId });
      const created = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(lookup)
            .values({ ...toRow(attributes), kind: kind.type, productId, parentId } as typeof lookup.$inferInsert)
            .returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'create',
            entityType: kind.type,
            entityId: row!.id,
            after: row,
          });
          return row!;
        })
        .catch(translate);
      reply.status(201);
      return serializeDocument(resource, created);
    },
  );

  router.patch(
    `${base}:id/`,
    {
      config: { jsonapi: true, access: claimsPermission('lookup', 'update') },
      schema: {
        summary: `Changes a ${kind.label} (expired: true deactivates it).`,
        tags,
        security,
        params: idParams,
        body: resourceDocument(kind.type, createShape, { id: 'required', relationships }),
      },
    },
    async (request) => {
      requireMatchingId(request.body.data.id, request.params.id);
      const data = request.body.data as {
        attributes?: Record<string, unknown>;
        relationships?: Record<string, { data: { id: string } | null } | undefined>;
      };
      const attributes = data.attributes ?? {};
      const before = await load(db, request.params.id);
      checkAmounts({ ...before.attributes, ...attributes });
      const productId = relatedId(data.relationships?.product, 'product', 'Product');
      const parentId = relatedId(data.relationships?.manual_item, 'manual_item', 'Manual item');
      const next = {
        productId: productId === undefined ? before.productId : productId,
        parentId: parentId === undefined ? before.parentId : parentId,
      };
      await checkRelations(db, next);
      const updated = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .update(lookup)
            .set({ ...toRow(attributes, before), ...next })
            .where(eq(lookup.id, before.id))
            .returning();
          await writeAudit(tx, {
            username: callerOf(request),
            action: 'update',
            entityType: kind.type,
            entityId: before.id,
            before,
            after: row,
          });
          return row!;
        })
        .catch(translate);
      return serializeDocument(resource, updated);
    },
  );
}
