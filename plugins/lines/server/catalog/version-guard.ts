import { eq } from 'drizzle-orm';
import { badRequest, notFound, type Queryable } from '@atrium/sdk/server';
import { product, productVersion } from '../tables.js';

export interface VersionRow {
  id: number;
  productId: number;
  productName: string;
  productLabel: string;
  number: number;
  label: string;
  status: 'draft' | 'published' | 'retired';
}

/** The version with its product's name, or a 404 'Version 99 not found.' */
export async function findVersion(db: Queryable, versionId: number): Promise<VersionRow> {
  const [row] = await db
    .select({
      id: productVersion.id,
      productId: productVersion.productId,
      productName: product.name,
      productLabel: product.label,
      number: productVersion.number,
      label: productVersion.label,
      status: productVersion.status,
    })
    .from(productVersion)
    .innerJoin(product, eq(product.id, productVersion.productId))
    .where(eq(productVersion.id, versionId))
    .limit(1);
  if (!row) throw notFound(`Version ${versionId} not found.`);
  return row;
}

/**
 * Every write to a version's definition goes through this: only a draft is editable, published and
 * retired versions are read-only (spec: "A draft version is editable"). Throws 404 for an unknown
 * version and 400 naming the version and its status otherwise. Returns the version.
 */
export async function assertDraftVersion(db: Queryable, versionId: number): Promise<VersionRow> {
  const version = await findVersion(db, versionId);
  if (version.status !== 'draft') {
    throw badRequest(
      `Version ${version.number} of ${version.productLabel} is ${version.status}; only a draft version can be edited.`,
      { code: 'version_not_draft' },
    );
  }
  return version;
}
