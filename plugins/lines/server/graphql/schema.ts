import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type {
  GqlCalculation,
  GqlLimit,
  GqlLine,
  GqlProduct,
  GqlRateTable,
  GqlRiskField,
  GqlRiskItem,
  GqlRiskType,
  GqlVersion,
  LinesGraphqlSource,
} from './source.js';

/**
 * The lines GraphQL schema (served at /api/graphql/lines and /api/quote/graphql/). Field names follow
 * the spec's entities. Every resolver first asks `context.authorize()`, which evaluates the caller's
 * lines read permission with the same evaluator as the REST routes (once per request).
 */
export interface GraphqlContext {
  source: LinesGraphqlSource;
  /** Resolves when the caller may read lines; rejects with a 403-style GraphQLError otherwise. */
  authorize(): Promise<void>;
}

/** The spec's 403 message (error catalogue), with the code in the error's extensions. */
export const FORBIDDEN_MESSAGE = 'This operation is not allowed. (Error code: 403)';

export function forbiddenError(): GraphQLError {
  return new GraphQLError(FORBIDDEN_MESSAGE, { extensions: { code: 'FORBIDDEN', status: 403 } });
}

const nn = <T extends import('graphql').GraphQLType>(type: T) => new GraphQLNonNull(type);
const list = <T extends import('graphql').GraphQLType>(type: T) => nn(new GraphQLList(nn(type)));

/** Parses an ID argument; a malformed one is a GraphQL error (never a database error). */
function idArg(value: unknown, name: string): number {
  const text = String(value);
  if (!/^\d{1,9}$/.test(text)) {
    throw new GraphQLError(`Argument '${name}' must be a numeric id, got '${text}'.`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return Number(text);
}
const optionalId = (value: unknown, name: string) =>
  value === undefined || value === null ? undefined : idArg(value, name);

/** Wraps a resolver so that nothing is read before the caller's permission is known. */
function guarded<S, A, R>(
  resolve: (source: S, args: A, context: GraphqlContext) => R | Promise<R>,
): (source: S, args: A, context: GraphqlContext) => Promise<R> {
  return async (source, args, context) => {
    await context.authorize();
    return resolve(source, args, context);
  };
}

const VersionType = new GraphQLObjectType<GqlVersion, GraphqlContext>({
  name: 'ProductVersion',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: GraphQLString },
    status: { type: nn(GraphQLString) },
    effectiveDate: { type: GraphQLString },
  },
});

/** A product seen in one version (the version its risk types are read in). */
interface ProductInVersion extends GqlProduct {
  versionId: number | null;
}

const ProductType: GraphQLObjectType<ProductInVersion, GraphqlContext> = new GraphQLObjectType({
  name: 'Product',
  fields: (): GraphQLFieldConfigMap<ProductInVersion, GraphqlContext> => ({
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    parentProductId: { type: GraphQLID },
    settings: {
      type: GraphQLString,
      description: 'Product settings (renumberAt, terms, baseTerm) as JSON text.',
      resolve: guarded((p) => (p.settings == null ? null : JSON.stringify(p.settings))),
    },
    versions: { type: list(VersionType), resolve: guarded((p, _a, c) => c.source.versions(p.id)) },
    latestVersion: { type: VersionType, resolve: guarded((p, _a, c) => c.source.latestVersion(p.id)) },
    children: {
      type: list(ProductType),
      description: 'Child products (nested up to 3 levels).',
      resolve: guarded(async (p, _a, c) =>
        (await c.source.products({ parentProductId: p.id })).map((child) => ({ ...child, versionId: null })),
      ),
    },
    riskTypes: {
      type: list(RiskTypeType),
      args: { versionId: { type: GraphQLID } },
      resolve: guarded((p, a: { versionId?: unknown }, c) =>
        c.source.riskTypes(p.id, optionalId(a.versionId, 'versionId') ?? p.versionId),
      ),
    },
  }),
});

const LineType = new GraphQLObjectType<GqlLine, GraphqlContext>({
  name: 'Line',
  fields: () => ({
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    latestProduct: {
      type: ProductType,
      resolve: guarded(async (l, _a, c) => {
        const product = await c.source.latestProduct(l.id);
        return product && { ...product, versionId: null };
      }),
    },
    products: {
      type: list(ProductType),
      description: 'The root products of the line.',
      resolve: guarded(async (l, _a, c) =>
        (await c.source.products({ lineId: l.id, parentProductId: null })).map((p) => ({ ...p, versionId: null })),
      ),
    },
  }),
});

