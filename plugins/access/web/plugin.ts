import IconLock from '@tabler/icons-react/icons/IconLock';
import { defineCommand, definePlugin, type PluginRoute } from '@atrium/sdk';
import {
  accessAssignmentsRoute,
  accessGroupsRoute,
  accessImportExportRoute,
  accessIndexRoute,
  accessPoliciesRoute,
  accessPolicyEditRoute,
  accessRolesRoute,
  accessUsersRoute,
  NEW_POLICY_ID,
} from './routes.js';

/**
 * The Access module: policies (list and a Monaco editor for their statements), roles, the users and
 * groups that hold roles, assignments, and import/export. Shown when the effective role may
 * `ViewModule` on `ui:access`; every call is checked again by the access service. Pages load
 * lazily: Monaco is only in the policy editor's chunk, never in the first bundle.
 */
const page = (ref: { name: string; path: string }, title: string, loader: PluginRoute['loader']): PluginRoute => ({
  name: ref.name,
  path: ref.path,
  meta: { layout: 'default', title },
  loader,
});

export default definePlugin({
  id: 'access',
  title: 'Access',
  moduleKey: 'access',
  routes: [
    page(accessIndexRoute, 'Access', () => import('./pages/access-index-page.js')),
    page(accessPoliciesRoute, 'Policies', () => import('./pages/policies-page.js')),
    page(accessPolicyEditRoute, 'Policy', () => import('./pages/policy-edit-page.js')),
    page(accessRolesRoute, 'Roles', () => import('./pages/roles-page.js')),
    page(accessUsersRoute, 'Users and roles', () => import('./pages/users-page.js')),
    page(accessGroupsRoute, 'Groups and roles', () => import('./pages/groups-page.js')),
    page(accessAssignmentsRoute, 'Assignments', () => import('./pages/assignments-page.js')),
    page(accessImportExportRoute, 'Import and export', () => import('./pages/import-export-page.js')),
  ],
  nav: [
    {
      id: 'access.nav',
      title: 'Access',
      to: accessIndexRoute,
      area: 'main',
      order: 900,
      icon: IconLock,
      command: 'access.open',
    },
    {
      id: 'access.policies',
      // "Policies" alone reads as insurance policies in the palette and the page strip.
      title: 'Access policies',
      to: accessPoliciesRoute,
      area: 'sub',
      order: 1,
      command: 'access.openPolicies',
    },
    { id: 'access.roles', title: 'Roles', to: accessRolesRoute, area: 'sub', order: 2 },
    {
      id: 'access.assignments',
      title: 'Assignments',
      to: accessAssignmentsRoute,
      area: 'sub',
      order: 3,
    },
    { id: 'access.users', title: 'Users', to: accessUsersRoute, area: 'sub', order: 4 },
    { id: 'access.groups', title: 'Groups', to: accessGroupsRoute, area: 'sub', order: 5 },
    {
      id: 'access.import-export',
      title: 'Import and export',
      to: accessImportExportRoute,
      area: 'sub',
      order: 6,
    },
  ],
  commands: [
    defineCommand({
      id: 'access.open',
      title: 'Open Access',
      group: 'Access',
      keywords: ['access', 'permissions', 'roles', 'assignments'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(accessIndexRoute.link({})),
    }),
    defineCommand({
      id: 'access.openPolicies',
      title: 'Open Access Policies',
      group: 'Access',
      keywords: ['access', 'policies', 'permissions', 'roles'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(accessPoliciesRoute.link({})),
    }),
    defineCommand({
      id: 'access.newPolicy',
      title: 'New Access Policy',
      group: 'Access',
      keywords: ['access', 'policy', 'create', 'permissions'],
      when: 'host.signedIn',
      run: (_args, { services }) => services.navigate(accessPolicyEditRoute.link({ policyId: NEW_POLICY_ID })),
    }),
  ],
  // `g a`: the module's chord (issue 13: every module has one, listed in `?`).
  shortcuts: [{ key: 'g a', command: 'access.open', description: 'Go to Access', when: '!modalOpen' }],
});
