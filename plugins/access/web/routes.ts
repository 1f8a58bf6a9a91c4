import { createRouteRef } from '@atrium/sdk';

/** The Access module's pages (spec route names). `/access/select-role` belongs to the shell. */
/** The module's front page: an overview linking to the sections the role may open. */
export const accessIndexRoute = createRouteRef({ name: 'access:index', path: '/access' });
export const accessPoliciesRoute = createRouteRef({ name: 'access:policies', path: '/access/policies' });
/** `policyId` is a policy's id, or `new` for a new custom policy. */
export const accessPolicyEditRoute = createRouteRef({ name: 'access:policy-edit', path: '/access/policies/:policyId' });
export const accessRolesRoute = createRouteRef({ name: 'access:roles', path: '/access/roles' });
export const accessUsersRoute = createRouteRef({ name: 'access:users', path: '/access/users' });
export const accessGroupsRoute = createRouteRef({ name: 'access:groups', path: '/access/groups' });
export const accessAssignmentsRoute = createRouteRef({ name: 'access:assignments', path: '/access/assignments' });
export const accessImportExportRoute = createRouteRef({ name: 'access:import-export', path: '/access/import-export' });

export const NEW_POLICY_ID = 'new';
