import { createRouteRef } from '@atrium/sdk';

/** The Users module's pages (spec: "users with children manage/{inviteUserContactId?}, admin-settings, edit/{username}"). */
export const usersListRoute = createRouteRef({ name: 'users:list', path: '/users' });
/** Creates (invites) a user; `inviteUserContactId` names the contact being invited, when there is one. */
export const usersManageRoute = createRouteRef({ name: 'users:manage', path: '/users/manage/:inviteUserContactId?' });
export const usersAdminSettingsRoute = createRouteRef({ name: 'users:admin-settings', path: '/users/admin-settings' });
export const usersEditRoute = createRouteRef({ name: 'users:edit', path: '/users/edit/:username' });
/** External OpenID Connect providers users may sign in with (not in the spec; docs/identity.md). */
export const usersSignInProvidersRoute = createRouteRef({
  name: 'users:sign-in-providers',
  path: '/users/sign-in-providers',
});
