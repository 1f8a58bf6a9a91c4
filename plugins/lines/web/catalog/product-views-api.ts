import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, field, LINES_API, listOf, num, str, versionQuery, type Json } from './api-shared.js';

/** Product differences, product mappings and exports (spec 7). */

export const productViewPaths = {
  differences: (p: number) => `${LINES_API}/products/${p}/differences/`,
  mapping: (p: number) => `${LINES_API}/product-mappings/${p}/`,
  exports: (p: number) => `${LINES_API}/products/${p}/exports/`,
  export: (p: number, e: number) => `${LINES_API}/products/${p}/exports/${e}/`,
  exportDownload: (p: number, e: number) => `${LINES_API}/products/${p}/exports/${e}/download/`,
};

export interface FieldChange {
  name: string;
  oldValue: unknown;
  newValue: unknown;
  options: unknown;
}

export interface ChangeGroup {
  fields: FieldChange[];
  items: FieldChange[];
}

export interface RiskTypeDifference {
  riskType: string;
  label: string | null;
  /** 'added' / 'removed' when the whole risk type is new or gone, else 'changed'. */
  status: string | null;
  product: string | null;
  added: ChangeGroup;
  removed: ChangeGroup;
  changed: ChangeGroup;
}

function toGroup(raw: unknown): ChangeGroup {
  const r = asRecord(raw);
  return {
    fields: listOf(r.fields).map((f) => {
      const x = asRecord(f);
      return {
        name: str(x.name) ?? str(x.field) ?? '',
        oldValue: field(x, 'old_value', 'oldValue'),
        newValue: field(x, 'new_value', 'newValue'),
        options: x.options,
      };
    }),
    items: listOf(r.items).map((i) => {
      const x = asRecord(i);
      return {
        name: str(x.name) ?? (typeof i === 'string' ? i : ''),
        oldValue: field(x, 'old_value', 'oldValue'),
        newValue: field(x, 'new_value', 'newValue'),
        options: undefined,
      };
    }),
  };
}

/** Accepts a list of per-risk-type entries or an object keyed by risk type name. */
export function toDifferences(body: unknown): RiskTypeDifference[] {
  const record = asRecord(body);
  const container = record.differences ?? record.risk_types ?? record.riskTypes ?? body;
  const entries: [string | null, unknown][] = Array.isArray(container)
    ? container.map((e) => [null, e])
    : Object.entries(asRecord(container));
  return entries.map(([key, raw]) => {
    const r = asRecord(raw);
    const rt = field(r, 'risk_type', 'riskType', 'name');
    return {
      riskType: str(rt) ?? str(asRecord(rt).name) ?? key ?? '',
      label: str(r.label),
      status: str(r.status),
      product: str(field(r, 'product', 'product_name')),
      added: toGroup(r.added),
      removed: toGroup(r.removed),
      changed: toGroup(r.changed),
    };
  });
}

export function useDifferences(productId: number, versionId: number | null, includeDescendants: boolean) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'differences', productId, versionId, includeDescendants],
    queryFn: async ({ signal }) =>
      toDifferences(
        await api.get(productViewPaths.differences(productId), {
          query: { ...versionQuery(versionId), include_descendants: includeDescendants },
          signal,
        }),
      ),
  });
}

export interface MappingEntry {
  sources: string[];
  targets: string[];
  operation: string;
  /** What an `other` operation does (kept as the server stores it). */
  description?: string;
}

/** Per risk type name, its field entries. */
export type ProductMapping = Record<string, { fields: MappingEntry[] }>;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((v) => String(v)) : typeof value === 'string' && value ? [value] : [];

export function toMapping(body: unknown): ProductMapping {
  const mapping = asRecord(asRecord(body).mapping ?? body);
  const result: ProductMapping = {};
  for (const [riskType, raw] of Object.entries(mapping)) {
    result[riskType] = {
      fields: listOf(asRecord(raw).fields).map((e) => {
        const x = asRecord(e);
        const entry: MappingEntry = {
          sources: strings(x.sources),
          targets: strings(x.targets),
          operation: str(x.operation) ?? 'map',
        };
        if (typeof x.description === 'string') entry.description = x.description;
        return entry;
      }),
    };
  }
  return result;
}

export function useMapping(productId: number, versionId: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'mapping', productId, versionId],
    queryFn: async ({ signal }) =>
      toMapping(await api.get(productViewPaths.mapping(productId), { query: versionQuery(versionId), signal })),
  });
}

export const saveMapping = (
  api: Pick<ApiClient, 'put'>,
  productId: number,
  versionId: number,
  mapping: ProductMapping,
) => api.put<Json>(productViewPaths.mapping(productId), { mapping }, { query: versionQuery(versionId) });

export interface ProductExport {
  id: number;
  status: string;
  fileName: string | null;
  createdAt: string | null;
  versionId: number | null;
}

export function toExport(raw: unknown): ProductExport {
  const r = asRecord(raw);
  return {
    id: num(r.id) ?? 0,
    status: str(r.status) ?? 'pending',
    fileName: str(field(r, 'file_name', 'fileName')),
    createdAt: str(field(r, 'created_at', 'createdAt')),
    versionId: num(field(r, 'product_version_id', 'version_id', 'productVersionId')),
  };
}

export function useExports(productId: number, versionId: number | null) {
  const api = useApiClient();
  return useQuery<ProductExport[]>({
    queryKey: ['lines', 'exports', productId, versionId],
    // A pending export turns ready on the server's side: look again until none is pending.
    refetchInterval: (query) => ((query.state.data ?? []).some((e) => e.status === 'pending') ? 3000 : false),
    queryFn: async ({ signal }) =>
      listOf(await api.get(productViewPaths.exports(productId), { query: versionQuery(versionId), signal })).map(
        toExport,
      ),
  });
}

export const startExport = (api: Pick<ApiClient, 'post'>, productId: number, versionId: number) =>
  api.post<Json>(productViewPaths.exports(productId), {}, { query: versionQuery(versionId) });

/** The export's file through the API client (bearer token), saved by the browser. */
export async function downloadExport(api: Pick<ApiClient, 'request'>, productId: number, e: ProductExport) {
  const response = await api.request<unknown>(productViewPaths.export(productId, e.id), {
    query: { download: true, ...versionQuery(e.versionId) },
  });
  const text = typeof response === 'string' ? response : JSON.stringify(response, null, 2);
  const blob = new Blob([text], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = e.fileName ?? `product-${productId}-export-${e.id}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useProductViewsChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['lines'] });
}
