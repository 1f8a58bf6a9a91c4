import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiRequestError, resourceClient, useApiClient, type ApiClient } from '@atrium/sdk';
import { lineShape } from '../../shared/line-shape.js';
import { asRecord, bool, field, LINES_API, listOf, num, str, versionQuery, type Json } from './api-shared.js';

/**
 * Lines, products and product versions (spec 7: lines/lines/, products/, versions). Lines are read
 * and created through the client of their shared declaration (`lineShape`); products and versions
 * are hand-written routes on the server, read here by hand too.
 */
export const linesClient = resourceClient(lineShape);

export type VersionStatus = 'draft' | 'published' | 'retired' | string;

export interface ProductVersion {
  id: number;
  /** The version's number within its product (1, 2, …); falls back to the id. */
  number: number;
  label: string | null;
  status: VersionStatus;
  effectiveDate: string | null;
  /** Statuses the server allows next, when it says; otherwise the screens offer the usual ones. */
  allowedStatuses: string[] | null;
  /** The server says the version can be reinstated (retired versions); null when it does not say. */
  canReinstate: boolean | null;
  deleted: boolean;
}

export interface Product {
  id: number;
  name: string;
  label: string | null;
  lineId: number | null;
  parentProductId: number | null;
  versions: ProductVersion[];
  children: Product[];
  settings: ProductSettings;
}

/** A product's settings (spec: renumberAt, terms in months, baseTerm — one of the terms). */
export interface ProductSettings {
  renumberAt: string | null;
  terms: number[];
  baseTerm: number | null;
}

export function toSettings(raw: unknown): ProductSettings {
  const r = asRecord(raw);
  return {
    renumberAt: str(r.renumberAt),
    terms: Array.isArray(r.terms) ? r.terms.map(num).filter((t): t is number => t !== null) : [],
    baseTerm: num(r.baseTerm),
  };
}

export interface Line {
  id: number;
  name: string;
  label: string | null;
  latestProduct: {
    id: number;
    name: string;
    latestVersionId: number | null;
    latestVersionStatus: string | null;
  } | null;
}

export const linesPaths = {
  products: `${LINES_API}/products/`,
  product: (productId: number) => `${LINES_API}/products/${productId}/`,
  versions: (productId: number) => `${LINES_API}/products/${productId}/versions/`,
  version: (productId: number, versionId: number) => `${LINES_API}/products/${productId}/versions/${versionId}/`,
  versionStatus: (productId: number, versionId: number) =>
    `${LINES_API}/products/${productId}/versions/${versionId}/status/`,
  versionReinstate: (productId: number, versionId: number) =>
    `${LINES_API}/products/${productId}/versions/${versionId}/reinstate/`,
};

export function toVersion(raw: unknown): ProductVersion {
  const r = asRecord(raw);
  const allowed = field(r, 'allowed_statuses', 'allowedStatuses', 'transitions');
  return {
    id: num(r.id) ?? 0,
    number: num(r.number) ?? num(r.id) ?? 0,
    label: str(r.label),
    status: str(r.status) ?? 'draft',
    effectiveDate: str(field(r, 'effective_date', 'effectiveDate')),
    allowedStatuses: Array.isArray(allowed) ? allowed.filter((s): s is string => typeof s === 'string') : null,
    canReinstate:
      typeof field(r, 'can_reinstate', 'canReinstate') === 'boolean'
        ? bool(field(r, 'can_reinstate', 'canReinstate'))
        : null,
    deleted: bool(field(r, 'deleted', 'is_deleted')) || field(r, 'deleted_at', 'deletedAt') != null,
  };
}

export function toProduct(raw: unknown): Product {
  const r = asRecord(raw);
  const children = field(r, 'children', 'child_products', 'childProducts');
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label),
    lineId: num(field(r, 'line_id', 'lineId', 'line')),
    parentProductId: num(field(r, 'parent_product_id', 'parentProductId', 'parent_product')),
    versions: listOf(r.versions).map(toVersion),
    children: Array.isArray(children) ? children.map(toProduct) : [],
    settings: toSettings(r.settings),
  };
}

export function toLine(raw: unknown): Line {
  const r = asRecord(raw);
  const latest = asRecord(field(r, 'latest_product', 'latestProduct'));
  const latestVersion = asRecord(field(latest, 'latest_version', 'latestVersion'));
  return {
    id: num(r.id) ?? 0,
    name: str(r.name) ?? '',
    label: str(r.label),
    latestProduct:
      latest.id === undefined
        ? null
        : {
            id: num(latest.id) ?? 0,
            name: str(latest.name) ?? '',
            latestVersionId: num(latestVersion.id) ?? num(field(latest, 'latest_version_id', 'latestVersionId')),
            latestVersionStatus: str(latestVersion.status),
          },
  };
}

/**
 * Nests a flat product list by parent (the spec's product tree, 3 levels); products the server
 * already nested keep their children.
 */
export function nestProducts(products: Product[]): Product[] {
  if (products.some((p) => p.children.length)) return products.filter((p) => p.parentProductId === null);
  const byParent = new Map<number | null, Product[]>();
  for (const product of products) {
    const key = products.some((p) => p.id === product.parentProductId) ? product.parentProductId : null;
    byParent.set(key, [...(byParent.get(key) ?? []), product]);
  }
  const build = (product: Product): Product => ({
    ...product,
    children: (byParent.get(product.id) ?? []).map(build),
  });
  return (byParent.get(null) ?? []).map(build);
}

