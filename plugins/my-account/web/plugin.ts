import { defineCommand, definePlugin } from '@atrium/sdk';
import { configureSmsRoute, configureSoftwareTokenRoute, myAccountRoute, securityRoute } from './routes.js';

/**
 * My Account: the signed-in user's profile and second factors. A core module (always enabled), so
 * it declares no module key for the access check.
 */
export default definePlugin({
  id: 'my-account',
  title: 'My Account',
  routes: [
    {
      name: myAccountRoute.name,
      path: myAccountRoute.path,
      meta: { layout: 'default', title: 'My Account' },
      loader: () => import('./pages/profile-page.js'),
    },
    {
      name: securityRoute.name,
      path: securityRoute.path,
      meta: { layout: 'default', title: 'Security' },
      loader: () => import('./pages/security-page.js'),
    },
    {
      name: configureSoftwareTokenRoute.name,
      path: configureSoftwareTokenRoute.path,
      meta: { layout: 'default', title: 'Set up an authenticator app' },
      loader: () => import('./pages/configure-software-token-page.js'),
    },
    {
      name: configureSmsRoute.name,
      path: configureSmsRoute.path,
      meta: { layout: 'default', title: 'Set up text message codes' },
      loader: () => import('./pages/configure-sms-page.js'),
    },
  ],
  commands: [
    defineCommand({
      id: 'my-account.open',
      title: 'My Account',
      group: 'Navigation',
      keywords: ['profile', 'account'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(myAccountRoute.link({})),
    }),
    defineCommand({
      id: 'my-account.security',
      title: 'Security and MFA',
      group: 'My Account',
      keywords: ['mfa', 'two-factor', 'authenticator', 'sms'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(securityRoute.link({})),
    }),
  ],
});
