import {
  claimsAdminManualItemsRoute,
  claimsAdminMockPoliciesRoute,
  claimsAdminPaymentProcessingRoute,
  claimsAdminPerilsRoute,
  claimsAdminProductsRoute,
  claimsAdminTagsRoute,
  claimsAdminImportHistoricalClaimsRoute,
} from '../routes.js';

/**
 * The admin setup modules (spec: Mock Policies Maintenance, Manual Items, Perils, Payment
 * Processing, Tag Maintenance, Products Maintenance, Import Historical Claims). Only the modules
 * that are built are listed; the others are absent until they exist (docs/claims-screens.md).
 */
export interface AdminModule {
  title: string;
  description: string;
  to: string;
}

export const ADMIN_MODULES: AdminModule[] = [
  {
    title: 'Mock Policies Maintenance',
    description: 'Policies, policy types and statuses the FNOL policy search finds.',
    to: claimsAdminMockPoliciesRoute.link({}),
  },
  {
    title: 'Manual Items',
    description: 'Items and limits an adjuster may add when the policy does not list them.',
    to: claimsAdminManualItemsRoute.link({}),
  },
  { title: 'Perils', description: 'The perils a loss can be reported under.', to: claimsAdminPerilsRoute.link({}) },
  {
    title: 'Payment Processing',
    description: 'Issue approved payments in batches, with check numbers and a CSV export.',
    to: claimsAdminPaymentProcessingRoute.link({}),
  },
  { title: 'Tag Maintenance', description: 'Tags for claims and exposures.', to: claimsAdminTagsRoute.link({}) },
  {
    title: 'Products Maintenance',
    description: 'The claims products, one per line.',
    to: claimsAdminProductsRoute.link({}),
  },
  {
    title: 'Import Historical Claims',
    description: 'Load closed and open claims with their reserves, payments and recoveries from the old system.',
    to: claimsAdminImportHistoricalClaimsRoute.link({}),
  },
];

/** The setup page's search: a case-insensitive match anywhere in the title. */
export function filterAdminModules(modules: readonly AdminModule[], search: string): AdminModule[] {
  const needle = search.trim().toLowerCase();
  return needle ? modules.filter((m) => m.title.toLowerCase().includes(needle)) : [...modules];
}
