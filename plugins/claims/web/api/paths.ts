/**
 * Every claims service path the screens call, relative to the API client's `/api` (spec "Claims
 * (base /api/claims, JSON:API, trailing slashes)"). Kept in one place so a server-side rename is a
 * one-line fix.
 */
const BASE = '/claims';

export const PATHS = {
  claims: `${BASE}/claims/`,
  claim: (id: string) => `${BASE}/claims/${id}/`,
  claimByNumber: (number: string) => `${BASE}/claims/by-number/${encodeURIComponent(number)}/`,
  fnolByNumber: (number: string) => `${BASE}/claims/fnol/${encodeURIComponent(number)}/`,
  submitFnol: (id: string) => `${BASE}/claims/${id}/submit/`,
  claimTags: (id: string) => `${BASE}/claims/${id}/relationships/tags/`,
  statuses: `${BASE}/claims/statuses/`,
  exposures: `${BASE}/exposures/`,
  exposure: (id: string) => `${BASE}/exposures/${id}/`,
  parties: `${BASE}/parties/`,
  injuries: `${BASE}/injuries/`,
  auditLog: `${BASE}/audit-log/`,
  products: `${BASE}/claims/refdata/products/`,
  productList: `${BASE}/products/`,
  product: (id: string) => `${BASE}/products/${id}/`,
  perils: `${BASE}/perils/`,
  peril: (id: string) => `${BASE}/perils/${id}/`,
  tags: `${BASE}/tags/`,
  tag: (id: string) => `${BASE}/tags/${id}/`,
  lossCategories: `${BASE}/loss-categories/`,
  reportedMethods: `${BASE}/reported-methods/`,
  coverages: `${BASE}/coverages/`,
  riskTypeGroups: `${BASE}/risk-type-groups/`,
  risks: `${BASE}/risks/`,
  riskTypes: `${BASE}/risk-types/`,
  assignClaims: (username: string) => `${BASE}/claims/users/${encodeURIComponent(username)}/assign/claims/`,
  users: `${BASE}/integrations/users/`,
  userRoles: `${BASE}/integrations/users/roles/`,
  exposureAssignments: `${BASE}/integrations/users/exposure-assignments/`,
  exposureAssignment: (id: string) => `${BASE}/integrations/users/exposure-assignments/${id}/`,
  // Accounting (docs/claims-accounting.md)
  reserves: `${BASE}/reserves/`,
  payments: `${BASE}/payments/`,
  paymentVoid: (id: string) => `${BASE}/payments/${id}/void/`,
  recoveries: `${BASE}/recoveries/`,
  payees: `${BASE}/payees/`,
  transactions: `${BASE}/transactions/`,
  approvals: `${BASE}/approvals/`,
  approval: (id: string, decision: 'approve' | 'reject') => `${BASE}/approvals/${id}/${decision}/`,
  financials: (claimId: string) => `${BASE}/claims/${claimId}/financials/`,
  reserveCategories: `${BASE}/reserve-categories/`,
  paymentMethods: `${BASE}/payment-methods/`,
  // Policies integration (mock policies)
  policySearch: `${BASE}/integrations/policies/search/`,
  policies: `${BASE}/integrations/policies/`,
  revision: (id: string) => `${BASE}/integrations/policies/revisions/${id}/`,
  policyTypes: `${BASE}/integrations/policies/policy-types/`,
  policyType: (id: string) => `${BASE}/integrations/policies/policy-types/${id}/`,
  policyStatuses: `${BASE}/integrations/policies/policy-statuses/`,
  policyStatus: (id: string) => `${BASE}/integrations/policies/policy-statuses/${id}/`,
  // Attachments integration
  attachments: `${BASE}/integrations/attachments/`,
  attachment: (id: string) => `${BASE}/integrations/attachments/${id}/`,
  folderTree: (id: string) => `${BASE}/integrations/attachments/${id}/folder-tree/`,
  moveAttachments: (id: string) => `${BASE}/integrations/attachments/${id}/move-attachments/`,
} as const;
