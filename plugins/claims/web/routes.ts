import { createRouteRef } from '@atrium/sdk';

/**
 * The Claims module's pages (spec "Claims screens" route names). A claim's workspace is addressed
 * by the claim's number (the spec looks claims up by number: 'Claim {n} not found.'); the FNOL
 * wizard by the FNOL number of its draft once it has been saved.
 */
export const claimsDashboardRoute = createRouteRef({ name: 'claims:dashboard', path: '/claims' });
export const claimsFnolRoute = createRouteRef({ name: 'claims:fnol', path: '/claims/fnol/:fnolNumber?' });
export const claimsAssignRoute = createRouteRef({ name: 'claims:assign-claims', path: '/claims/assign-claims' });

export const claimsLossDetailRoute = createRouteRef({
  name: 'claims:loss-detail',
  path: '/claims/:claimNumber/details',
});
export const claimsExposuresRoute = createRouteRef({
  name: 'claims:exposures',
  path: '/claims/:claimNumber/exposures',
});
export const claimsExposureDetailsRoute = createRouteRef({
  name: 'claims:claimants:exposures:details',
  path: '/claims/:claimNumber/claimants/:claimant_number/exposures/:exposure_number',
});
export const claimsAccountingRoute = createRouteRef({
  name: 'claims:accounting',
  path: '/claims/:claimNumber/accounting',
});
export const claimsPartiesRoute = createRouteRef({ name: 'claims:parties', path: '/claims/:claimNumber/parties' });
export const claimsAttachmentsRoute = createRouteRef({
  name: 'claims:attachments',
  path: '/claims/:claimNumber/attachments',
});
export const claimsInjurySummaryRoute = createRouteRef({
  name: 'claims:injury-summary',
  path: '/claims/:claimNumber/injuries',
});
export const claimsRiskTypesRoute = createRouteRef({
  name: 'claims:risks:types',
  path: '/claims/:claimNumber/risks/:risk_type_group_name',
});

export const claimsAdminSetupRoute = createRouteRef({ name: 'claims:admin-setup', path: '/claims/admin-setup' });
export const claimsAdminMockPoliciesRoute = createRouteRef({
  name: 'claims:admin-setup:mock-policies',
  path: '/claims/admin-setup/mock-policies',
});
export const claimsAdminPerilsRoute = createRouteRef({
  name: 'claims:admin-setup:perils',
  path: '/claims/admin-setup/perils',
});
export const claimsAdminTagsRoute = createRouteRef({
  name: 'claims:admin-setup:tags',
  path: '/claims/admin-setup/tags',
});
export const claimsAdminProductsRoute = createRouteRef({
  name: 'claims:admin-setup:products',
  path: '/claims/admin-setup/products',
});
export const claimsAdminPaymentProcessingRoute = createRouteRef({
  name: 'claims:admin-setup:payment-processing',
  path: '/claims/admin-setup/payment-processing',
});
export const claimsAdminManualItemsRoute = createRouteRef({
  name: 'claims:admin-setup:manual-items',
  path: '/claims/admin-setup/manual-items',
});
export const claimsAdminImportHistoricalClaimsRoute = createRouteRef({
  name: 'claims:admin-setup:import-historical-claims',
  path: '/claims/admin-setup/import-historical-claims',
});

/** The workspace tabs' routes, in tab order; the `when` clauses of claim commands list them. */
export const CLAIM_WORKSPACE_ROUTES = [
  claimsLossDetailRoute,
  claimsExposuresRoute,
  claimsExposureDetailsRoute,
  claimsAccountingRoute,
  claimsPartiesRoute,
  claimsAttachmentsRoute,
  claimsInjurySummaryRoute,
  claimsRiskTypesRoute,
] as const;
