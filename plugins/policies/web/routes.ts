import { createRouteRef } from '@atrium/sdk';

/** Spec route name `policies`: the policy search. */
export const policiesPageRoute = createRouteRef({ name: 'policies', path: '/policies' });
/** The policy information screen; agents' link (spec: /policies/policy/{policyId}). */
export const policyPageRoute = createRouteRef({ name: 'policies:policy', path: '/policies/policy/:policyId' });
/** The classic link for carrier staff: /{product}/policies/information?policyId={id}. */
export const policyInformationRoute = createRouteRef({
  name: 'policies:information',
  path: '/:product/policies/information',
});
/** Renewals that failed, with their reasons (retry or dismiss). */
export const failedRenewalsRoute = createRouteRef({
  name: 'policies:failed-renewals',
  path: '/policies/failed-renewals',
});
