import { defineQuickSearchProvider, type ApiClient } from '@atrium/sdk';
import { lineOverviewRoute, riskTypeDetailsRoute } from './routes.js';

/**
 * The catalogue clients load with the first search, not with the shell: they bring the lines
 * resource's shape and with it zod, which the first page must not carry (P3, docs/ui.md).
 */
const catalog = () => import('./catalog/lines-api.js');
const riskTypesApi = () => import('./catalog/risk-types-api.js');

/**
 * The palette's argument pickers: "Open Line", "Open Product Version" and "Open Risk Type" open one
 * of these quick searches to choose what to open. A provider's `search` gets no host services, so the
 * command that opens it lends the API client first (`lendApi`); the providers are opened only by
 * those commands.
 */
let lentApi: Pick<ApiClient, 'get'> | null = null;

export function lendApi(api: Pick<ApiClient, 'get'>) {
  lentApi = api;
}

/** The client the search was given (the palette's record search passes one), else the lent one. */
function api(given?: Pick<ApiClient, 'get'>): Pick<ApiClient, 'get'> {
  const client = given ?? lentApi;
  if (!client) throw new Error('Open this search from the command palette.');
  return client;
}

export const LINE_SEARCH_ID = 'lines.line';
export const PRODUCT_VERSION_SEARCH_ID = 'lines.product-version';
export const RISK_TYPE_SEARCH_ID = 'lines.risk-type';

const matches = (needle: string, ...values: (string | null | undefined)[]) =>
  values.some((v) => v?.toLowerCase().includes(needle.trim().toLowerCase()));

export const lineQuickSearch = defineQuickSearchProvider({
  id: LINE_SEARCH_ID,
  type: 'Line',
  typePlural: 'Lines',
  minLength: 1,
  search: async ({ query, signal, api: given }) => (await catalog()).fetchLines(api(given), query, signal),
  toItem: (line) => ({
    id: String(line.id),
    title: line.name,
    subtitle: line.latestProduct ? `Latest product: ${line.latestProduct.name}` : undefined,
    to: lineOverviewRoute.link({ lineName: line.name }),
  }),
});

interface VersionHit {
  lineName: string;
  productName: string;
  versionId: number;
  status: string;
  effectiveDate: string | null;
}

export const productVersionQuickSearch = defineQuickSearchProvider<VersionHit>({
  id: PRODUCT_VERSION_SEARCH_ID,
  type: 'Product Version',
  typePlural: 'Product Versions',
  minLength: 1,
  async search({ query, signal, api: given }) {
    const { fetchLines, fetchProducts, flattenProducts, nestProducts } = await catalog();
    const lines = await fetchLines(api(given), '', signal);
    const hits: VersionHit[] = [];
    for (const line of lines) {
      const products = flattenProducts(nestProducts(await fetchProducts(api(given), line.id, signal)));
      for (const product of products) {
        if (!matches(query, line.name, product.name, product.label)) continue;
        for (const version of [...product.versions].sort((a, b) => b.id - a.id))
          hits.push({
            lineName: line.name,
            productName: product.name,
            versionId: version.id,
            status: version.status,
            effectiveDate: version.effectiveDate,
          });
      }
    }
    return hits;
  },
  toItem: (hit) => ({
    id: String(hit.versionId),
    title: `${hit.productName} · version ${hit.versionId}`,
    subtitle: `${hit.lineName} · ${hit.status}${hit.effectiveDate ? ` · effective ${hit.effectiveDate}` : ''}`,
    to: lineOverviewRoute.link({ lineName: hit.lineName }, { version_id: hit.versionId }),
  }),
});

interface RiskTypeHit {
  lineName: string;
  productName: string;
  versionId: number;
  name: string;
  label: string;
  id: number;
}

export const riskTypeQuickSearch = defineQuickSearchProvider<RiskTypeHit>({
  id: RISK_TYPE_SEARCH_ID,
  type: 'Risk Type',
  typePlural: 'Risk Types',
  minLength: 1,
  async search({ query, signal, api: given }) {
    const [
      { fetchLines, fetchProducts, flattenProducts, latestVersion, nestProducts },
      { fetchRiskTypes, flattenRiskTypes },
    ] = await Promise.all([catalog(), riskTypesApi()]);
    const lines = await fetchLines(api(given), '', signal);
    const hits: RiskTypeHit[] = [];
    for (const line of lines) {
      // The latest version of each product: what a builder usually means by "the risk type".
      for (const product of flattenProducts(nestProducts(await fetchProducts(api(given), line.id, signal)))) {
        const version = latestVersion(product);
        if (!version) continue;
        for (const type of flattenRiskTypes(await fetchRiskTypes(api(given), product.id, version.id, signal)))
          if (matches(query, type.name, type.label))
            hits.push({ lineName: line.name, productName: product.name, versionId: version.id, ...type });
      }
    }
    return hits;
  },
  toItem: (hit) => ({
    id: `${hit.versionId}:${hit.id}`,
    title: hit.label || hit.name,
    subtitle: `${hit.lineName} · ${hit.productName} · version ${hit.versionId}`,
    to: riskTypeDetailsRoute.link(
      { lineName: hit.lineName, productName: hit.productName, riskTypeName: hit.name },
      { version_id: hit.versionId },
    ),
  }),
});