const ProductRefType = new GraphQLObjectType<{ id: number }, GraphqlContext>({
  name: 'ProductRef',
  fields: { id: { type: nn(GraphQLID) } },
});

/** What every row of a product definition shows: the product it comes from and own/inherited/overridden. */
const inheritance = {
  product: { type: nn(ProductRefType), resolve: (row: { productId: number }) => ({ id: row.productId }) },
  inheritanceStatus: { type: nn(GraphQLString) },
};

const FieldTypeType = new GraphQLObjectType<{ id: string; name: string; displayName: string }, GraphqlContext>({
  name: 'RiskFieldType',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    displayName: { type: nn(GraphQLString) },
  },
});

const FIELD_TYPE_NAMES: Record<string, string> = {
  date: 'Date',
  boolean: 'Yes / No',
  string: 'Text',
  number: 'Number',
  enum: 'Choice',
  computed: 'Computed',
};

const RiskFieldType = new GraphQLObjectType<GqlRiskField, GraphqlContext>({
  name: 'RiskField',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    default: { type: GraphQLString },
    defaultLabel: { type: GraphQLString },
    source: { type: GraphQLString },
    order: { type: nn(GraphQLInt) },
    format: { type: GraphQLString },
    options: { type: new GraphQLList(nn(GraphQLString)) },
    type: {
      type: nn(FieldTypeType),
      resolve: (f) => ({ id: f.type, name: f.type, displayName: FIELD_TYPE_NAMES[f.type] ?? f.type }),
    },
    ...inheritance,
  },
});

const LimitType = new GraphQLObjectType<GqlLimit, GraphqlContext>({
  name: 'RiskItemLimit',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    kind: { type: nn(GraphQLString), description: 'limit or deductible' },
    default: { type: GraphQLString },
  },
});

const RiskItemType = new GraphQLObjectType<GqlRiskItem, GraphqlContext>({
  name: 'RiskItem',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    presence: { type: nn(GraphQLString) },
    type: { type: GraphQLString },
    fullyEarned: { type: nn(GraphQLBoolean) },
    order: { type: nn(GraphQLInt) },
    ...inheritance,
    limits: { type: list(LimitType) },
  },
});

const RateTableType = new GraphQLObjectType<GqlRateTable, GraphqlContext>({
  name: 'RateTable',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    default: { type: GraphQLString },
    validityState: { type: nn(GraphQLString) },
    rowsCount: { type: nn(GraphQLInt) },
    ...inheritance,
  },
});

const CalculationType = new GraphQLObjectType<GqlCalculation, GraphqlContext>({
  name: 'Calculation',
  fields: {
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    calculation: { type: nn(GraphQLString), description: 'The formula.' },
    order: { type: nn(GraphQLInt) },
    riskItem: {
      type: new GraphQLObjectType({ name: 'RiskItemRef', fields: { id: { type: nn(GraphQLID) } } }),
      resolve: (c) => (c.riskItemId === null ? null : { id: c.riskItemId }),
    },
    ...inheritance,
  },
});

const RiskTypeType: GraphQLObjectType<GqlRiskType, GraphqlContext> = new GraphQLObjectType({
  name: 'RiskType',
  fields: (): GraphQLFieldConfigMap<GqlRiskType, GraphqlContext> => ({
    id: { type: nn(GraphQLID) },
    name: { type: nn(GraphQLString) },
    label: { type: GraphQLString },
    sequence: { type: GraphQLString },
    parentRiskType: {
      type: RiskTypeType,
      resolve: guarded(async (t, _a, c) => {
        if (t.parentRiskTypeId === null) return null;
        const all = await c.source.riskTypes(t.productId, t.versionId);
        return all.find((r) => r.id === t.parentRiskTypeId) ?? null;
      }),
    },
    children: {
      type: list(RiskTypeType),
      description: 'Child risk types (the tree nests up to 7 levels).',
      resolve: guarded(async (t, _a, c) =>
        (await c.source.riskTypes(t.productId, t.versionId)).filter((r) => r.parentRiskTypeId === t.id),
      ),
    },
    fields: { type: list(RiskFieldType), resolve: guarded((t, _a, c) => c.source.riskFields(t)) },
    items: { type: list(RiskItemType), resolve: guarded((t, _a, c) => c.source.riskItems(t)) },
    rateTables: { type: list(RateTableType), resolve: guarded((t, _a, c) => c.source.rateTables(t)) },
    calculations: { type: list(CalculationType), resolve: guarded((t, _a, c) => c.source.calculations(t)) },
  }),
});

