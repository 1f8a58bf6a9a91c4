import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product, productVersion } from '../../server/tables.js';
import { FORBIDDEN_MESSAGE } from '../../server/graphql/schema.js';
import { expectStatus, startLinesServer, type LinesTestServer } from '../catalog/lines-test-server.js';
import { demoProduct } from './rating-test-data.js';

/** The lines GraphQL endpoints over HTTP on the seeded catalog, with the access checks of REST. */
let server: LinesTestServer;
let home: Awaited<ReturnType<typeof demoProduct>>;
let texasId: number;
let texasVersion: number;
beforeAll(async () => {
  server = await startLinesServer();
  home = await demoProduct(server.db, 'homeowners');
  const [texas] = await server.db.select().from(product).where(eq(product.name, 'homeowners_tx'));
  texasId = texas!.id;
  const [version] = await server.db.select().from(productVersion).where(eq(productVersion.productId, texasId));
  texasVersion = version!.id;
});
afterAll(async () => server?.close());

const FRAGMENTS = `
  fragment RateTableFields on RateTable {
    id name label default validityState rowsCount product { id } inheritanceStatus
  }
  fragment CalculationFields on Calculation {
    id name calculation order riskItem { id } product { id } inheritanceStatus
  }
  fragment RiskTypeFields on RiskType {
    id name label sequence
    parentRiskType { id name }
    fields { id name label default order type { name displayName } product { id } inheritanceStatus }
    items { id name presence fullyEarned limits { kind default } inheritanceStatus }
    rateTables { ...RateTableFields }
    calculations { ...CalculationFields }
  }`;

const graphql = (body: unknown, caller = server.underwriter, path = '/api/graphql/lines') => caller.post(path, body);

