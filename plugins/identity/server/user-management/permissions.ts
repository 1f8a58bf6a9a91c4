import type { Permission, PermissionDeclaration } from '@atrium/sdk/server';

/** The permissions the user-management routes declare (the access module's policies grant them). */
export const USER_MANAGEMENT_PERMISSIONS = {
  readUser: { resource: 'identity:user', action: 'read' },
  createUser: { resource: 'identity:user', action: 'create' },
  updateUser: { resource: 'identity:user', action: 'update' },
  readGroup: { resource: 'identity:group', action: 'read' },
  createGroup: { resource: 'identity:group', action: 'create' },
  updateGroup: { resource: 'identity:group', action: 'update' },
  deleteGroup: { resource: 'identity:group', action: 'delete' },
  createAppClient: { resource: 'identity:app-client', action: 'create' },
  revokeAppClient: { resource: 'identity:app-client', action: 'delete' },
} satisfies Record<string, Permission>;

export const USER_MANAGEMENT_PERMISSION_DECLARATIONS: PermissionDeclaration[] = [
  { ...USER_MANAGEMENT_PERMISSIONS.readUser, description: 'See the users, their groups and the members of groups.' },
  { ...USER_MANAGEMENT_PERMISSIONS.createUser, description: 'Create users.' },
  {
    ...USER_MANAGEMENT_PERMISSIONS.updateUser,
    description:
      'Change a user: attributes, activation, group membership, provider links, password reset and temporary passwords.',
  },
  { ...USER_MANAGEMENT_PERMISSIONS.readGroup, description: 'See the groups of users.' },
  { ...USER_MANAGEMENT_PERMISSIONS.createGroup, description: 'Create groups of users.' },
  { ...USER_MANAGEMENT_PERMISSIONS.updateGroup, description: 'Rename or describe groups of users.' },
  { ...USER_MANAGEMENT_PERMISSIONS.deleteGroup, description: 'Delete groups of users.' },
  {
    ...USER_MANAGEMENT_PERMISSIONS.createAppClient,
    description: 'Create machine clients (app clients) in a role the caller holds.',
  },
  { ...USER_MANAGEMENT_PERMISSIONS.revokeAppClient, description: 'Revoke machine clients (app clients).' },
];