export function flattenProducts(products: Product[]): Product[] {
  return products.flatMap((p) => [p, ...flattenProducts(p.children)]);
}

/** How a version is named on screen: its label ('2026.1'), else its number. */
export const versionName = (version: Pick<ProductVersion, 'label' | 'number'>) =>
  version.label ?? String(version.number);

/** The newest version: the highest id that is not deleted. */
export function latestVersion(product: Pick<Product, 'versions'>): ProductVersion | null {
  const live = product.versions.filter((v) => !v.deleted);
  return live.reduce<ProductVersion | null>((best, v) => (best === null || v.id > best.id ? v : best), null);
}

export const linesKeys = {
  all: ['lines'] as const,
  products: (lineId: number) => ['lines', 'products', lineId] as const,
  product: (productId: number, versionId: number | null) => ['lines', 'product', productId, versionId] as const,
};

/** Every line (the collection is unpaged) whose name contains `search`, in any case. */
export async function fetchLines(api: Pick<ApiClient, 'get'>, search: string, signal?: AbortSignal): Promise<Line[]> {
  const needle = search.trim();
  const { items } = await linesClient.list(api, { filters: { search: needle } }, signal);
  // The server matches names and labels; the lists and pickers match the name, which they show.
  return items.map(toLine).filter((line) => !needle || line.name.toLowerCase().includes(needle.toLowerCase()));
}

export function useLines(search: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: linesClient.keys.list({ filters: { search: search.trim() } }),
    queryFn: ({ signal }) => fetchLines(api, search, signal),
    // Keep the list on screen while a new filter loads.
    placeholderData: keepPreviousData,
  });
}

/** The line of that exact name (links name lines), or null. */
export async function fetchLineByName(api: Pick<ApiClient, 'get'>, name: string, signal?: AbortSignal) {
  if (!name.trim()) return null;
  try {
    const line = toLine((await linesClient.find(api, name, signal)).item);
    // The server also finds a line by id, or by name in another case; a link names it exactly.
    return line.name === name ? line : null;
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

/** The name of the line with that id. */
export async function fetchLineName(api: Pick<ApiClient, 'get'>, lineId: number, signal?: AbortSignal) {
  return toLine((await linesClient.find(api, String(lineId), signal)).item).name;
}

export async function fetchProducts(api: Pick<ApiClient, 'get'>, lineId: number, signal?: AbortSignal) {
  const body = await api.get(linesPaths.products, { query: { line_id: lineId }, signal });
  return listOf(body)
    .map(toProduct)
    .filter((p) => p.lineId === null || p.lineId === lineId);
}

/** A line by name with its products nested as a tree. */
export function useLineWithProducts(lineName: string) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'line-by-name', lineName],
    queryFn: async ({ signal }) => {
      const line = await fetchLineByName(api, lineName, signal);
      if (!line) return { line: null, products: [] as Product[] };
      return { line, products: nestProducts(await fetchProducts(api, line.id, signal)) };
    },
  });
}

/** After any catalog change: lines (their latest product changes too), products and versions. */
export function useLinesChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: linesKeys.all }),
      queryClient.invalidateQueries({ queryKey: linesClient.keys.all }),
    ]);
}

export const createLine = (api: Pick<ApiClient, 'post'>, values: { name: string; label?: string }) =>
  linesClient.create(api, { attributes: values });

export const createProduct = (
  api: Pick<ApiClient, 'post'>,
  values: { name: string; label?: string; line_id: number; parent_product_id: number | null; effective_date?: string },
) => api.post<Json>(linesPaths.products, values);

export const updateProductSettings = (
  api: Pick<ApiClient, 'patch'>,
  productId: number,
  settings: { renumberAt?: string; terms: number[]; baseTerm: number },
) => api.patch<Json>(linesPaths.product(productId), { settings });

export const deleteProduct = (api: Pick<ApiClient, 'delete'>, productId: number) =>
  api.delete(linesPaths.product(productId));

export const createVersion = (api: Pick<ApiClient, 'post'>, productId: number, values: { effective_date: string }) =>
  api.post<Json>(linesPaths.versions(productId), values);

export const updateVersion = (
  api: Pick<ApiClient, 'put'>,
  productId: number,
  versionId: number,
  values: { effective_date: string },
) => api.put<Json>(linesPaths.version(productId, versionId), values);

export const changeVersionStatus = (
  api: Pick<ApiClient, 'patch'>,
  productId: number,
  versionId: number,
  status: string,
  /** Publish although the before-publish impact check listed what would break. */
  acknowledgeImpact = false,
) =>
  api.patch<Json>(
    linesPaths.versionStatus(productId, versionId),
    acknowledgeImpact ? { status, acknowledgeImpact } : { status },
  );

export const reinstateVersion = (api: Pick<ApiClient, 'post'>, productId: number, versionId: number) =>
  api.post<Json>(linesPaths.versionReinstate(productId, versionId), {});

export const deleteVersion = (api: Pick<ApiClient, 'delete'>, productId: number, versionId: number) =>
  api.delete(linesPaths.version(productId, versionId));

export { versionQuery };
