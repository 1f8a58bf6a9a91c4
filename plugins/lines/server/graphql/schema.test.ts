import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MAX_QUERY_DEPTH, runGraphql } from './execute.js';
import { forbiddenError, FORBIDDEN_MESSAGE, type GraphqlContext } from './schema.js';
import type { GqlRiskType, LinesGraphqlSource } from './source.js';

/** A small catalog held in memory: one line, a product with a child product, two versions. */
const riskTypes: GqlRiskType[] = [
  { id: 1, productId: 10, versionId: 101, name: 'home', label: 'Home', sequence: null, parentRiskTypeId: null },
  { id: 2, productId: 10, versionId: 101, name: 'article', label: 'Article', sequence: 'A', parentRiskTypeId: 1 },
  { id: 3, productId: 10, versionId: 102, name: 'home', label: 'Home (draft)', sequence: null, parentRiskTypeId: null },
];
const product = { id: 10, lineId: 1, name: 'ho3', label: 'HO-3', parentProductId: null, settings: { baseTerm: 12 } };
const child = { ...product, id: 11, name: 'ho3-tx', parentProductId: 10 };
const versions = [
  { id: 101, productId: 10, name: '2026.1', status: 'published', effectiveDate: '2026-01-01' },
  { id: 102, productId: 10, name: '2026.2', status: 'draft', effectiveDate: null },
];
const source: LinesGraphqlSource = {
  lines: async () => [{ id: 1, name: 'homeowners', label: 'Homeowners' }],
  line: async (by) => (by.name === 'homeowners' || by.id === 1 ? { id: 1, name: 'homeowners', label: null } : null),
  latestProduct: async () => product,
  products: async (f) =>
    [product, child].filter((p) => f.parentProductId === undefined || p.parentProductId === f.parentProductId),
  product: async (by) => [product, child].find((p) => p.id === by.id || p.name === by.name) ?? null,
  versions: async (id) => versions.filter((v) => v.productId === id),
  latestVersion: async (id) => versions.find((v) => v.productId === id && v.status === 'published') ?? null,
  riskTypes: async (productId, versionId) =>
    riskTypes.filter((t) => t.productId === productId && t.versionId === (versionId ?? 101)),
  riskFields: async (t) =>
    t.name === 'home'
      ? [
          {
            id: 5,
            name: 'zip',
            label: 'ZIP',
            default: null,
            source: null,
            order: 1,
            type: 'string',
            format: null,
            options: null,
            productId: 10,
            inheritanceStatus: 'own',
            defaultLabel: null,
          },
        ]
      : [],
  riskItems: async () => [],
  rateTables: async () => [
    {
      id: 7,
      name: 'territory',
      label: 'Territory',
      default: '1',
      validityState: 'valid',
      rowsCount: 4,
      productId: 10,
      inheritanceStatus: 'own',
    },
  ],
  calculations: async () => [
    {
      id: 9,
      name: 'premium',
      calculation: 'base * 2',
      order: 1,
      riskItemId: null,
      productId: 10,
      inheritanceStatus: 'own',
    },
  ],
};
const allowed: GraphqlContext = { source, authorize: async () => {} };
const refused: GraphqlContext = { source, authorize: async () => Promise.reject(forbiddenError()) };

