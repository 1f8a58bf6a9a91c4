import type { PermissionDeclaration, Permission } from '@atrium/sdk/server';

/** What the access module's own routes are checked against. */
export const ACCESS_PERMISSIONS = {
  readPolicy: { resource: 'access:policy', action: 'read' },
  createPolicy: { resource: 'access:policy', action: 'create' },
  updatePolicy: { resource: 'access:policy', action: 'update' },
  deletePolicy: { resource: 'access:policy', action: 'delete' },
  readRole: { resource: 'access:role', action: 'read' },
  createRole: { resource: 'access:role', action: 'create' },
  updateRole: { resource: 'access:role', action: 'update' },
  deleteRole: { resource: 'access:role', action: 'delete' },
  readAssignment: { resource: 'access:assignment', action: 'read' },
  createAssignment: { resource: 'access:assignment', action: 'create' },
  updateAssignment: { resource: 'access:assignment', action: 'update' },
  deleteAssignment: { resource: 'access:assignment', action: 'delete' },
  readDirectory: { resource: 'access:directory', action: 'read' },
  importAccess: { resource: 'access:transfer', action: 'import' },
  exportAccess: { resource: 'access:transfer', action: 'export' },
} as const satisfies Record<string, Permission>;

const DESCRIPTIONS: Record<keyof typeof ACCESS_PERMISSIONS, string> = {
  readPolicy: 'List and read access policies; validate statements.',
  createPolicy: 'Create custom access policies.',
  updatePolicy: 'Change custom access policies.',
  deletePolicy: 'Delete custom access policies.',
  readRole: 'List and read roles.',
  createRole: 'Create roles.',
  updateRole: 'Rename roles and change their classic role.',
  deleteRole: 'Delete roles (with their assignments).',
  readAssignment: 'List policy, user and group role assignments.',
  createAssignment: 'Assign policies to roles and roles to users and groups.',
  updateAssignment: 'Change policy, user and group role assignments.',
  deleteAssignment: 'Remove policy, user and group role assignments.',
  readDirectory: 'List the users and groups that hold roles.',
  importAccess: 'Import roles, policies and assignments from an export file.',
  exportAccess: 'Export roles, policies and assignments to a file.',
};

export const ACCESS_PERMISSION_DECLARATIONS: PermissionDeclaration[] = [
  ...(Object.keys(ACCESS_PERMISSIONS) as (keyof typeof ACCESS_PERMISSIONS)[]).map((key) => ({
    ...ACCESS_PERMISSIONS[key],
    description: DESCRIPTIONS[key],
  })),
  { resource: 'ui:access', action: 'ViewModule', description: 'See the Access module.' },
];
