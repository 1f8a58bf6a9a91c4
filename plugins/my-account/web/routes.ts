import { createRouteRef } from '@atrium/sdk';

/** My Account's pages (spec: "Sign-in and account"): the profile and the security section. */
export const myAccountRoute = createRouteRef({ name: 'my-account', path: '/my-account' });
export const securityRoute = createRouteRef({ name: 'my-account:security', path: '/my-account/security' });
export const configureSoftwareTokenRoute = createRouteRef({
  name: 'my-account:configure-mfa-software-token',
  path: '/my-account/security/configure-mfa/software-token',
});
export const configureSmsRoute = createRouteRef({
  name: 'my-account:configure-mfa-sms',
  path: '/my-account/security/configure-mfa/sms',
});