describe('lines GraphQL schema', () => {
  it('answers GetLineLatestProduct', async () => {
    const result = await runGraphql(
      {
        query: `query GetLineLatestProduct($lineName: String!) {
          line(name: $lineName) { id name latestProduct { id name latestVersion { id } } }
        }`,
        variables: { lineName: 'homeowners' },
      },
      allowed,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      line: { id: '1', name: 'homeowners', latestProduct: { id: '10', name: 'ho3', latestVersion: { id: '101' } } },
    });
  });

  it('answers GetRiskType with the fragments, in the version asked for', async () => {
    const query = `
      fragment RateTableFields on RateTable { id name label default validityState rowsCount product { id } inheritanceStatus }
      fragment CalculationFields on Calculation { id name calculation order riskItem { id } product { id } inheritanceStatus }
      fragment RiskTypeFields on RiskType {
        id name label sequence parentRiskType { id name }
        fields { name type { name displayName } }
        rateTables { ...RateTableFields }
        calculations { ...CalculationFields }
      }
      query GetRiskType($riskTypeName: String!, $productId: ID!, $versionId: ID) {
        riskType(name: $riskTypeName, productId: $productId, versionId: $versionId) { ...RiskTypeFields }
      }`;
    const published = await runGraphql(
      { query, variables: { riskTypeName: 'article', productId: '10', versionId: '101' } },
      allowed,
    );
    expect(published.errors).toBeUndefined();
    expect(published.data!.riskType).toMatchObject({
      name: 'article',
      parentRiskType: { id: '1', name: 'home' },
      rateTables: [{ name: 'territory', rowsCount: 4, product: { id: '10' } }],
      calculations: [{ name: 'premium', calculation: 'base * 2', riskItem: null }],
    });
    const draft = await runGraphql(
      { query, variables: { riskTypeName: 'home', productId: '10', versionId: '102' } },
      allowed,
    );
    expect(draft.data!.riskType).toMatchObject({ label: 'Home (draft)', fields: [{ type: { displayName: 'Text' } }] });
  });

  it('nests products and risk types, and keys the risk type state by name and version', async () => {
    const result = await runGraphql(
      {
        query: `{
          product(productName: "ho3") { parentProductId versions { id status } children { name parentProductId } }
          productRiskTypes(productId: 10) { name children { name } }
          riskTypeState(productId: 10, versionId: 102) { cacheKey riskTypes { label } }
        }`,
      },
      allowed,
    );
    expect(result.data).toEqual({
      product: {
        parentProductId: null,
        versions: [
          { id: '101', status: 'published' },
          { id: '102', status: 'draft' },
        ],
        children: [{ name: 'ho3-tx', parentProductId: '10' }],
      },
      productRiskTypes: [{ name: 'home', children: [{ name: 'article' }] }],
      riskTypeState: { cacheKey: 'ho3102', riskTypes: [{ label: 'Home (draft)' }] },
    });
  });

  it('refuses a caller without the lines permission with the 403 message', async () => {
    const result = await runGraphql({ query: '{ line(name: "homeowners") { id } }' }, refused);
    expect(result.data).toEqual({ line: null });
    expect(result.errors![0]!.message).toBe(FORBIDDEN_MESSAGE);
    expect(result.errors![0]!.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses queries nested too deep, also through fragments', async () => {
    let nested = 'id';
    for (let i = 0; i < MAX_QUERY_DEPTH; i++) nested = `children { ${nested} }`;
    const deep = await runGraphql({ query: `query Abuse { productRiskTypes(productId: 10) { ${nested} } }` }, allowed);
    expect(deep.data).toBeUndefined();
    expect(deep.errors![0]!.message).toBe(
      `'Abuse' is nested ${MAX_QUERY_DEPTH + 2} levels deep; at most ${MAX_QUERY_DEPTH} are allowed.`,
    );
    let fragments = 'fragment F0 on RiskType { id }';
    for (let i = 1; i <= MAX_QUERY_DEPTH; i++) fragments += ` fragment F${i} on RiskType { children { ...F${i - 1} } }`;
    const viaFragments = await runGraphql(
      { query: `${fragments} { productRiskTypes(productId: 10) { ...F${MAX_QUERY_DEPTH} } }` },
      allowed,
    );
    expect(viaFragments.errors![0]!.extensions).toMatchObject({ code: 'QUERY_TOO_DEEP' });
  });

  it('allows the introspection query and rejects a bad id argument', async () => {
    const introspection = await runGraphql({ query: getIntrospectionQuery() }, allowed);
    expect(introspection.errors).toBeUndefined();
    const bad = await runGraphql({ query: '{ product(productId: "1; drop") { id } }' }, allowed);
    expect(bad.errors![0]!.message).toBe("Argument 'productId' must be a numeric id, got '1; drop'.");
  });
});