describe('lines GraphQL', () => {
  it('answers 401 without a token', async () => {
    const response = await server.as(null).post('/api/graphql/lines', { query: '{ lines { id } }' });
    expect(response.status).toBe(401);
  });

  it('answers GetLineLatestProduct on both endpoints', async () => {
    const request = {
      query: `query GetLineLatestProduct($lineName: String!) {
        line(name: $lineName) { id name latestProduct { id name latestVersion { id } } }
      }`,
      variables: { lineName: 'homeowners' },
      operationName: 'GetLineLatestProduct',
    };
    const lines = await expectStatus(graphql(request), 200);
    expect(lines.errors).toBeUndefined();
    expect(lines.data.line).toMatchObject({
      name: 'homeowners',
      latestProduct: { id: String(home.id), name: 'homeowners', latestVersion: { id: String(home.published) } },
    });
    const quote = await expectStatus(graphql(request, server.underwriter, '/api/quote/graphql/'), 200);
    expect(quote).toEqual(lines);
  });

  it('answers GetRiskType with inheritance from the parent product', async () => {
    const body = await expectStatus(
      graphql({
        query: `${FRAGMENTS}
          query GetRiskType($riskTypeName: String!, $productId: ID!, $versionId: ID) {
            riskType(name: $riskTypeName, productId: $productId, versionId: $versionId) { ...RiskTypeFields }
          }`,
        variables: { riskTypeName: 'home', productId: String(texasId), versionId: String(texasVersion) },
      }),
      200,
    );
    expect(body.errors).toBeUndefined();
    const riskType = body.data.riskType;
    expect(riskType).toMatchObject({ name: 'home', parentRiskType: null });
    const territory = riskType.rateTables.find((t: { name: string }) => t.name === 'territory_factor');
    expect(territory).toMatchObject({
      inheritanceStatus: 'overridden',
      product: { id: String(texasId) },
      rowsCount: 3,
      validityState: 'valid',
      default: '1.05',
    });
    const zip = riskType.fields.find((f: { name: string }) => f.name === 'zip');
    expect(zip).toMatchObject({
      inheritanceStatus: 'inherited',
      product: { id: String(home.id) },
      type: { name: 'string' },
    });
    const premium = riskType.calculations.find((c: { name: string }) => c.name === 'jewelry_premium');
    expect(premium.riskItem).not.toBeNull();
    const dwelling = riskType.items.find((i: { name: string }) => i.name === 'dwelling');
    expect(dwelling).toMatchObject({
      presence: 'required',
      limits: [
        { kind: 'limit', default: '250000' },
        { kind: 'deductible', default: '1000' },
      ],
    });
  });

  it('answers GetProduct, GetProductByName, GetProductRiskTypes, GetRiskTypesByProduct and GetRiskTypeState', async () => {
    const body = await expectStatus(
      graphql({
        query: `query All($productId: ID!, $versionId: ID!) {
          byId: product(productId: $productId) {
            id name parentProductId versions { id status }
            children { id name parentProductId children { id } }
          }
          byName: product(productName: "homeowners_tx") { id parentProductId }
          roots: productRiskTypes(productId: $productId, versionId: $versionId) { name children { name parentRiskType { name } } }
          flat: riskTypesByProduct(productName: "homeowners", versionId: $versionId) { name }
          state: riskTypeState(productId: $productId, versionId: $versionId) { cacheKey version { id status } riskTypes { name } }
        }`,
        variables: { productId: String(home.id), versionId: String(home.draft) },
      }),
      200,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.byId).toMatchObject({
      parentProductId: null,
      versions: [
        { id: String(home.published), status: 'published' },
        { id: String(home.draft), status: 'draft' },
      ],
      children: [{ id: String(texasId), name: 'homeowners_tx', parentProductId: String(home.id), children: [] }],
    });
    expect(body.data.byName).toEqual({ id: String(texasId), parentProductId: String(home.id) });
    expect(body.data.roots).toEqual([
      { name: 'home', children: [{ name: 'scheduled_article', parentRiskType: { name: 'home' } }] },
    ]);
    expect(body.data.flat).toEqual([{ name: 'home' }, { name: 'scheduled_article' }]);
    expect(body.data.state).toMatchObject({
      cacheKey: `homeowners${home.draft}`,
      version: { status: 'draft' },
      riskTypes: [{ name: 'home' }, { name: 'scheduled_article' }],
    });
  });

  it('works over GET', async () => {
    const query = encodeURIComponent('query GetLine($n: String!) { line(name: $n) { name } }');
    const variables = encodeURIComponent(JSON.stringify({ n: 'personal_auto' }));
    const body = await expectStatus(
      server.underwriter.get(`/api/graphql/lines?query=${query}&variables=${variables}`),
      200,
    );
    expect(body).toEqual({ data: { line: { name: 'personal_auto' } } });
  });

  it('refuses a caller without the lines permission with the 403 message', async () => {
    const body = await expectStatus(
      graphql({ query: '{ line(name: "homeowners") { id name } }' }, server.as('agent@agency.test')),
      200,
    );
    expect(body.data).toEqual({ line: null });
    expect(body.errors[0]).toMatchObject({ message: FORBIDDEN_MESSAGE, extensions: { code: 'FORBIDDEN' } });
  });

  it('refuses bad and abusive queries with 400', async () => {
    const syntax = await expectStatus(graphql({ query: '{ line(name: "x") { id ' }), 400);
    expect(syntax.errors[0].message).toMatch(/^Syntax Error/);
    const unknown = await expectStatus(graphql({ query: '{ line(name: "x") { password } }' }), 400);
    expect(unknown.errors[0].message).toBe('Cannot query field "password" on type "Line".');
    let nested = 'name';
    for (let i = 0; i < 20; i++) nested = `children { ${nested} }`;
    const deep = await expectStatus(
      graphql({ query: `query Deep { productRiskTypes(productName: "homeowners") { ${nested} } }` }),
      400,
    );
    expect(deep.errors[0].message).toBe("'Deep' is nested 22 levels deep; at most 15 are allowed.");
    await expectStatus(graphql({ query: '' }), 400);
  });
});
