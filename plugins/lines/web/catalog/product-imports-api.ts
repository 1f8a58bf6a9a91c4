import { useQuery } from '@tanstack/react-query';
import { useApiClient, type ApiClient } from '@atrium/sdk';
import { asRecord, field, LINES_API, listOf, num, str, type Json } from './api-shared.js';
import { fetchLineName, linesPaths, toProduct } from './lines-api.js';

/** Product imports (server: plugins/lines/server/transfer/routes.ts). */

export interface ProductImport {
  id: number;
  status: string;
  fileName: string | null;
  /** The product the document names (only in the upload's answer). */
  productName: string | null;
  productId: number | null;
  productVersionId: number | null;
  overwrite: boolean;
  errors: string[];
}

export const productImportPaths = {
  imports: `${LINES_API}/product-imports/`,
  one: (id: number) => `${LINES_API}/product-imports/${id}/`,
  run: (id: number) => `${LINES_API}/product-imports/${id}/import/`,
};

export function toProductImport(raw: unknown): ProductImport {
  const r = asRecord(raw);
  return {
    id: num(r.id) ?? 0,
    status: str(r.status) ?? 'uploaded',
    fileName: str(field(r, 'file_name', 'fileName')),
    productName: str(field(r, 'product_name', 'productName')),
    productId: num(field(r, 'product_id', 'productId')),
    productVersionId: num(field(r, 'product_version_id', 'productVersionId')),
    overwrite: r.overwrite === true,
    errors: listOf(r.errors).map((e) => (typeof e === 'string' ? e : (str(asRecord(e).detail) ?? JSON.stringify(e)))),
  };
}

/** Uploads a product export (JSON) in the form key `file`; the server checks it at once. */
export async function uploadProductImport(api: Pick<ApiClient, 'post'>, file: File): Promise<ProductImport> {
  const form = new FormData();
  form.append('file', file);
  return toProductImport(await api.post<Json>(productImportPaths.imports, form));
}

export async function runProductImport(
  api: Pick<ApiClient, 'post'>,
  id: number,
  overwrite: boolean,
): Promise<ProductImport> {
  return toProductImport(await api.post<Json>(productImportPaths.run(id), { overwrite }));
}

export function useProductImport(id: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'product-imports', id],
    enabled: id !== null,
    queryFn: async ({ signal }) => toProductImport(await api.get<Json>(productImportPaths.one(id!), { signal })),
  });
}

/** The line name of an imported product, to link to its line overview. */
export function useProductLineName(productId: number | null) {
  const api = useApiClient();
  return useQuery({
    queryKey: ['lines', 'product-line-name', productId],
    enabled: productId !== null,
    queryFn: async ({ signal }) => {
      const product = toProduct(await api.get<Json>(linesPaths.product(productId!), { signal }));
      if (product.lineId === null) return null;
      return fetchLineName(api, product.lineId, signal);
    },
  });
}
