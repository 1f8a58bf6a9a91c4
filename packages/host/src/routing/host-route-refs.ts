import { createRouteRef } from '@atrium/sdk';

/** The shell's own pages (spec: "Sign-in and account", "Layout and navigation"). */
export const allModulesRoute = createRouteRef({ name: 'all-modules', path: '/' });
export const allModulesAliasRoute = createRouteRef({ name: 'all-modules:alias', path: '/all-modules' });
export const forbiddenRoute = createRouteRef({ name: 'forbidden', path: '/forbidden' });
export const logoutRoute = createRouteRef({ name: 'logout', path: '/logout' });
export const oauth2CallbackRoute = createRouteRef({ name: 'oauth2callback', path: '/oauth2callback' });
/** Placeholder until the identity module registers its own `login` route. */
export const loginRoute = createRouteRef({ name: 'login', path: '/login' });
export const notFoundRoute = createRouteRef({ name: 'not-found', path: '/*' });
export const classicPolicyRoute = createRouteRef({
  name: 'classic:policy-information',
  path: '/:product/policies/information',
});
export const classicClaimRoute = createRouteRef({
  name: 'classic:claim-information',
  path: '/:product/claims/information',
});
export const classicContactRoute = createRouteRef({
  name: 'classic:contact-information',
  path: '/:product/contacts/information',
});
/** Owned by other modules; the shell links to them from the user menu. */
export const MY_ACCOUNT_PATH = '/my-account';
export const SELECT_ROLE_PATH = '/access/select-role';
