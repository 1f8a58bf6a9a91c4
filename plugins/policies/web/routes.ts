import { createRouteRef } from '@atrium/sdk';

/** Spec route name `policies`: the policy search. */
export const policiesPageRoute = createRouteRef({ name: 'policies', path: '/policies' });
/** The policy information screen; agents' link (spec: /policies/policy/{policyId}). */
export const policyPageRoute = createRouteRef({ name: 'policies:policy', path: '/policies/policy/:policyId' });
/** Where the shell sends the classic /{product}/policies/information?policyId={id} (same screen). */
export const policyInformationRoute = createRouteRef({ name: 'policies:information', path: '/policies/:policyId' });
/** Renewals that failed, with their reasons (retry or dismiss). */
export const failedRenewalsRoute = createRouteRef({
  name: 'policies:failed-renewals',
  path: '/policies/failed-renewals',
});
