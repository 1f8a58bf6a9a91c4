import { definePlugin, type PluginRoute } from '@atrium/sdk';
import {
  forceResetPasswordRoute,
  forgotPasswordRoute,
  idpResponseRoute,
  loginRoleSelectRoute,
  loginRoute,
  mfaRoute,
  resetPasswordRoute,
  resetPasswordWithCodeRoute,
  selectRoleRoute,
} from './routes.js';
import { RESET_PASSWORD_HEADER } from './sign-in-messages.js';

/**
 * The identity module's web half: the sign-in pages (only for users who are not signed in), the two
 * role pickers, and — through `session-provider.ts` — the session the host's route guard refreshes.
 * Its pages replace the host's /login placeholder.
 */
const loginOnly = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'component-only', requiresAuth: false, loginOnly: true, title },
  loader,
});

export default definePlugin({
  id: 'identity',
  title: 'Sign-in',
  routes: [
    loginOnly(loginRoute, 'Sign in', () => import('./pages/login-page.js')),
    loginOnly(resetPasswordRoute, RESET_PASSWORD_HEADER, () => import('./pages/reset-password-page.js')),
    loginOnly(forgotPasswordRoute, RESET_PASSWORD_HEADER, () => import('./pages/forgot-password-page.js')),
    loginOnly(forceResetPasswordRoute, RESET_PASSWORD_HEADER, () => import('./pages/force-reset-password-page.js')),
    loginOnly(
      resetPasswordWithCodeRoute,
      RESET_PASSWORD_HEADER,
      () => import('./pages/reset-password-with-code-page.js'),
    ),
    loginOnly(mfaRoute, 'Verify it’s you', () => import('./pages/mfa-page.js')),
    loginOnly(idpResponseRoute, 'Sign in', () => import('./pages/idp-response-page.js')),
    {
      name: loginRoleSelectRoute.name,
      path: loginRoleSelectRoute.path,
      // Signed in already, and exempt: the module check needs the role being chosen here.
      meta: { layout: 'component-only', exempt: true, title: 'Select a role' },
      loader: () => import('./pages/role-select-page.js'),
    },
    {
      name: selectRoleRoute.name,
      path: selectRoleRoute.path,
      meta: { layout: 'component-only', exempt: true, title: 'Select a role' },
      loader: () => import('./pages/role-select-page.js'),
    },
  ],
});
