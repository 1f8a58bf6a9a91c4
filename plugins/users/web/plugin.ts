import IconUsers from '@tabler/icons-react/icons/IconUsers';
import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import {
  usersAdminSettingsRoute,
  usersEditRoute,
  usersListRoute,
  usersManageRoute,
  usersSignInProvidersRoute,
} from './routes.js';

/**
 * The Users module: the carrier's user accounts (identity's user management, JSON:API) — list and
 * search, create or invite, edit (groups, activate/deactivate, reset or set a temporary password)
 * and the administrator settings (MFA, password policy, session timeout). Shown when the effective
 * role may `ViewModule` on `ui:users`; the Agent and Agency system policies deny it, so the route
 * guard sends agents and agencies to /forbidden (the pages check the role's name as well).
 */
const page = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title },
  loader,
});

export default definePlugin({
  id: 'users',
  title: 'Users',
  moduleKey: 'users',
  routes: [
    page(usersListRoute, 'Users', () => import('./pages/users-list-page.js')),
    page(usersManageRoute, 'New user', () => import('./pages/user-manage-page.js')),
    page(usersAdminSettingsRoute, 'Admin settings', () => import('./pages/admin-settings-page.js')),
    page(usersEditRoute, 'Edit user', () => import('./pages/user-edit-page.js')),
    {
      ...page(usersSignInProvidersRoute, 'Sign-in providers', () => import('./pages/sign-in-providers-page.js')),
      // Only administrators of sign-in see the entry (the route guard checks it too).
      meta: {
        layout: 'default',
        title: 'Sign-in providers',
        permission: { resource: 'identity:oidc-provider', action: 'read' },
      },
    },
  ],
  nav: [
    {
      id: 'users.nav',
      title: 'Users',
      to: usersListRoute,
      area: 'main',
      order: 950,
      icon: IconUsers,
      command: 'users.open',
    },
    { id: 'users.list', title: 'Users', to: usersListRoute, area: 'sub', order: 1 },
    {
      id: 'users.new',
      title: 'New user',
      to: usersManageRoute,
      area: 'sub',
      order: 2,
      command: 'users.new',
    },
    {
      id: 'users.admin-settings',
      title: 'Admin settings',
      to: usersAdminSettingsRoute,
      area: 'sub',
      order: 3,
    },
    {
      id: 'users.sign-in-providers',
      title: 'Sign-in providers',
      to: usersSignInProvidersRoute,
      area: 'sub',
      order: 4,
    },
  ],
  commands: [
    defineCommand({
      id: 'users.open',
      title: 'Open Users',
      group: 'Users',
      keywords: ['users', 'accounts', 'people', 'groups'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(usersListRoute.link({})),
    }),
    defineCommand({
      id: 'users.new',
      title: 'New User',
      group: 'Users',
      keywords: ['user', 'create', 'invite', 'account'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(usersManageRoute.link({})),
    }),
  ],
  shortcuts: [{ key: 'g u', command: 'users.open', description: 'Go to Users', when: '!modalOpen' }],
});
