import { createRouteRef } from '@atrium/sdk';

/** The identity module's pages (spec: "Sign-in and account"); other modules link with these refs. */
export const loginRoute = createRouteRef({ name: 'login', path: '/login' });
export const resetPasswordRoute = createRouteRef({ name: 'login:reset-password', path: '/login/reset-password' });
export const forgotPasswordRoute = createRouteRef({ name: 'login:forgot-password', path: '/login/forgot-password' });
export const forceResetPasswordRoute = createRouteRef({
  name: 'login:force-reset-password',
  path: '/login/force-reset-password',
});
export const resetPasswordWithCodeRoute = createRouteRef({
  name: 'login:reset-password-with-code',
  path: '/login/reset-password-with-code',
});
export const mfaRoute = createRouteRef({ name: 'login:mfa', path: '/login/mfa' });
export const idpResponseRoute = createRouteRef({ name: 'login:idpresponse', path: '/login/idpresponse' });
export const loginRoleSelectRoute = createRouteRef({ name: 'login:ko-role-select', path: '/login/ko_roleSelect' });
export const selectRoleRoute = createRouteRef({ name: 'select-role', path: '/access/select-role' });
