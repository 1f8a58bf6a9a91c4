import { flattenProducts, latestVersion, type Line, type Product, type ProductVersion } from './lines-api.js';

/**
 * Which product version a page shows: the one `version_id` names, else the line's latest product's
 * latest version, else the first product's latest version.
 */
export function selectVersion(
  line: Line | null,
  products: Product[],
  versionId: number | null,
): { product: Product; version: ProductVersion | null } | null {
  const all = flattenProducts(products);
  if (versionId !== null) {
    const product = all.find((p) => p.versions.some((v) => v.id === versionId));
    if (product) return { product, version: product.versions.find((v) => v.id === versionId) ?? null };
  }
  const product = all.find((p) => p.id === line?.latestProduct?.id) ?? all[0];
  return product ? { product, version: latestVersion(product) } : null;
}

/** A product by name among a line's products, with the version to show. */
export function selectProductVersion(products: Product[], productName: string, versionId: number | null) {
  const product = flattenProducts(products).find((p) => p.name === productName) ?? null;
  if (!product) return null;
  const version =
    (versionId !== null ? product.versions.find((v) => v.id === versionId) : undefined) ?? latestVersion(product);
  return { product, version };
}