const RiskTypeStateType = new GraphQLObjectType<
  { product: ProductInVersion; version: GqlVersion | null; riskTypes: GqlRiskType[] },
  GraphqlContext
>({
  name: 'RiskTypeState',
  fields: {
    product: { type: nn(ProductType) },
    version: { type: VersionType },
    cacheKey: {
      type: nn(GraphQLString),
      description: 'Product name and version without dashes: what the client caches the state by.',
      resolve: (s) => `${s.product.name}${s.version?.id ?? ''}`.replaceAll('-', ''),
    },
    riskTypes: { type: list(RiskTypeType), description: 'Every risk type of the version, parents first.' },
  },
});

async function productBy(
  c: GraphqlContext,
  args: { productId?: unknown; productName?: unknown; versionId?: unknown },
): Promise<ProductInVersion | null> {
  const id = optionalId(args.productId, 'productId');
  const name = typeof args.productName === 'string' ? args.productName : undefined;
  if (id === undefined && name === undefined) {
    throw new GraphQLError('Give productId or productName.', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  const product = await c.source.product(id !== undefined ? { id } : { name: name! });
  return product && { ...product, versionId: optionalId(args.versionId, 'versionId') ?? null };
}

const productArgs = {
  productId: { type: GraphQLID },
  productName: { type: GraphQLString },
  versionId: { type: GraphQLID },
};

const QueryType = new GraphQLObjectType<unknown, GraphqlContext>({
  name: 'Query',
  fields: {
    lines: {
      type: list(LineType),
      args: { name: { type: GraphQLString } },
      resolve: guarded((_s, a: { name?: string }, c) => c.source.lines({ name: a.name })),
    },
    line: {
      type: LineType,
      description: 'GetLine, GetLineLatestProduct: a line by name (or id).',
      args: { name: { type: GraphQLString }, id: { type: GraphQLID } },
      resolve: guarded((_s, a: { name?: string; id?: unknown }, c) => {
        const id = optionalId(a.id, 'id');
        if (id === undefined && a.name === undefined) {
          throw new GraphQLError('Give the line name or id.', { extensions: { code: 'BAD_USER_INPUT' } });
        }
        return c.source.line(id !== undefined ? { id } : { name: a.name! });
      }),
    },
    product: {
      type: ProductType,
      description: 'GetProduct (productId), GetProductByName (productName); versionId scopes riskTypes.',
      args: productArgs,
      resolve: guarded((_s, a, c) => productBy(c, a)),
    },
    riskType: {
      type: RiskTypeType,
      description: 'GetRiskType(riskTypeName, productId, versionId).',
      args: { name: { type: nn(GraphQLString) }, ...productArgs },
      resolve: guarded(async (_s, a: { name: string; versionId?: unknown }, c) => {
        const product = await productBy(c, a);
        if (!product) return null;
        const types = await c.source.riskTypes(product.id, product.versionId);
        return types.find((t) => t.name === a.name) ?? null;
      }),
    },
    productRiskTypes: {
      type: list(RiskTypeType),
      description: 'GetProductRiskTypes: the root risk types of a product version (children nest below).',
      args: productArgs,
      resolve: guarded(async (_s, a, c) => {
        const product = await productBy(c, a);
        if (!product) return [];
        return (await c.source.riskTypes(product.id, product.versionId)).filter((t) => t.parentRiskTypeId === null);
      }),
    },
    riskTypesByProduct: {
      type: list(RiskTypeType),
      description: 'GetRiskTypesByProduct: every risk type of a product version, parents first.',
      args: productArgs,
      resolve: guarded(async (_s, a, c) => {
        const product = await productBy(c, a);
        return product ? c.source.riskTypes(product.id, product.versionId) : [];
      }),
    },
    riskTypeState: {
      type: RiskTypeStateType,
      description: 'GetRiskTypeState: a product version with all its risk types.',
      args: productArgs,
      resolve: guarded(async (_s, a, c) => {
        const product = await productBy(c, a);
        if (!product) return null;
        const versions = await c.source.versions(product.id);
        const version =
          product.versionId === null
            ? await c.source.latestVersion(product.id)
            : (versions.find((v) => v.id === product.versionId) ?? null);
        if (product.versionId !== null && !version) return null;
        return { product, version, riskTypes: await c.source.riskTypes(product.id, version?.id ?? null) };
      }),
    },
  },
});

export const linesGraphqlSchema = new GraphQLSchema({ query: QueryType });
