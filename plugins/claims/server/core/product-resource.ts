import { defineResource } from '@atrium/sdk/server';
import { claimsPermission } from '../permissions.js';
import { CLAIMS_BASE } from './http-kit.js';
import type { product } from './tables.js';

export type ProductRow = typeof product.$inferSelect;

/** A claims product without its lookups (product-routes adds those as includes). */
export const productResource = defineResource<ProductRow>({
  type: 'product',
  readPermission: claimsPermission('product', 'read'),
  id: (row) => String(row.id),
  basePath: `${CLAIMS_BASE}/products/`,
  attributes: (row) => ({
    name: row.name,
    label: row.label,
    policy_type_name: row.policyTypeName,
    is_line: row.isLine,
    effective_from: row.effectiveFrom,
    effective_to: row.effectiveTo,
    configurations: row.configurations,
    claim_type: row.claimType,
    injury_type: row.injuryType,
  }),
});
