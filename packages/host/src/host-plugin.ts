import { defineCommand, definePlugin, type PluginManifest } from '@atrium/sdk';
import {
  allModulesAliasRoute,
  allModulesRoute,
  classicClaimRoute,
  classicContactRoute,
  classicPolicyRoute,
  forbiddenRoute,
  loginRoute,
  logoutRoute,
  notFoundRoute,
  oauth2CallbackRoute,
} from './routing/host-route-refs.js';

/**
 * The shell's own pages, commands and shortcuts, declared like any plugin's so that the router,
 * palette and `?` modal treat them the same way and a module cannot silently take their paths.
 */
export const HOST_COMMANDS = {
  openPalette: 'host.openCommandPalette',
  showShortcuts: 'host.showKeyboardShortcuts',
  policyQuickSearch: 'host.policyQuickSearch',
  claimQuickSearch: 'host.claimQuickSearch',
  contactQuickSearch: 'host.contactQuickSearch',
  getHelp: 'host.getHelp',
  goToDashboard: 'host.goToDashboard',
  logOut: 'host.logOut',
} as const;

const quickSearchCommand = (id: string, type: string, title: string) =>
  defineCommand({
    id,
    title,
    group: 'Quick Search',
    keywords: ['find', 'search', type.toLowerCase()],
    run: (_args, { services }) => services.openQuickSearchForType(type),
  });

export interface HostPluginOptions {
  /** Leave out the placeholder login page (the identity module registers the real one). */
  withLoginPlaceholder: boolean;
}

export function createHostPlugin({ withLoginPlaceholder }: HostPluginOptions): PluginManifest {
  const allModulesPage = () => import('./pages/all-modules-page.js');
  return definePlugin({
    id: 'host',
    title: 'Atrium',
    routes: [
      {
        name: allModulesRoute.name,
        path: allModulesRoute.path,
        meta: { layout: 'full-page', title: 'All Modules' },
        loader: allModulesPage,
      },
      {
        name: allModulesAliasRoute.name,
        path: allModulesAliasRoute.path,
        meta: { layout: 'full-page', title: 'All Modules' },
        loader: allModulesPage,
      },
      {
        name: forbiddenRoute.name,
        path: forbiddenRoute.path,
        meta: { layout: 'full-page', exempt: true, title: 'Forbidden' },
        loader: () => import('./pages/forbidden-page.js'),
      },
      {
        name: logoutRoute.name,
        path: logoutRoute.path,
        meta: { layout: 'component-only', requiresAuth: false },
        loader: () => import('./pages/logout-page.js'),
      },
      {
        name: oauth2CallbackRoute.name,
        path: oauth2CallbackRoute.path,
        meta: { layout: 'component-only', requiresAuth: false },
        loader: () => import('./pages/oauth2-callback-page.js'),
      },
      ...(withLoginPlaceholder
        ? [
            {
              name: loginRoute.name,
              path: loginRoute.path,
              meta: { layout: 'component-only' as const, requiresAuth: false, loginOnly: true, title: 'Sign in' },
              loader: () => import('./pages/login-placeholder-page.js'),
            },
          ]
        : []),
      ...[classicPolicyRoute, classicClaimRoute, classicContactRoute].map((ref) => ({
        name: ref.name,
        path: ref.path,
        // Signed in first: the product slug it must carry is a setting (the module route it lands
        // on does its own guarding); another slug shows the not-found page in its usual layout.
        meta: { layout: 'full-page' as const },
        loader: () => import('./pages/classic-link-redirect-page.js'),
      })),
      {
        name: notFoundRoute.name,
        path: notFoundRoute.path,
        meta: { layout: 'full-page', requiresAuth: false, title: 'Page not found' },
        loader: () => import('./pages/not-found-page.js'),
      },
    ],
    commands: [
      defineCommand({
        id: HOST_COMMANDS.openPalette,
        title: 'Open Command Palette',
        group: 'General',
        run: (_args, { services }) => services.openCommandPalette(),
      }),
      defineCommand({
        id: HOST_COMMANDS.showShortcuts,
        title: 'Show Keyboard Shortcuts',
        group: 'General',
        keywords: ['keys', 'bindings', 'help'],
        run: (_args, { services }) => services.openShortcuts(),
      }),
      quickSearchCommand(HOST_COMMANDS.policyQuickSearch, 'Policy', 'Policy Quick Search'),
      quickSearchCommand(HOST_COMMANDS.claimQuickSearch, 'Claim', 'Claim Quick Search'),
      quickSearchCommand(HOST_COMMANDS.contactQuickSearch, 'Contact', 'Contact (Name) Quick Search'),
      defineCommand({
        id: HOST_COMMANDS.getHelp,
        title: 'Get Help',
        group: 'General',
        keywords: ['support', 'ticket'],
        run: (_args, { services }) => services.openHelp(),
      }),
      defineCommand({
        id: HOST_COMMANDS.goToDashboard,
        title: 'Go to All Modules',
        group: 'Navigation',
        keywords: ['all modules', 'dashboard', 'home', 'my work'],
        run: (_args, { services }) => services.navigate('/'),
      }),
      defineCommand({
        id: HOST_COMMANDS.logOut,
        title: 'Log Out',
        group: 'General',
        keywords: ['sign out'],
        when: 'host.signedIn',
        run: (_args, { services }) => services.navigate(logoutRoute.path),
      }),
    ],
    shortcuts: [
      { key: 'mod+k', command: HOST_COMMANDS.openPalette },
      // F1 as in VS Code; works while typing in a field too (not a character key).
      { key: 'f1', command: HOST_COMMANDS.openPalette },
      // `g` + a module's letter opens the module; each module binds its own (the spec's g p, g c and
      // g n stay quick searches).
      { key: 'g h', command: HOST_COMMANDS.goToDashboard, description: 'Go to All Modules', when: '!modalOpen' },
      { key: '?', command: HOST_COMMANDS.showShortcuts, when: '!modalOpen' },
      { key: 'g p', command: HOST_COMMANDS.policyQuickSearch, description: 'Policy quick search', when: '!modalOpen' },
      { key: 'g c', command: HOST_COMMANDS.claimQuickSearch, description: 'Claim quick search', when: '!modalOpen' },
      {
        key: 'g n',
        command: HOST_COMMANDS.contactQuickSearch,
        description: 'Contact (Name) quick search',
        when: '!modalOpen',
      },
    ],
  });
}
